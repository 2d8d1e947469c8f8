"""The library for language-model clients: an MCP server over stdio (CONTRACT section 10). No Qt.

Three tools — ``search_library``, ``get_context``, ``read_passage`` — built with the official ``mcp``
SDK (:mod:`.server`) as thin adapters over the retrieval service's engine (:mod:`amicus_desktop.serve`):
the same parameter rules, the same ranking, the same section-9 body. :mod:`amicus_desktop.serve.passage` reads a
passage's verses; :mod:`.text` writes what the model reads. ``amicus_desktop/cli/mcp.py`` runs it.
"""

"""The library for language-model clients: an MCP server over stdio and HTTP (CONTRACT section 10). No Qt.

Built with the official ``mcp`` SDK (:mod:`.server`): the tools ``search_library``, ``get_context``,
``read_passage``, ``search_verses`` (:mod:`.tools`), ``cross_references``, ``strongs``, ``list_notes`` and
``add_note`` (:mod:`.study_tools`), and passages as resources — thin adapters over the engine the command
line and the retrieval service use (:mod:`amicus_desktop.serve`): the same parameter rules, the same ranking,
the same bodies. Every answer is cut to the call's ``detail`` and ``max_tokens`` with a cursor for the rest
(:mod:`.sizing`, :mod:`.shapes`), valid against the tool's output schema (:mod:`.schemas`), and says where it
comes from (:mod:`.provenance`); :mod:`.text` writes what the model reads. ``amicus_desktop/cli/mcp.py`` runs it.
"""

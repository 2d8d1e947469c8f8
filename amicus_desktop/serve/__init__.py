"""The retrieval service (CONTRACT section 9): the engine of ``query`` over HTTP, for other programs and
for a library shared by many readers. No Qt.

- :mod:`.params` — ``GET /retrieve``'s parameters, checked by ``query``'s own flag rules;
- :mod:`.request_body` — ``POST /retrieve``'s JSON body, turned into the same parameters;
- :mod:`.cache` — the ETag of an answer, ``If-None-Match`` → ``304``;
- :mod:`.reading`, :mod:`.passage` — ``GET /passage`` and ``GET /verses``: the Bible text;
- :mod:`.access` — tokens (``AMICUS_SERVE_TOKEN``, ``--clients FILE``), workspaces, the rate limit;
- :mod:`.scope` — the request's workspace and overlay: where notes and overlays plug in;
- :mod:`.library` — the engine: ``Retriever`` lanes over one read-only library, one embed client;
- :mod:`.body` — a retrieval as section 9's JSON (shared with the MCP server);
- :mod:`.errors` — every code and its HTTP status;
- :mod:`.observe` — trace ids on every answer, one log line per request;
- :mod:`.openapi` — the OpenAPI 3.1 description;
- :mod:`.app` — the Starlette app; ``amicus_desktop/cli/serve.py`` runs it under uvicorn with the
  embed proxy's connection limits and lifecycle (:mod:`amicus_desktop.http.limits`,
  :mod:`amicus_desktop.http.lifecycle`).
"""

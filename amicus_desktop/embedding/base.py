"""The one interface every embedder implements, the error every embedder raises, and L2 normalising.

An *embedder* turns texts into vectors. Four implement :class:`Embedder`:

* :class:`~amicus_desktop.embedding.local.LocalMiniLMBackend` — all-MiniLM-L6-v2 in this process;
* :class:`~amicus_desktop.embedding.e5.E5Backend` — multilingual-e5-small in this process (optional);
* :class:`~amicus_desktop.embedding.openai.OpenAIBackend` — an OpenAI-compatible upstream;
* :class:`~amicus_desktop.embedding.proxy_embedder.ProxyEmbedder` — a running embed proxy (``/ai/embed``).

The proxy serves the first two over HTTP; ``build-db``, the build dialog and the benchmark call
any of the three in-process. Failures are :class:`BackendError` (or a subclass), an ``AmicusError`` whose
``status`` and ``code`` are what the proxy answers with.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import ClassVar, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from ..core.errors import AmicusError, ErrorCode

#: ``(n, dims)`` float32 rows, each of unit length.
Vectors = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised vectors.

    ``model_id`` is what ``/health`` and ``/ai/embed`` report (and what ``build-db`` writes as
    ``db_meta.embedding_model``); it names the model *and* the package version that supplies it.
    ``dims`` may load the model (or ask a remote service once). :meth:`load` does the slow
    start-up now (idempotent), so that a server can fail before it listens; :meth:`close` frees
    what the embedder holds (connections, a loop); using it afterwards is an error.
    """

    @property
    def model_id(self) -> str: ...

    @property
    def dims(self) -> int: ...

    def load(self) -> None:
        """Load the model or contact the service now. Raises :class:`BackendError`."""

    def embed(self, texts: Sequence[str]) -> Vectors:
        """``(len(texts), dims)`` float32, each row L2-normalised, rows in input order.

        Thread-safe. Raises :class:`BackendError` (or a subclass) on failure.
        """
        ...

    def close(self) -> None:
        """Release connections and threads (a no-op for an embedder that holds none)."""


@runtime_checkable
class PassageEmbedder(Embedder, Protocol):
    """An asymmetric model: documents are embedded differently from questions (e5's prefixes).

    :meth:`Embedder.embed` embeds questions (what the proxy serves); :meth:`embed_passages` embeds
    the chunks a database stores.
    """

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        """``(len(texts), dims)`` float32 document vectors, like :meth:`Embedder.embed`."""
        ...


def embed_documents(embedder: Embedder, texts: Sequence[str]) -> Vectors:
    """Vectors of chunks to store: an asymmetric model's passage side, else plain :meth:`~Embedder.embed`."""
    if isinstance(embedder, PassageEmbedder):
        return embedder.embed_passages(texts)
    return embedder.embed(texts)


class ProxyCode(enum.StrEnum):
    """What the embed proxy answers besides the contract's section-5 codes (``amicus_desktop/proxy/README.md``)."""

    BAD_JSON = "BAD_JSON"
    BAD_REQUEST = "BAD_REQUEST"
    EMPTY_INPUT = "EMPTY_INPUT"
    UNAUTHORIZED = "UNAUTHORIZED"
    UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE"
    TOO_MANY_INPUTS = "TOO_MANY_INPUTS"
    INPUT_TOO_LONG = "INPUT_TOO_LONG"
    BODY_TOO_LARGE = "BODY_TOO_LARGE"
    RATE_LIMITED = "RATE_LIMITED"
    UPSTREAM_ERROR = "UPSTREAM_ERROR"
    UPSTREAM_TIMEOUT = "UPSTREAM_TIMEOUT"
    UPSTREAM_BAD_RESPONSE = "UPSTREAM_BAD_RESPONSE"
    UPSTREAM_AUTH = "UPSTREAM_AUTH"
    UPSTREAM_REJECTED = "UPSTREAM_REJECTED"
    UPSTREAM_UNAVAILABLE = "UPSTREAM_UNAVAILABLE"


class BackendError(AmicusError):
    """An embedder could not produce vectors.

    In the one error tree (:mod:`amicus_desktop.core.errors`): ``code`` (a :class:`ProxyCode`, or the contract's
    ``EMBED_FAILED``, ``OFFLINE``… when a proxy's answer is passed on) and ``status`` are what the proxy answers
    with; ``message`` is a human sentence fit for a response body (never input text, tokens, keys or internals);
    ``retry_header`` an upstream's ``Retry-After``, passed on as it came.
    """

    codes = (ErrorCode, ProxyCode)
    status = 500
    default_code: ClassVar[enum.StrEnum] = ErrorCode.EMBED_FAILED

    def __init__(self, message: str, *, status: int | None = None, code: enum.StrEnum | str | None = None,
                 retry_after: str | None = None) -> None:
        super().__init__(self.default_code if code is None else code, message)
        if status is not None:
            self.status = status
        self.retry_header = retry_after


class BackendUnavailable(BackendError):
    """The backend cannot be used at all (model file missing, upstream unreachable): 503."""

    status = 503
    default_code = ProxyCode.UPSTREAM_UNAVAILABLE


class UpstreamError(BackendError):
    """The upstream answered, but with an error or garbage: 502."""

    status = 502
    default_code = ProxyCode.UPSTREAM_ERROR


class UpstreamRateLimited(BackendError):
    """The upstream said 429: passed through with its ``Retry-After``."""

    status = 429
    default_code = ProxyCode.RATE_LIMITED


def l2_normalise(vectors: npt.ArrayLike) -> Vectors:
    """Rows scaled to unit length, as float32. A zero row stays zero (it has no direction)."""
    matrix = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    np.maximum(norms, 1e-12, out=norms)
    unit: Vectors = (matrix / norms).astype(np.float32, copy=False)
    return unit

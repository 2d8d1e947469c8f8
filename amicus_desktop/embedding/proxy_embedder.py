"""The embed proxy as an :class:`~amicus_desktop.embedding.Embedder`: ``build-db --proxy URL`` and ingest. No Qt.

It is :class:`~.client.EmbedClient` run on a private event loop, so it follows the same rules.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Awaitable, Callable, Sequence
from typing import Self, TypeVar

import numpy as np

from ..core.errors import AmicusError, ErrorCode
from ..core.results import ModelInfo
from .base import BackendError, BackendUnavailable, UpstreamError, Vectors, l2_normalise
from .client import BATCH_READ_TIMEOUT, MAX_PER_REQUEST, RETRY_DELAY, EmbedClient, mismatch_error

T = TypeVar("T")


class ProxyEmbedder:
    """An :class:`~amicus_desktop.embedding.Embedder` over a running proxy: ``build-db --proxy URL``.

    It is :class:`EmbedClient` run on a private event loop, so it has the same errors, retry and
    deadline (``read_timeout`` defaults to :data:`BATCH_READ_TIMEOUT`: 64 texts take the model
    longer than one question). ``model_id``/``dims`` come from the proxy's ``/health``, and every
    answer must name that same model: the database records exactly what the proxy serves.
    Failures are :class:`~amicus_desktop.embedding.BackendError` whose ``code`` is the contract's.
    Use it from threads without a running event loop (a worker thread, the command line).
    """

    def __init__(self, url: str, token: str | None = None, *, per_request: int = MAX_PER_REQUEST,
                 read_timeout: float = BATCH_READ_TIMEOUT, retry_delay: float = RETRY_DELAY) -> None:
        self.url = url.rstrip("/")
        self.per_request = max(1, min(int(per_request), MAX_PER_REQUEST))
        self._client = EmbedClient(self.url, token, read_timeout=read_timeout, retry_delay=retry_delay, cache_size=0)
        self._runner = asyncio.Runner()
        self._lock = threading.Lock()  # one request at a time on the private loop
        self._model: ModelInfo | None = None

    def _run(self, work: Callable[[], Awaitable[T]]) -> T:
        with self._lock:
            try:
                return self._runner.run(_awaited(work))
            except AmicusError as err:
                cls = BackendUnavailable if err.code is ErrorCode.OFFLINE else UpstreamError
                raise cls(err.message, code=err.code) from None

    # -- identity --------------------------------------------------------------------------
    def load(self) -> None:
        """Ask the proxy's ``/health`` which model it serves (once)."""
        if self._model is None:
            self._model = self._run(self._client.health)

    @property
    def model_id(self) -> str:
        self.load()
        assert self._model is not None
        return self._model.id

    @property
    def dims(self) -> int:
        self.load()
        assert self._model is not None
        return self._model.dims

    # -- embedding -------------------------------------------------------------------------
    def embed(self, texts: Sequence[str]) -> Vectors:
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of strings, not one string")
        texts = list(texts)
        expected = ModelInfo(self.model_id, self.dims)
        parts: list[Vectors] = [np.zeros((0, expected.dims), dtype=np.float32)]
        for start in range(0, len(texts), self.per_request):
            batch = texts[start : start + self.per_request]
            model, vectors = self._run(functools.partial(self._client.embed_batch, batch))
            err = mismatch_error(model, expected)
            if err is not None:
                raise BackendError(f"The embed proxy changed model during the build: {err.message}",
                                   status=502, code=err.code)
            parts.append(l2_normalise(vectors))
        return np.vstack(parts)

    def close(self) -> None:
        with self._lock:
            try:
                self._runner.run(self._client.aclose())
            finally:
                self._runner.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


async def _awaited(work: Callable[[], Awaitable[T]]) -> T:
    return await work()

"""The embed client with the model in this process: ``serve --embed local`` (a single-host service).

:class:`InProcessEmbedClient` is :class:`~.client.EmbedClient` — the same session cache of question
vectors, the same one retry, the same errors — whose one attempt is a call of a local backend instead of
``POST /ai/embed``: no HTTP hop, no JSON of 384 floats to write and read back. Questions queue on the
event loop, and one thread runs all those waiting as one model call
(:meth:`~.batching.BatchingEmbedder.run_together`: each gets its own rows, or its own error) while the
next batch gathers — no thread waits per question. onnxruntime releases the interpreter lock while it
runs, so the event loop keeps answering meanwhile.

Errors keep the contract's two kinds: a backend that cannot load (the model package missing) is
``OFFLINE`` — the vectors cannot be made, as with a proxy that cannot be reached; any other failure of
the model is ``EMBED_FAILED`` (retried once, like a proxy's 5xx). Nothing here logs text.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TypeVar

import numpy as np

from ..core.errors import AmicusError, ErrorCode
from ..core.results import ModelInfo
from .base import BackendError, BackendUnavailable, Embedder, Vectors
from .batching import DEFAULT_MAX_TEXTS, BatchingEmbedder
from .client import EmbedClient

#: threads that run model calls (one batch at a time runs; a second serves /health's load check meanwhile)
THREADS = 2
T = TypeVar("T")

#: what error messages call the model instead of a proxy's address
SHOWN_AS = "the in-process embedding model"


class InProcessEmbedClient(EmbedClient):
    """:class:`EmbedClient`'s rules over ``backend`` in this process (see the module docstring)."""

    def __init__(self, backend: Embedder, *, cache_size: int = 256, max_texts: int = DEFAULT_MAX_TEXTS,
                 threads: int = THREADS) -> None:
        # the parent's HTTP client is made but never used: every request goes through _embed_once/health here
        super().__init__("http://127.0.0.1", cache_size=cache_size)
        self.shown_url = SHOWN_AS
        self.batcher = BatchingEmbedder(backend, max_texts=max_texts)
        self._pool = ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="amicus-embed")
        self._waiting: deque[tuple[list[str], asyncio.Future[Vectors]]] = deque()
        self._drainer: asyncio.Task[None] | None = None

    @property
    def model(self) -> ModelInfo:
        return ModelInfo(self.batcher.model_id, self.batcher.dims)

    def load(self) -> None:
        """Load the model now (before a service listens), raising the client's errors."""
        try:
            self.batcher.load()
        except BackendError as exc:
            raise _error(exc) from None

    async def health(self) -> ModelInfo:
        await self._call(self.load)
        return self.model

    async def aclose(self) -> None:
        await super().aclose()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self.batcher.close()

    async def _embed_once(self, texts: list[str]) -> tuple[ModelInfo, Vectors]:
        vectors = await self._queued(texts)
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.shape != (len(texts), self.batcher.dims) or not np.isfinite(vectors).all():
            raise AmicusError(ErrorCode.EMBED_FAILED, f"{SHOWN_AS} produced no usable vectors.", retryable=True)
        return self.model, vectors

    async def _queued(self, texts: list[str]) -> Vectors:
        """``texts``' vectors, queued on the event loop: while the model runs one batch the next one gathers, and
        one thread runs each batch (no thread waits per question — their wake-ups cost the event loop the lock)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Vectors] = loop.create_future()
        self._waiting.append((texts, future))
        if self._drainer is None or self._drainer.done():
            self._drainer = loop.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        while self._waiting:
            batch = [self._waiting.popleft()]
            size = len(batch[0][0])
            while self._waiting and size + len(self._waiting[0][0]) <= self.batcher.max_texts:
                batch.append(self._waiting.popleft())
                size += len(batch[-1][0])
            live = [(texts, future) for texts, future in batch if not future.done()]  # a client gone: skipped
            if not live:
                continue
            try:
                outcomes = await self._call(partial(self.batcher.run_together, [texts for texts, _f in live]))
            except BaseException as exc:  # the pool itself failed (closing): every waiting request gets it
                outcomes = [exc] * len(live)
                if not isinstance(exc, Exception):
                    raise
            for (_texts, future), outcome in zip(live, outcomes, strict=True):
                if future.done():
                    continue
                if isinstance(outcome, BaseException):
                    future.set_exception(_as_error(outcome))
                else:
                    future.set_result(outcome)

    async def _call(self, fn: Callable[[], T]) -> T:
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, fn)
        except BackendError as exc:
            raise _error(exc) from None
        except AmicusError:
            raise
        except Exception as exc:  # a bug or a broken model file: the contract's EMBED_FAILED, no stack trace
            raise AmicusError(ErrorCode.EMBED_FAILED, f"{SHOWN_AS} failed ({type(exc).__name__}).",
                              retryable=True) from None


def _as_error(exc: BaseException) -> BaseException:
    """A request's own failure as the client's errors (an :class:`AmicusError` as it is; a bug ``EMBED_FAILED``)."""
    if isinstance(exc, BackendError):
        return _error(exc)
    if isinstance(exc, AmicusError) or not isinstance(exc, Exception):
        return exc
    return AmicusError(ErrorCode.EMBED_FAILED, f"{SHOWN_AS} failed ({type(exc).__name__}).", retryable=True)


def _error(exc: BackendError) -> AmicusError:
    if isinstance(exc, BackendUnavailable):
        return AmicusError(ErrorCode.OFFLINE, f"{SHOWN_AS} cannot run: {exc.message}")
    return AmicusError(ErrorCode.EMBED_FAILED, f"{SHOWN_AS} failed: {exc.message}", retryable=True)

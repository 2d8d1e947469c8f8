"""The embed client with the model in this process: ``serve --embed local`` (a single-host service).

:class:`InProcessEmbedClient` is :class:`~.client.EmbedClient` — the same session cache of question
vectors, the same one retry, the same errors — whose one attempt is a call of a local backend through a
:class:`~.batching.BatchingEmbedder` on a thread pool of its own, instead of ``POST /ai/embed``: no HTTP
hop, no JSON of 384 floats to write and read back, and concurrent questions share one forward pass.
onnxruntime releases the interpreter lock while it runs, so the event loop keeps answering meanwhile.

Errors keep the contract's two kinds: a backend that cannot load (the model package missing) is
``OFFLINE`` — the vectors cannot be made, as with a proxy that cannot be reached; any other failure of
the model is ``EMBED_FAILED`` (retried once, like a proxy's 5xx). Nothing here logs text.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import numpy as np

from ..core.errors import AmicusError, ErrorCode
from ..core.results import ModelInfo
from .base import BackendError, BackendUnavailable, Embedder, Vectors
from .batching import DEFAULT_MAX_TEXTS, BatchingEmbedder
from .client import EmbedClient

#: threads that may wait for (or run) a model call: a waiting question holds one, so this bounds a batch
THREADS = 64
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
        vectors = await self._call(lambda: self.batcher.embed(texts))
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.shape != (len(texts), self.batcher.dims) or not np.isfinite(vectors).all():
            raise AmicusError(ErrorCode.EMBED_FAILED, f"{SHOWN_AS} produced no usable vectors.", retryable=True)
        return self.model, vectors

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


def _error(exc: BackendError) -> AmicusError:
    if isinstance(exc, BackendUnavailable):
        return AmicusError(ErrorCode.OFFLINE, f"{SHOWN_AS} cannot run: {exc.message}")
    return AmicusError(ErrorCode.EMBED_FAILED, f"{SHOWN_AS} failed: {exc.message}", retryable=True)

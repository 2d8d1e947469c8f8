"""Concurrent questions through one model call: :class:`BatchingEmbedder`, around any in-process backend.

A question is ~15 word pieces; with 32 clients asking at once, the proxy (or a service with the model
in-process) received 32 requests, each one a forward pass of one text behind the backend's one-pass-at-a-time
lock. Here the callers queue their texts instead, and whoever finds the model idle runs *every* text waiting
(up to ``max_texts``) as one :meth:`~amicus_desktop.embedding.Embedder.embed` call, hands each caller its own
rows, and leaves the model to the next waiting caller (leader and followers: no thread of its own, no timer,
so one question alone waits for nothing). While one batch runs, the next fills.

What it keeps true:

* **each caller gets exactly its own vectors** — row ``i`` of a caller's answer is its text ``i``; the local
  model pads per batch and masks the padding out, so a text's vector in a batch is the vector it gets alone
  (tests/proxy/test_batching.py checks it with the real model);
* **an error in one request does not fail the others**: when a batch's call raises, each caller's texts are
  run again on their own, so only the request that fails gets the error (its own ``BackendError``);
* a request larger than ``max_texts`` (``build-db`` sends 64 chunks) runs as one call of its own, as before.

Thread-safe; the backend's own rules apply to the call (the local model runs one pass at a time anyway).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .base import Embedder, Vectors

#: texts in one model call at most (32 questions of ~15 word pieces pad to a few hundred tokens)
DEFAULT_MAX_TEXTS = 32


@dataclass
class _Job:
    texts: list[str]
    vectors: Vectors | None = None
    error: BaseException | None = None
    done: bool = False


@dataclass
class BatchStats:
    """How the batcher has grouped the calls so far (for the benchmark and the log)."""

    calls: int = 0
    requests: int = 0
    texts: int = 0
    retried_alone: int = 0
    largest: int = 0
    sizes: dict[int, int] = field(default_factory=dict)


class BatchingEmbedder:
    """An :class:`~amicus_desktop.embedding.Embedder` that runs concurrent ``embed`` calls as one backend call."""

    def __init__(self, backend: Embedder, *, max_texts: int = DEFAULT_MAX_TEXTS) -> None:
        self.backend = backend
        self.max_texts = max(1, int(max_texts))
        self.stats = BatchStats()
        self._cond = threading.Condition()
        self._queue: deque[_Job] = deque()
        self._running = False

    @property
    def model_id(self) -> str:
        return self.backend.model_id

    @property
    def dims(self) -> int:
        return self.backend.dims

    def load(self) -> None:
        self.backend.load()

    def close(self) -> None:
        self.backend.close()

    def embed(self, texts: Sequence[str]) -> Vectors:
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of strings, not one string")
        job = _Job(list(texts))
        if not job.texts:
            return np.zeros((0, self.dims), dtype=np.float32)
        with self._cond:
            self._queue.append(job)
            while not job.done:
                if self._running:
                    self._cond.wait()
                    continue
                self._running = True  # this caller runs the model for everyone waiting
                batch = self._take()
                self._cond.release()
                try:
                    self._run(batch)
                finally:
                    self._cond.acquire()
                    self._running = False
                    self._cond.notify_all()
        if job.error is not None:
            raise job.error
        assert job.vectors is not None
        return job.vectors

    def run_together(self, requests: list[list[str]]) -> list[Vectors | BaseException]:
        """Each request's vectors — or its own error — from one backend call for all of them (each alone after a
        failure), for a caller that queues the requests itself (the service's event loop: :mod:`.in_process`)."""
        jobs = [_Job(list(texts)) for texts in requests]
        self._run(jobs)
        return [job.error if job.error is not None else job.vectors  # type: ignore[misc]
                for job in jobs]

    def _take(self) -> list[_Job]:
        """(under the lock) The waiting jobs in arrival order, up to ``max_texts`` texts (at least one job)."""
        batch = [self._queue.popleft()]
        size = len(batch[0].texts)
        while self._queue and size + len(self._queue[0].texts) <= self.max_texts:
            job = self._queue.popleft()
            batch.append(job)
            size += len(job.texts)
        return batch

    def _run(self, batch: list[_Job]) -> None:
        """Run ``batch`` as one call; on failure, each job again alone. Every job ends done."""
        texts = [t for job in batch for t in job.texts]
        self._count(len(batch), len(texts))
        try:
            if len(batch) == 1:
                self._finish_alone(batch[0], counted=True)
                return
            try:
                vectors = np.asarray(self.backend.embed(texts), dtype=np.float32)
                if vectors.shape != (len(texts), self.dims):
                    raise ValueError(f"the backend answered {vectors.shape} for {len(texts)} texts")
            except Exception:  # one bad request must not fail the others: each one alone
                for job in batch:
                    self.stats.retried_alone += 1
                    self._finish_alone(job, counted=False)
                return
            start = 0
            for job in batch:
                job.vectors = vectors[start : start + len(job.texts)].copy()
                start += len(job.texts)
        finally:
            for job in batch:
                if not job.done and job.vectors is None and job.error is None:
                    job.error = RuntimeError("the batch ended without an answer")
                job.done = True

    def _finish_alone(self, job: _Job, *, counted: bool) -> None:
        try:
            job.vectors = self.backend.embed(job.texts)
        except BaseException as exc:  # handed to its own caller, raised there
            job.error = exc
        if not counted:
            self._count(1, len(job.texts))

    def _count(self, requests: int, texts: int) -> None:
        s = self.stats
        s.calls += 1
        s.requests += requests
        s.texts += texts
        s.largest = max(s.largest, requests)
        s.sizes[requests] = s.sizes.get(requests, 0) + 1

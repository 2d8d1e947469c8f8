"""Both cores in the builder: batches embedded on two lanes at once, in order. No Qt.

The local model's own intra-op threads help little on the builder's small batches of short texts (a build ran
at ~110 % CPU on two cores: docs/PERFORMANCE.md, "Building"). So the builder runs **one session per core, each
with one intra-op thread**, and hands them alternate batches from two threads (onnxruntime and the tokenizer
release the GIL while they work): while one lane embeds batch *k*, the other embeds batch *k + 1*.

A batch is embedded whole by one lane, exactly as one embedder would embed it (the same texts, the same
sub-batches, the same model): only the number of threads inside a forward pass differs, which may move a
float's last bits. ``tests/corpus/test_lanes.py`` holds the vectors to the single embedder's within 1e-6.

Any other embedder (the proxy, e5, a test's stand-in) keeps one lane: :func:`lanes_for` returns it alone.
"""

from __future__ import annotations

import concurrent.futures
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TypeVar

import numpy as np

from ..embedding.base import Embedder, embed_documents
from ..embedding.local import LocalMiniLMBackend

T = TypeVar("T")

#: Lanes for the builder (``AMICUS_BUILD_LANES``; default: one per core, at most 2).
LANES_ENV = "AMICUS_BUILD_LANES"


def lane_count() -> int:
    env = os.environ.get(LANES_ENV, "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    return max(1, min(os.cpu_count() or 1, 2))


def lanes_for(embedder: Embedder, count: int | None = None) -> list[Embedder]:
    """The embedders the builder runs side by side: for the local model one single-threaded session per lane
    (the same model file and batching); for any other embedder, ``[embedder]``."""
    n = lane_count() if count is None else max(1, count)
    if n < 2 or type(embedder) is not LocalMiniLMBackend:
        return [embedder]
    return [embedder.single_threaded() for _ in range(n)]


def embed_in_lanes(lanes: Sequence[Embedder], batches: Iterable[tuple[T, Sequence[str]]],
                   *, before: Callable[[], None] | None = None) -> Iterator[tuple[T, np.ndarray]]:
    """``(key, vectors)`` for each ``(key, texts)`` of ``batches``, in their order, embedded on ``lanes``
    (batch *i* on lane *i mod n*, up to one batch in flight per lane). ``before`` runs before each batch is
    handed out (a cancel check that raises)."""
    if len(lanes) == 1:
        for key, texts in batches:
            if before is not None:
                before()
            yield key, np.asarray(embed_documents(lanes[0], texts), dtype=np.float32)
        return
    with concurrent.futures.ThreadPoolExecutor(len(lanes), thread_name_prefix="amicus-embed") as pool:
        pending: deque[tuple[T, concurrent.futures.Future[np.ndarray]]] = deque()
        i = 0
        try:
            for key, texts in batches:
                if before is not None:
                    before()
                lane = lanes[i % len(lanes)]
                i += 1
                pending.append((key, pool.submit(_embed, lane, list(texts))))
                if len(pending) >= len(lanes):
                    k, f = pending.popleft()
                    yield k, f.result()
            while pending:
                k, f = pending.popleft()
                yield k, f.result()
        finally:
            for _, f in pending:
                f.cancel()


def _embed(lane: Embedder, texts: list[str]) -> np.ndarray:
    return np.asarray(embed_documents(lane, texts), dtype=np.float32)


__all__ = ["LANES_ENV", "embed_in_lanes", "lane_count", "lanes_for"]

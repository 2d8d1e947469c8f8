"""The benchmark's child processes: build one database, measure one database, measure bandwidth.

``python -m amicus_desktop.bench.worker build|measure|bandwidth ...`` prints progress on stderr and
one JSON object as the last line of stdout. The driver (:mod:`amicus_desktop.bench.runner`) runs
each in a fresh process so that

* BLAS is pinned to one thread before numpy loads (``OPENBLAS_NUM_THREADS=1``, set by the driver),
* peak RSS is per database, not the maximum over the whole run, and
* one configuration's page cache and heap do not flatter or burden the next one's allocations.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import numpy as np

from ..core.references import ChapterRef
from ..store import codes
from ..store.scripture import ScriptureStore
from . import questions, synth
from .end_to_end import end_to_end, end_to_end_real_proxy, query_texts
from .kernels import kernel_table
from .measuring import FILTER_BOOK, WARMUP, K, log
from .processes import start_server, stop_server
from .search_stages import numpy_stage, search_stages


# -- build -----------------------------------------------------------------------------------
def do_build(path: Path, n: int, dims: int, seed: int) -> dict[str, Any]:
    st = synth.build(path, n, dims, seed, progress=True)
    out = {"build_s": st.seconds, "db_bytes": st.bytes, "build_peak_rss_mb": st.peak_rss_mb,
           "codes_s": st.codes_seconds}
    synth.sidecar(path).write_text(json.dumps(out))
    return out


# -- bandwidth --------------------------------------------------------------------------------
def do_bandwidth(mib: int = 512, repeats: int = 5) -> dict[str, Any]:
    """Single-thread sequential read bandwidth: the best of a few numpy reductions over ``mib`` MiB.

    The array is far larger than any cache, so every pass streams it from RAM. Each kernel reads
    every byte once; the fastest kernel's best pass is taken as the machine's read bandwidth.
    """
    a = np.ones(mib * 1024 * 1024 // 4, dtype=np.float32)
    kernels: dict[str, Callable[[], object]] = {"max": a.max, "sum": a.sum, "dot": lambda: np.dot(a, a)}
    best: dict[str, float] = {}
    for name, fn in kernels.items():
        fn()
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        best[name] = a.nbytes / min(times) / 1e9
    return {"bandwidth_gbps": max(best.values()), "by_kernel_gbps": best, "array_mib": mib}


# -- measure ----------------------------------------------------------------------------------
def do_measure(path: Path, n: int, dims: int, seed: int, queries: int, real_proxy: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"n": n, "dims": dims, "k": K, "queries": queries, "warmup": WARMUP}
    store = ScriptureStore(path)
    k = min(K, n)
    qs = synth.query_vectors(queries + WARMUP, dims, seed)

    # 1. KNN (exact and two-stage), fetch, re-rank, filtered KNN: on the store, as the DB thread does.
    figures, knn_rowids = search_stages(store, qs, k)
    out.update(figures)
    store.close()

    # 2. End to end through a loopback HTTP proxy (a separate process, like the real one).
    log("end to end through the loopback bench proxy (exact and two-stage, alternating)")
    proc, url = start_server(
        [sys.executable, "-m", "amicus_desktop.bench.proxy", "--dims", str(dims), "--seed", str(seed)],
        "listening on ",
    )
    try:
        texts = query_texts(2 * (queries + WARMUP), f"bench-{seed}")
        out["e2e"] = asyncio.run(end_to_end(path, url, texts, ChapterRef(FILTER_BOOK, 9)))
    finally:
        stop_server(proc)

    # 2b. Optionally through the project's real proxy and local model (384 dims only).
    if real_proxy:
        log("end to end through the real proxy (local model)")
        out["e2e_real"] = end_to_end_real_proxy(path, dims, queries, seed)
    out["rss_after_e2e_mb"] = synth.peak_rss_mb()

    # 3. numpy brute force over the same vectors, in RAM.
    log("numpy brute force")
    t0 = time.perf_counter()
    mat = synth.vector_matrix(n, dims, seed)
    out["numpy_load_s"] = time.perf_counter() - t0
    out["same_vectors"] = _same_vectors(path, mat)
    out.update(numpy_stage(mat, np.arange(1, n + 1, dtype=np.int64), qs, k, knn_rowids))
    out["peak_rss_mb"] = synth.peak_rss_mb()

    # 4. The coarse pass's kernels and the short lists, interleaved with numpy (two-stage databases only).
    with ScriptureStore(path) as store:
        out["kernels"] = kernel_table(store, mat, np.arange(1, n + 1, dtype=np.int64), qs, k)
    return out


def do_kernels(path: Path, n: int, dims: int, seed: int, queries: int) -> dict[str, Any]:
    """Only step 4 of :func:`do_measure` (``python -m amicus_desktop.bench.worker kernels``)."""
    mat = synth.vector_matrix(n, dims, seed)
    qs = synth.query_vectors(queries + WARMUP, dims, seed)
    with ScriptureStore(path) as store:
        return {"n": n, "dims": dims, "load_before": list(os.getloadavg()),
                "kernels": kernel_table(store, mat, np.arange(1, n + 1, dtype=np.int64), qs, min(K, n))}


def do_measure_real(path: Path, queries: int) -> dict[str, Any]:
    """The same measurements on a real database, with real questions embedded by the local model.

    The questions are embedded through the project's own proxy (its own process, like the app's),
    so the model's memory stays out of this process's peak RSS; end to end goes through the same
    proxy. The database must hold the local model's vectors and have its two-stage file (the
    driver writes one for a copy when it has none).
    """
    store = ScriptureStore(path)
    n, dims, model = store.info.chunk_count, store.info.dims, store.info.model_id
    texts = list(questions.QUESTIONS[: queries + WARMUP])
    out: dict[str, Any] = {"n": n, "dims": dims, "k": K, "queries": len(texts) - WARMUP, "warmup": WARMUP,
                           "model": model, "real": True}
    k = min(K, n)
    proc, url = start_server(
        [sys.executable, "-m", "amicus_desktop", "proxy", "--port", "0"], "listening on ", timeout=120
    )
    try:
        log(f"embedding {len(texts)} questions through the proxy at {url}")
        answer = httpx.post(f"{url}/ai/embed", json={"input": texts}, timeout=300, trust_env=False).json()
        if answer.get("model") != model or int(answer.get("dims", 0)) != dims:
            raise SystemExit(f"{path.name} holds {model} ({dims} dims); the proxy serves {answer.get('model')}")
        qs = np.asarray([item["embedding"] for item in answer["data"]], dtype=np.float32)
        figures, knn_rowids = search_stages(store, qs, k)
        out.update(figures)
        store.close()
        log("end to end through the real proxy (local model; exact and two-stage, alternating)")
        # Two retrievals per question (one each way), each text distinct: a suffix tells them apart.
        pairs = [f"{t} ({way})" for t in texts for way in ("a", "b")]
        out["e2e"] = asyncio.run(end_to_end(path, url, pairs, ChapterRef(FILTER_BOOK, 9)))
    finally:
        stop_server(proc)
    out["rss_after_e2e_mb"] = synth.peak_rss_mb()

    log("numpy brute force (vectors read from the two-stage file)")
    t0 = time.perf_counter()
    f = codes.CodesFile.open(codes.path_for(path))
    rowids = np.concatenate([r for _, r, _ in f.code_blocks()])
    mat = f.read_section("floats", "<f4", width=dims)
    out["numpy_load_s"] = time.perf_counter() - t0
    out.update(numpy_stage(mat, rowids, qs, k, knn_rowids))
    out["peak_rss_mb"] = synth.peak_rss_mb()
    return out


def _same_vectors(path: Path, mat: np.ndarray) -> bool:
    """Spot-check that the regenerated matrix is what the database holds (first, middle, last)."""
    n = len(mat)
    with ScriptureStore(path) as store:
        stored = store.vectors(sorted({1, (n + 1) // 2, n}))
    return len(stored) == len({1, (n + 1) // 2, n}) and all(
        np.array_equal(vector, mat[rowid - 1]) for rowid, vector in stored.items()
    )


if __name__ == "__main__":  # its command line is read in cli/ (cli/bench_children.py)
    from amicus_desktop.cli.bench_children import worker_main

    sys.exit(worker_main())

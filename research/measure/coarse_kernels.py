"""The coarse pass's kernels side by side with numpy's brute force, in one process (docs/PERFORMANCE.md).

    .venv/bin/python research/measure/coarse_kernels.py [ROWS] [QUESTIONS]

Generates the benchmark's synthetic vectors (``bench.synth``, 200k × 1536 by default, ~1.2 GB of
RAM), encodes them as the two-stage file would, then per question, interleaved, times numpy's
brute force (``mat @ q``, top 40) and each way of finding the 2,000 nearest codes: the column-block
pass the index used before, the word-by-word pass (:func:`amicus_desktop.store.hamming.distances`),
pre-filters on the first 384/512 bits keeping 8k–15k rows, and faiss's ``IndexBinaryFlat`` and
usearch's exact Hamming search when installed (not dependencies: ``pip install faiss-cpu usearch``).
It prints each as p50 / p95 ms and as a share of numpy's, the share of the old short list it
returned, and the share of the exact top 40 inside its short list. A one-off measuring script.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from amicus_desktop.bench import synth
from amicus_desktop.store import codes, hamming

K, COARSE, BLOCK = 40, 2000, 16384


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    dims = 1536
    mat = synth.vector_matrix(n, dims, 0)
    qs = synth.query_vectors(count + 3, dims, 0)
    projection = codes.make_projection(dims, codes.code_bits(dims))
    bits = projection.shape[0]
    row_codes = np.concatenate([codes.encode(mat[s : s + 8192], projection) for s in range(0, n, 8192)])
    codes_t = np.ascontiguousarray(row_codes.view(np.uint64).T)
    tmp = np.empty((bits // 64, BLOCK), np.uint64)
    cnt = np.empty((bits // 64, BLOCK), np.uint8)

    def column_blocks(qw: np.ndarray) -> np.ndarray:  # the index's pass before 2026-12
        out = np.empty(n, np.uint16)
        for s in range(0, n, BLOCK):
            e = min(n, s + BLOCK)
            np.bitwise_xor(codes_t[:, s:e], qw[:, None], out=tmp[:, : e - s])
            np.bitwise_count(tmp[:, : e - s], out=cnt[:, : e - s])
            np.sum(cnt[:, : e - s], axis=0, dtype=np.uint16, out=out[s:e])
        return hamming.smallest(out, COARSE, bits)

    def prefilter(words: int, keep: int) -> Callable[[np.ndarray], np.ndarray]:
        def run(qw: np.ndarray) -> np.ndarray:
            first = hamming.smallest(hamming.distances(codes_t, qw, words), keep, words * 64)
            picked = np.ascontiguousarray(codes_t[:, first])
            return first[hamming.smallest(hamming.distances(picked, qw), COARSE, bits)]
        return run

    engines: dict[str, Callable[[np.ndarray], Any]] = {
        "column blocks (before)": column_blocks,
        "word by word": lambda qw: hamming.smallest(hamming.distances(codes_t, qw), COARSE, bits),
        "pre-filter 384 bits / 15k": prefilter(6, 15_000),
        "pre-filter 512 bits / 12k (the index)": prefilter(8, 12_000),
        "pre-filter 512 bits / 8k": prefilter(8, 8_000),
    }
    try:
        import faiss

        faiss.omp_set_num_threads(1)
        flat = faiss.IndexBinaryFlat(bits)
        flat.add(row_codes)
        engines["faiss IndexBinaryFlat"] = lambda qw: flat.search(qw.view(np.uint8)[None, :], COARSE)[1][0]
    except ImportError:
        print("(faiss not installed: skipped)")
    try:
        from usearch.index import MetricKind, ScalarKind, search

        engines["usearch exact"] = lambda qw: search(row_codes, qw.view(np.uint8), COARSE, MetricKind.Hamming,
                                                     exact=True, threads=1, dtype=ScalarKind.B1).keys
    except ImportError:
        print("(usearch not installed: skipped)")

    times: dict[str, list[float]] = {name: [] for name in ["numpy", *engines]}
    same: dict[str, list[float]] = {name: [] for name in engines}
    inside: dict[str, list[float]] = {name: [] for name in engines}
    for i, q in enumerate(qs):
        t0 = time.perf_counter()
        sims = mat @ q
        top = np.argpartition(sims, n - K)[n - K :]
        t_numpy = (time.perf_counter() - t0) * 1000
        qw = codes.encode(q[None, :], projection)[0].view(np.uint64)
        got = {}
        for name, engine in engines.items():
            t0 = time.perf_counter()
            rows = np.asarray(engine(qw))
            got[name] = ((time.perf_counter() - t0) * 1000, rows)
        if i < 3:
            continue
        times["numpy"].append(t_numpy)
        before, want = set(got["column blocks (before)"][1].tolist()), set(top.tolist())
        for name, (ms, rows) in got.items():
            times[name].append(ms)
            mine = set(rows.tolist())
            same[name].append(len(mine & before) / len(before))
            inside[name].append(len(mine & want) / K)
    n50, n95 = np.percentile(times["numpy"], [50, 95])
    print(f"{n:,} × {dims}, {count} questions; numpy brute force p50 / p95 {n50:.1f} / {n95:.1f} ms")
    for name in engines:
        p50, p95 = np.percentile(times[name], [50, 95])
        print(f"  {name:40s} {p50:6.2f} / {p95:6.2f} ms = {p50 / n50:.3f}× / {p95 / n95:.3f}× numpy; "
              f"old list {np.mean(same[name]):.4f}; top 40 inside {np.mean(inside[name]):.4f} "
              f"(min {np.min(inside[name]):.3f})")


if __name__ == "__main__":
    main()

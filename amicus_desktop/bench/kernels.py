"""The coarse pass's kernels and the short lists' lengths, interleaved question by question with numpy's brute
force over the same vectors (issue #31: the two-stage search at ≤ 0.12× numpy's p95, recall@40 ≥ 0.99).

On a shared machine only ratios taken in the same moment mean anything, so every question runs numpy's
brute force (``mat @ q``, top ``k``) and then each way in turn (each question starting at another way);
each way's p50 and p95 are divided by numpy's p95 of the same run. Two groups:

* **whole searches** — :class:`~amicus_desktop.store.twostage.TwoStageIndex` as it ships, with shorter
  short lists (:class:`~amicus_desktop.store.twostage.ShortLists`), as it was before the row layout, the
  single projection and the float32 screen (:data:`BEFORE`), and with faiss's coarse pass in place of
  numpy's; recall@k against numpy's exact top ``k``;
* **coarse kernels** — the 2,000 nearest codes of 200k: the index's own (512-bit pre-filter, then whole
  codes; :mod:`~amicus_desktop.store.hamming`), numpy's ``bitwise_count`` over packed uint64 rows (row
  major), faiss's ``IndexBinaryFlat``, usearch's exact Hamming search and sqlite-vec's ``bit[]`` KNN
  (:class:`~amicus_desktop.store.bit_vectors.BitVectors`), and faiss's flat index with its counting selection
  (``use_heap=False``) over the whole codes or over the first 512 bits only (then the index's whole-code
  pass) — each with the share of numpy's exact top ``k``
  inside its list. A library that is not installed is left out (faiss-cpu and usearch are not
  dependencies of the app).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from ..store import codes
from ..store.bit_vectors import BitVectors
from ..store.hamming import PREFILTER_WORDS, CodeMatrix, prefilter_keep, smallest
from ..store.rescore import cosine_distances
from ..store.scripture import ScriptureStore
from ..store.twostage import ShortLists, TwoStageIndex
from .measuring import WARMUP, log, ms_since, stats
from .tables import fmt_ms, markdown_table

COARSE = 2000
#: The short lists tried: (label, ShortLists).
LISTS: tuple[tuple[str, ShortLists], ...] = (
    ("coarse 2,000 → refine 400", ShortLists(coarse_min=2000, coarse_per_row=40, refine_min=400, refine_per_row=8)),
    ("coarse 2,000 → refine 200", ShortLists(coarse_min=2000, coarse_per_row=40, refine_min=200, refine_per_row=5)),
    ("coarse 1,000 → refine 200", ShortLists(coarse_min=1000, coarse_per_row=25, refine_min=200, refine_per_row=5)),
    ("coarse 1,000 → refine 120", ShortLists(coarse_min=1000, coarse_per_row=25, refine_min=120, refine_per_row=3)),
    ("coarse 600 → refine 120", ShortLists(coarse_min=600, coarse_per_row=15, refine_min=120, refine_per_row=3)),
)
#: The shipped search as it was before the row layout and the float32 screen, for comparison in the same run.
BEFORE = "as before: codes by column, every refined row in float64 (coarse 2,000 → refine 400)"
#: Kernels slower than numpy's brute force itself, timed on the first questions only.
SLOW = frozenset({"sqlite-vec bit[] KNN"})
SLOW_QUESTIONS = 8

T = TypeVar("T")
Kernel = Callable[[np.ndarray, int], np.ndarray]  # (the query's code as uint64 words, count) → columns kept


def _kernels(index: TwoStageIndex) -> dict[str, Kernel]:
    """Every coarse kernel that can run here, each answering the columns of the ``COARSE`` nearest codes."""
    rows_u64 = np.ascontiguousarray(index.codes_t.T)  # rows × words
    rows_u8 = rows_u64.view(np.uint8)
    bits = index.bits
    out: dict[str, Kernel] = {
        "index (512-bit pre-filter, then whole codes)": lambda qw, c: index.coarse_list(qw, None, c),
        "numpy bitwise_count, packed uint64 rows": lambda qw, c: smallest(
            np.bitwise_count(rows_u64 ^ qw).sum(axis=1, dtype=np.uint16), c, bits),
    }
    with contextlib.suppress(ImportError):
        import faiss  # type: ignore[import-not-found, import-untyped, unused-ignore]

        faiss.omp_set_num_threads(1)
        flat = faiss.IndexBinaryFlat(bits)
        flat.add(rows_u8)
        out["faiss IndexBinaryFlat"] = lambda qw, c: _found(flat.search(qw.view(np.uint8)[None, :], c)[1][0])
        counting: Any = faiss.IndexBinaryFlat(bits)
        counting.use_heap = False  # its counting selection instead of a heap of c rows
        counting.add(rows_u8)
        out["faiss IndexBinaryFlat, use_heap=False"] = lambda qw, c: _found(
            counting.search(qw.view(np.uint8)[None, :], c)[1][0])
        if index.codes.words > PREFILTER_WORDS:
            head: Any = faiss.IndexBinaryFlat(PREFILTER_WORDS * 64)
            head.use_heap = False
            head.add(np.ascontiguousarray(rows_u8[:, : PREFILTER_WORDS * 8]))
            out["faiss on the 512-bit head (use_heap=False), then whole codes"] = lambda qw, c: _head_then_whole(
                index, _found(head.search(qw.view(np.uint8)[None, : PREFILTER_WORDS * 8], prefilter_keep(c))[1][0]),
                qw, c)
    with contextlib.suppress(ImportError):
        from usearch.index import Index  # type: ignore[import-not-found, import-untyped, unused-ignore]
        from usearch.index import search as usearch_search

        out["usearch exact Hamming"] = lambda qw, c: usearch_search(
            rows_u8, qw.view(np.uint8), c, metric="hamming", exact=True, threads=1).keys
        del Index
    bit_index = BitVectors(rows_u8)
    out["sqlite-vec bit[] KNN"] = lambda qw, c: bit_index.nearest(qw.view(np.uint8), c)
    return out


def _head_then_whole(index: TwoStageIndex, first: np.ndarray, qw: np.ndarray, count: int) -> np.ndarray:
    """The ``count`` of rows ``first`` nearest ``qw`` on their whole codes (the index's second pass)."""
    return np.asarray(first[smallest(index.codes.distances(qw, first), count, index.bits)])


def _as_before(index: TwoStageIndex, k: int) -> Callable[[np.ndarray], list[tuple[int, float]]]:
    """The search as it was until 2026-12-06 evening: every code word held by column (the pre-filter's
    rows gathered a word at a time), the question projected twice (its code, the refine) and every refined
    row scored in float64 (no float32 screen)."""
    columns = CodeMatrix(index.codes.columns(), np.empty((len(index.rowids), 0), dtype=np.uint64))

    def search(q: np.ndarray) -> list[tuple[int, float]]:
        qcode = codes.encode(q[None, :], index.projection)[0]  # the question projected once for its code…
        qwords = np.zeros(index.codes.words * 8, dtype=np.uint8)
        qwords[: len(qcode)] = qcode
        cols = columns.short_list(qwords.view(np.uint64), index.short_lists.coarse(k), index.prefilter)
        refine = index.short_lists.refine(k)
        row_bytes = np.ascontiguousarray(columns.head_t[:, cols].T)  # the refine's gather as it was
        scores = index._asymmetric(index.projection @ q, cols, row_bytes)  # … and once again for the refine
        chosen = np.sort(cols[np.argpartition(-scores, refine - 1)[:refine]] if refine < len(cols) else cols)
        dist = cosine_distances(q, index._read_columns(chosen))
        ok = np.isfinite(dist)
        found, dist = index.rowids[chosen[ok]], dist[ok]
        return [(int(found[i]), float(dist[i])) for i in np.lexsort((found, dist))[:k]]

    return search


def _found(labels: np.ndarray) -> np.ndarray:
    """faiss's labels without its ``-1`` (no row) padding."""
    return np.asarray(labels[labels >= 0], dtype=np.int64)


def _search_with(index: TwoStageIndex, q: np.ndarray, k: int, coarse: Kernel) -> list[tuple[int, float]]:
    """The two-stage search of ``q`` (no filter) with ``coarse`` for its coarse pass."""
    qwords = _qwords(index, q)
    cols = np.sort(np.asarray(coarse(qwords, index.short_lists.coarse(k)), dtype=np.int64))
    refine = index.short_lists.refine(k)
    scores = index._asymmetric(index.project(q), cols)
    chosen = cols[np.argpartition(-scores, refine - 1)[:refine]] if refine < len(cols) else cols
    return index._exact(q, chosen, k)


def _qwords(index: TwoStageIndex, q: np.ndarray) -> np.ndarray:
    return index.code_words(index.project(q.astype(np.float32)))


def kernel_table(store: ScriptureStore, mat: np.ndarray, rowids: np.ndarray, qs: np.ndarray,
                 k: int) -> dict[str, Any]:
    """The two groups of the module docstring over ``store``'s two-stage file and ``mat`` (row i is ``rowids[i]``)."""
    index = TwoStageIndex.open(store, mode="on")
    if index is None:
        return {}
    log("coarse kernels and short lists, interleaved with numpy's brute force")
    shipped = index.short_lists
    kernels = _kernels(index)
    faiss_kernel = kernels.get("faiss IndexBinaryFlat")
    searches: dict[str, Callable[[np.ndarray], list[tuple[int, float]]]] = {}
    for label, lists in LISTS:
        searches[label] = _listed(index, lists, k)
    searches[BEFORE] = _as_before(index, k)
    if faiss_kernel is not None:
        searches["faiss coarse 1,000 → refine 200"] = lambda q: _with_lists(
            index, LISTS[2][1], lambda: _search_with(index, q, k, faiss_kernel))
    times: dict[str, list[float]] = {name: [] for name in (*searches, *kernels)}
    recall: dict[str, list[float]] = {name: [] for name in (*searches, *kernels)}
    numpy_ms: list[float] = []
    n = len(mat)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for i, q in enumerate(qs):
        t0 = time.perf_counter()
        sims = mat @ q
        top = np.argpartition(sims, n - k)[n - k:] if k < n else np.arange(n)
        t_np = ms_since(t0)
        want = {int(rowids[x]) for x in top}
        qw = _qwords(index, q)
        for name, search in _rotated(searches, i):
            t0 = time.perf_counter()
            got = search(q)
            t = ms_since(t0)
            if i >= WARMUP:
                times[name].append(t)
                recall[name].append(len(want & {r for r, _ in got}) / max(1, len(want)))
        for name, kernel in _rotated(kernels, i):
            if name in SLOW and i >= WARMUP + SLOW_QUESTIONS:
                continue
            t0 = time.perf_counter()
            cols = kernel(qw, min(COARSE, n))
            t = ms_since(t0)
            if i >= WARMUP:
                times[name].append(t)
                listed = {int(index.rowids[c]) for c in np.asarray(cols, dtype=np.int64)}
                recall[name].append(len(want & listed) / max(1, len(want)))
        if i >= WARMUP:
            numpy_ms.append(t_np)
    index.short_lists = shipped
    base = stats(numpy_ms)
    rows = {name: {**stats(times[name]), "recall": float(np.mean(recall[name])),
                   "recall_min": float(np.min(recall[name])),
                   "vs_numpy_p50": stats(times[name])["p50"] / base["p95"],
                   "vs_numpy_p95": stats(times[name])["p95"] / base["p95"],
                   "group": "search" if name in searches else "coarse"} for name in times}
    return {"numpy": base, "ways": rows, "cpu_share": (time.process_time() - cpu0) / (time.perf_counter() - wall0),
            "load_after": list(os.getloadavg()), "k": k, "coarse": COARSE}


def _rotated(ways: dict[str, T], i: int) -> list[tuple[str, T]]:
    """The ways in turn, the ``i``-th question starting at the ``i``-th: none always runs first after numpy's
    pass over the whole matrix (which leaves the caches cold) or always last (warm)."""
    items = list(ways.items())
    k = i % max(1, len(items))
    return items[k:] + items[:k]


def _listed(index: TwoStageIndex, lists: ShortLists, k: int) -> Callable[[np.ndarray], list[tuple[int, float]]]:
    return lambda q: _with_lists(index, lists, lambda: index.search(q, k))


def _with_lists(index: TwoStageIndex, lists: ShortLists,
                run: Callable[[], list[tuple[int, float]]]) -> list[tuple[int, float]]:
    index.short_lists = lists
    return run()


def kernels_table(results: list[dict[str, Any]]) -> str:
    """Each way of :func:`kernel_table` as a share of numpy's p95 in the same run, and its recall."""
    header = ["way", "N × D", "p50 / p95 ms", "÷ numpy p95: p50 / p95", "recall@k mean (min)", "numpy p50 / p95",
              "CPU share"]
    rows = []
    for m in results:
        kt = m.get("kernels")
        if not kt:
            continue
        np_ = kt["numpy"]
        for name, w in kt["ways"].items():
            what = "coarse: " if w["group"] == "coarse" else ""
            rows.append([what + name, m.get("label") or f"{m['n']} × {m['dims']}",
                         f"{fmt_ms(w['p50'])} / {fmt_ms(w['p95'])}",
                         f"{w['vs_numpy_p50']:.3f}× / {w['vs_numpy_p95']:.3f}×",
                         f"{w['recall']:.4f} ({w['recall_min']:.3f})",
                         f"{fmt_ms(np_['p50'])} / {fmt_ms(np_['p95'])}", f"{kt['cpu_share']:.2f}"])
    return markdown_table(header, rows)

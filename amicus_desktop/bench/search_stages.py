"""The search measured on the store, question by question, as the DB thread runs it: exact KNN, fetch and
re-rank, the two-stage search (warm and cold), the one-book filter, and numpy brute force over the same
vectors (no Qt).
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path
from typing import Any

import numpy as np

from ..core.query import Filters, RetrievalContext
from ..core.references import ChapterRef
from ..core.results import Candidate
from ..rerank import rerank
from ..store import codes
from ..store.scripture import ScriptureStore
from ..store.twostage import SearchTrace, TwoStageIndex
from . import synth
from .measuring import FILTER_BOOK, PROFILE, WARMUP, K, log, ms_since, stats


def _recall(got: list[tuple[int, float]], want: list[tuple[int, float]]) -> tuple[float, float]:
    """Share of ``want``'s rows in ``got``, and the largest distance difference on shared rows."""
    if not want:
        return 1.0, 0.0
    mine = dict(got)
    shared = [abs(mine[r] - d) for r, d in want if r in mine]
    return len(shared) / len(want), max(shared, default=0.0)


def _sizes(store: ScriptureStore) -> dict[str, int]:
    """Bytes of the vec0 vectors in scripture.db and of the two-stage file's sections."""
    out: dict[str, int] = {}
    vec0 = store.vector_bytes()
    if vec0 is not None:
        out["vec0"] = vec0
    with contextlib.suppress(OSError, ValueError):
        f = codes.CodesFile.open(codes.path_for(store.path))
        out["file"] = f.path.stat().st_size
        out.update({name: nbytes for name, (_, nbytes) in f.sections.items()})
    return out


def _read_through(path: Path) -> float:
    """Read ``path`` once, sequentially, so the OS holds it in its page cache; the seconds it took."""
    t0 = time.perf_counter()
    with open(path, "rb", buffering=0) as fh:
        while fh.read(8 << 20):
            pass
    return time.perf_counter() - t0


def search_stages(store: ScriptureStore, qs: np.ndarray, k: int) -> tuple[dict[str, Any], list[list[int]]]:
    """Exact KNN, fetch, re-rank and the two-stage search, interleaved per question; one-book filters.

    Returns the figures and, per measured question, the exact top-``k`` rowids.
    """
    out: dict[str, Any] = {}
    t0 = time.perf_counter()
    index = TwoStageIndex.open(store, mode="on")
    out["two_stage_open_ms"] = ms_since(t0)
    # Both paths are measured with their files in the page cache: the exact scan reads all of
    # scripture.db's vectors every question, so its file is always warm; the two-stage path reads a
    # few hundred rows, which stay on disk until something reads them (after a reboot, or when the
    # OS reclaims idle pages). Read the file once first and record how long that took.
    out["two_stage_warm_s"] = _read_through(codes.path_for(store.path)) if index is not None else 0.0
    out["rss_after_open_mb"] = synth.peak_rss_mb()
    out["sizes"] = _sizes(store)

    log("KNN (exact and two-stage, interleaved), fetch and re-rank")
    knn, fetch, search, rr = [], [], [], []
    ts_knn: list[float] = []
    ts_stage: dict[str, list[float]] = {}
    recalls: list[float] = []
    max_diff = 0.0
    knn_rowids: list[list[int]] = []
    trace: SearchTrace | None = None
    # The coarse pass over every whole code (no pre-filter, the path before 2026-12), interleaved.
    whole: dict[str, list[float]] = {"knn": [], "coarse": [], "recall": []}
    rejected_cap = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for i, q in enumerate(qs):
        t0 = time.perf_counter()
        hits = store.knn(q, k)
        t_knn = ms_since(t0)
        t0 = time.perf_counter()
        rows = store.fetch(r for r, _ in hits)
        cands = [Candidate(r, *rows[r][:4], metadata=rows[r][4], distance=d) for r, d in hits]
        t_fetch = ms_since(t0)
        # Reading the chapter of one of the hits, so the chapter boost applies to something.
        m = next((c.metadata for c in cands[i % 5 :] if c.metadata.book_id), None)
        chapter = ChapterRef(m.book_id, m.chapter_num) if m and m.book_id and m.chapter_num else None
        ctx = RetrievalContext(query="bench", profile=PROFILE, chapter=chapter, k=min(10, k), candidates=k)
        t0 = time.perf_counter()
        _results, rejected = rerank(cands, ctx)
        t_rr = ms_since(t0)
        if index is not None:
            t0 = time.perf_counter()
            got, trace = index.trace_search(q, k)
            t_ts = ms_since(t0)
            index.prefilter = False
            t0 = time.perf_counter()
            got_whole, trace_whole = index.trace_search(q, k)
            t_whole = ms_since(t0)
            index.prefilter = True
        if i < WARMUP:
            continue
        knn.append(t_knn)
        fetch.append(t_fetch)
        search.append(t_knn + t_fetch)
        rr.append(t_rr)
        knn_rowids.append([r for r, _ in hits])
        rejected_cap += sum(1 for r in rejected if r.reason.value == "scholar_cap")
        if index is not None and trace is not None:
            ts_knn.append(t_ts)
            for stage, ms in trace.ms.items():
                ts_stage.setdefault(stage, []).append(ms)
            recall, diff = _recall(got, hits)
            recalls.append(recall)
            whole["knn"].append(t_whole)
            whole["coarse"].append(trace_whole.ms.get("coarse", 0.0))
            whole["recall"].append(_recall(got_whole, hits)[0])
            max_diff = max(max_diff, diff)
    out.update(knn=stats(knn), fetch=stats(fetch), search=stats(search), rerank=stats(rr))
    # Near 1.0 when this process had a core to itself; lower means other load took CPU from it.
    out["cpu_share"] = (time.process_time() - cpu0) / max(1e-9, time.perf_counter() - wall0)
    out["scholar_cap_rejections_per_query"] = rejected_cap / max(1, len(knn))
    if index is not None and trace is not None:
        out["two_stage"] = {
            "knn": stats(ts_knn), "stages": {s: stats(v) for s, v in ts_stage.items()},
            "recall": float(np.mean(recalls)), "recall_min": float(np.min(recalls)),
            "max_distance_diff": max_diff, "coarse": trace.coarse, "refined": trace.refined,
            "bits": index.bits, "rows": len(index.rowids),
            "whole_code": {"knn": stats(whole["knn"]), "coarse": stats(whole["coarse"]),
                           "recall": float(np.mean(whole["recall"])), "recall_min": float(np.min(whole["recall"]))},
        }

    if index is not None:
        out["two_stage"]["cold"] = _cold_search(index, qs[WARMUP:], k)

    log(f"one-book KNN (book_id = {FILTER_BOOK!r}: inside vec0, and over the allowed rowids)")
    one_book = Filters(books=(FILTER_BOOK,))
    in_book = len(store.allowed_rowids(one_book))
    if not store.filters_in_vec0(one_book):  # what the dense search does when the columns exist
        raise RuntimeError("the benchmark database lacks the vec0 metadata columns")
    filt, returned, ts_filt, ts_recalls = [], [], [], []
    for i, q in enumerate(qs):
        t0 = time.perf_counter()
        hits = store.knn(q, k, one_book)
        t = ms_since(t0)
        if index is not None:
            t0 = time.perf_counter()  # what the dense search does with a filter: allowed rowids, then search
            got = index.search(q, k, np.asarray(store.allowed_rowids(one_book), dtype=np.int64))
            t_ts = ms_since(t0)
        if i >= WARMUP:
            filt.append(t)
            returned.append(len(hits))
            if index is not None:
                ts_filt.append(t_ts)
                ts_recalls.append(_recall(got, hits)[0])
    out["knn_one_book"] = {**stats(filt), "book": FILTER_BOOK, "rows_in_book": in_book,
                           "min_returned": min(returned) if returned else 0}
    if index is not None:
        out["two_stage"]["one_book"] = {**stats(ts_filt), "recall": float(np.mean(ts_recalls)),
                                        "recall_min": float(np.min(ts_recalls))}
        out["two_stage"]["fetch"] = _fetch_alternatives(store, index, qs[0])
    out["rss_after_sqlite_mb"] = synth.peak_rss_mb()
    return out, knn_rowids


def _drop_from_cache(path: Path) -> bool:
    """Ask the OS to forget ``path``'s cached pages (clean pages go at once); whether it could be asked."""
    if not hasattr(os, "posix_fadvise"):
        return False
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)
    return True


def _cold_search(index: TwoStageIndex, qs: np.ndarray, k: int) -> dict[str, Any]:
    """The two-stage search with its file dropped from the page cache before every question.

    What a question costs after a reboot, or once the OS has reclaimed the idle file: the exact
    stage's rows come from disk. The file is read through again afterwards, so the stages measured
    after this one are warm as before.
    """
    path = index.file.path
    total: list[float] = []
    exact: list[float] = []
    for q in qs:
        if not _drop_from_cache(path):
            return {}
        t0 = time.perf_counter()
        _got, trace = index.trace_search(q, k)
        total.append(ms_since(t0))
        exact.append(trace.ms.get("exact", 0.0))
    _read_through(path)
    return {"knn": stats(total), "exact": stats(exact)}


def _fetch_alternatives(store: ScriptureStore, index: TwoStageIndex, q: np.ndarray, reps: int = 10) -> dict[str, Any]:
    """Exact distances of a refine list of random rows: from the two-stage file vs ``vec0`` look-ups."""
    rows = index.short_lists.refine(K)
    rng = np.random.default_rng(7)
    from_file, vec0 = [], []
    for rep in range(reps + 1):
        ids = np.sort(rng.choice(index.rowids, size=min(rows, len(index.rowids)), replace=False))
        t0 = time.perf_counter()
        index.distances(q, ids.tolist())
        t_file = ms_since(t0)
        t0 = time.perf_counter()
        vecs = store.vectors(ids.tolist())  # one vec0 look-up per row
        _distances = 1 - np.stack(list(vecs.values())) @ q
        t_vec0 = ms_since(t0)
        if rep:
            from_file.append(t_file)
            vec0.append(t_vec0)
    return {"rows": rows, "file": stats(from_file), "vec0": stats(vec0)}


def numpy_stage(mat: np.ndarray, rowids: np.ndarray, qs: np.ndarray, k: int,
                 knn_rowids: list[list[int]]) -> dict[str, Any]:
    """numpy brute force over ``mat`` (row i is ``rowids[i]``): times and agreement with sqlite-vec."""
    n = len(mat)
    np_ms, overlap = [], []
    for i, q in enumerate(qs):
        t0 = time.perf_counter()
        sims = mat @ q
        top = np.argpartition(sims, n - k)[n - k :] if k < n else np.arange(n)
        top = top[np.argsort(-sims[top], kind="stable")]
        t = ms_since(t0)
        if i >= WARMUP:
            np_ms.append(t)
            want = set(knn_rowids[i - WARMUP])
            overlap.append(len(want & {int(rowids[x]) for x in top}) / max(1, len(want)))
    return {"numpy": stats(np_ms), "recall_vs_numpy": float(np.mean(overlap)) if overlap else 0.0,
            "matrix_bytes": int(mat.nbytes)}

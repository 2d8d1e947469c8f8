"""The benchmark's child processes: build one database, measure one database, measure bandwidth.

``python -m amicus_desktop.bench.worker build|measure|bandwidth ...`` prints progress on stderr and
one JSON object as the last line of stdout. The driver (:mod:`amicus_desktop.bench.runner`) runs
each in a fresh process so that

* BLAS is pinned to one thread before numpy loads (``OPENBLAS_NUM_THREADS=1``, set by the driver),
* peak RSS is per database, not the maximum over the whole run, and
* one configuration's page cache and heap do not flatter or burden the next one's allocations.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import numpy as np

from ..candidates.twostage import SearchTrace, TwoStageIndex
from ..core.books import BOOKS
from ..core.query import BoostWeights, Filters, Profile, RetrievalContext
from ..core.references import ChapterRef
from ..core.results import Candidate
from ..embedding.client import EmbedClient, Embedding
from ..rerank import rerank
from ..retrieval.pipeline import Retriever, rerank_result
from ..store import codes
from ..store.scripture import ScriptureStore
from ..store.writer import set_meta
from . import questions, synth

K = 40  # CONTRACT section 3: 40 candidates by default
#: What the workbench's what-if does on each spin-box step: a new chapter boost (and no cap) over
#: the kept candidates; alternating values so every re-rank reorders.
WHAT_IF = (BoostWeights(chapter=1.3, per_scholar_cap=None), BoostWeights(chapter=2.0, scholar=1.3))
WARMUP = 3
FILTER_BOOK = "romans"
PROFILE = Profile.of(scholars=("calvin", "spurgeon"), traditions=("reformed",))


def stats(samples_ms: list[float]) -> dict[str, float]:
    """p50/p95 (numpy's linear interpolation), mean, min, max and the sample count."""
    a = np.asarray(samples_ms, dtype=np.float64)
    if a.size == 0:
        return {}
    p50, p95 = np.percentile(a, [50, 95])
    return {
        "p50": float(p50), "p95": float(p95), "mean": float(a.mean()),
        "min": float(a.min()), "max": float(a.max()), "n": int(a.size),
    }


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000


def _log(msg: str) -> None:
    print(f"  {msg}", file=sys.stderr, flush=True)


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
def _start_process(cmd: list[str], prefix: str, timeout: float = 60.0) -> tuple[subprocess.Popen[str], str]:
    """Start a proxy process and return it with its base URL (parsed from its first stdout line)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = time.monotonic() + timeout
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if prefix in line:
            url = line.split(prefix, 1)[1].split()[0]
            return proc, url
    proc.kill()
    proc.wait()
    raise RuntimeError(f"{' '.join(cmd)} did not start")


def _stop_process(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _query_texts(count: int, tag: str) -> list[str]:
    """Distinct question texts, so every retrieval misses the embed client's vector cache."""
    words = synth.WORDS[:96]
    books = [b.book_id for b in BOOKS]
    return [
        f"What does {books[i % len(books)].replace('-', ' ')} {1 + i % 7} teach about "
        f"{words[i % len(words)]} and {words[(i * 7 + 3) % len(words)]}? ({tag} {i})"
        for i in range(count)
    ]


class _CountingClient(EmbedClient):
    """The app's embed client, counting the questions it had to send to the proxy (cache misses)."""

    sent = 0

    async def embed(self, text: str) -> Embedding:
        embedding = await super().embed(text)
        self.sent += not embedding.cached
        return embedding


async def _e2e(db: Path, url: str, texts: list[str], chapter: ChapterRef) -> dict[str, Any]:
    """``Retriever.retrieve`` end to end, the exact way and the two-stage way alternating.

    Two retrievers over the same file: one searches with the two-stage mode ``off``, the other
    with ``on`` (the dense search then uses the two-stage index when the file has the tables).
    Question ``2i`` goes the exact way, ``2i + 1`` the two-stage way, so both see the same machine
    load; every text is distinct, so every retrieval embeds over HTTP.
    """
    ways = {"exact": "off", "two_stage": "on"}
    retrievers: dict[str, Retriever] = {}
    clients: list[_CountingClient] = []
    samples: dict[str, dict[str, list[float]]] = {
        way: {"total": [], "embed": [], "search": [], "rerank": [], "wall": [], "whatif": []} for way in ways
    }
    try:
        for way, mode in ways.items():
            clients.append(_CountingClient(url))
            retrievers[way] = Retriever(db, url, embed_client=clients[-1], two_stage=mode)
            used = await retrievers[way].run_db(partial(_uses_two_stage, mode=mode))
            if way == "two_stage" and not used:
                del samples[way]  # the file has no tables: only the exact way is measured
        for i, text in enumerate(texts):
            way = "two_stage" if i % 2 and "two_stage" in samples else "exact"
            ctx = RetrievalContext(query=text, profile=PROFILE, chapter=chapter, k=10, candidates=K)
            t0 = time.perf_counter()
            result = await retrievers[way].retrieve(ctx)
            t = result.timings
            w = _ms(t0)
            # The workbench's what-if: re-rank the kept candidates for new weights (no embed, no search).
            t0 = time.perf_counter()
            rerank_result(result, ctx.replace(weights=WHAT_IF[i % 2]))
            whatif = _ms(t0)
            if i < 2 * WARMUP:
                continue
            for name, value in (("total", t.total), ("embed", t.embed), ("search", t.search),
                                ("rerank", t.rerank), ("wall", w), ("whatif", whatif)):
                samples[way][name].append(value)
        calls = sum(c.sent for c in clients)
    finally:
        for r in retrievers.values():
            await r.aclose()
    out: dict[str, Any] = {"http_embed_calls": calls, "retrievals": len(texts)}
    for way, by_name in samples.items():
        if by_name["total"]:
            out[way] = {name: stats(values) for name, values in by_name.items()}
    return out


def _uses_two_stage(store: ScriptureStore, mode: str) -> bool:
    return TwoStageIndex.for_store(store, mode) is not None


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


def _search_stages(store: ScriptureStore, qs: np.ndarray, k: int) -> tuple[dict[str, Any], list[list[int]]]:
    """Exact KNN, fetch, re-rank and the two-stage search, interleaved per question; one-book filters.

    Returns the figures and, per measured question, the exact top-``k`` rowids.
    """
    out: dict[str, Any] = {}
    t0 = time.perf_counter()
    index = TwoStageIndex.open(store, mode="on")
    out["two_stage_open_ms"] = _ms(t0)
    # Both paths are measured with their files in the page cache: the exact scan reads all of
    # scripture.db's vectors every question, so its file is always warm; the two-stage path reads a
    # few hundred rows, which stay on disk until something reads them (after a reboot, or when the
    # OS reclaims idle pages). Read the file once first and record how long that took.
    out["two_stage_warm_s"] = _read_through(codes.path_for(store.path)) if index is not None else 0.0
    out["rss_after_open_mb"] = synth.peak_rss_mb()
    out["sizes"] = _sizes(store)

    _log("KNN (exact and two-stage, interleaved), fetch and re-rank")
    knn, fetch, search, rr = [], [], [], []
    ts_knn: list[float] = []
    ts_stage: dict[str, list[float]] = {}
    recalls: list[float] = []
    max_diff = 0.0
    knn_rowids: list[list[int]] = []
    trace: SearchTrace | None = None
    rejected_cap = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for i, q in enumerate(qs):
        t0 = time.perf_counter()
        hits = store.knn(q, k)
        t_knn = _ms(t0)
        t0 = time.perf_counter()
        rows = store.fetch(r for r, _ in hits)
        cands = [Candidate(r, *rows[r][:4], metadata=rows[r][4], distance=d) for r, d in hits]
        t_fetch = _ms(t0)
        # Reading the chapter of one of the hits, so the chapter boost applies to something.
        m = next((c.metadata for c in cands[i % 5 :] if c.metadata.book_id), None)
        chapter = ChapterRef(m.book_id, m.chapter_num) if m and m.book_id and m.chapter_num else None
        ctx = RetrievalContext(query="bench", profile=PROFILE, chapter=chapter, k=min(10, k), candidates=k)
        t0 = time.perf_counter()
        _results, rejected = rerank(cands, ctx)
        t_rr = _ms(t0)
        if index is not None:
            t0 = time.perf_counter()
            got, trace = index.trace_search(q, k)
            t_ts = _ms(t0)
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
        }

    if index is not None:
        out["two_stage"]["cold"] = _cold_search(index, qs[WARMUP:], k)

    _log(f"one-book KNN (book_id = {FILTER_BOOK!r}: inside vec0, and over the allowed rowids)")
    one_book = Filters(books=(FILTER_BOOK,))
    in_book = len(store.allowed_rowids(one_book))
    if not store.filters_in_vec0(one_book):  # what the dense search does when the columns exist
        raise RuntimeError("the benchmark database lacks the vec0 metadata columns")
    filt, returned, ts_filt, ts_recalls = [], [], [], []
    for i, q in enumerate(qs):
        t0 = time.perf_counter()
        hits = store.knn(q, k, one_book)
        t = _ms(t0)
        if index is not None:
            t0 = time.perf_counter()  # what the dense search does with a filter: allowed rowids, then search
            got = index.search(q, k, np.asarray(store.allowed_rowids(one_book), dtype=np.int64))
            t_ts = _ms(t0)
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
        total.append(_ms(t0))
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
        t_file = _ms(t0)
        t0 = time.perf_counter()
        vecs = store.vectors(ids.tolist())  # one vec0 look-up per row
        _distances = 1 - np.stack(list(vecs.values())) @ q
        t_vec0 = _ms(t0)
        if rep:
            from_file.append(t_file)
            vec0.append(t_vec0)
    return {"rows": rows, "file": stats(from_file), "vec0": stats(vec0)}


def _numpy_stage(mat: np.ndarray, rowids: np.ndarray, qs: np.ndarray, k: int,
                 knn_rowids: list[list[int]]) -> dict[str, Any]:
    """numpy brute force over ``mat`` (row i is ``rowids[i]``): times and agreement with sqlite-vec."""
    n = len(mat)
    np_ms, overlap = [], []
    for i, q in enumerate(qs):
        t0 = time.perf_counter()
        sims = mat @ q
        top = np.argpartition(sims, n - k)[n - k :] if k < n else np.arange(n)
        top = top[np.argsort(-sims[top], kind="stable")]
        t = _ms(t0)
        if i >= WARMUP:
            np_ms.append(t)
            want = set(knn_rowids[i - WARMUP])
            overlap.append(len(want & {int(rowids[x]) for x in top}) / max(1, len(want)))
    return {"numpy": stats(np_ms), "recall_vs_numpy": float(np.mean(overlap)) if overlap else 0.0,
            "matrix_bytes": int(mat.nbytes)}


def do_measure(path: Path, n: int, dims: int, seed: int, queries: int, real_proxy: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"n": n, "dims": dims, "k": K, "queries": queries, "warmup": WARMUP}
    store = ScriptureStore(path)
    k = min(K, n)
    qs = synth.query_vectors(queries + WARMUP, dims, seed)

    # 1. KNN (exact and two-stage), fetch, re-rank, filtered KNN: on the store, as the DB thread does.
    figures, knn_rowids = _search_stages(store, qs, k)
    out.update(figures)
    store.close()

    # 2. End to end through a loopback HTTP proxy (a separate process, like the real one).
    _log("end to end through the loopback bench proxy (exact and two-stage, alternating)")
    proc, url = _start_process(
        [sys.executable, "-m", "amicus_desktop.bench.proxy", "--dims", str(dims), "--seed", str(seed)],
        "listening on ",
    )
    try:
        texts = _query_texts(2 * (queries + WARMUP), f"bench-{seed}")
        out["e2e"] = asyncio.run(_e2e(path, url, texts, ChapterRef(FILTER_BOOK, 9)))
    finally:
        _stop_process(proc)

    # 2b. Optionally through the project's real proxy and local model (384 dims only).
    if real_proxy:
        _log("end to end through the real proxy (local model)")
        out["e2e_real"] = _e2e_real(path, dims, queries, seed)
    out["rss_after_e2e_mb"] = synth.peak_rss_mb()

    # 3. numpy brute force over the same vectors, in RAM.
    _log("numpy brute force")
    t0 = time.perf_counter()
    mat = synth.vector_matrix(n, dims, seed)
    out["numpy_load_s"] = time.perf_counter() - t0
    out["same_vectors"] = _same_vectors(path, mat)
    out.update(_numpy_stage(mat, np.arange(1, n + 1, dtype=np.int64), qs, k, knn_rowids))
    out["peak_rss_mb"] = synth.peak_rss_mb()
    return out


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
    proc, url = _start_process(
        [sys.executable, "-m", "amicus_desktop", "proxy", "--port", "0"], "listening on ", timeout=120
    )
    try:
        _log(f"embedding {len(texts)} questions through the proxy at {url}")
        answer = httpx.post(f"{url}/ai/embed", json={"input": texts}, timeout=300, trust_env=False).json()
        if answer.get("model") != model or int(answer.get("dims", 0)) != dims:
            raise SystemExit(f"{path.name} holds {model} ({dims} dims); the proxy serves {answer.get('model')}")
        qs = np.asarray([item["embedding"] for item in answer["data"]], dtype=np.float32)
        figures, knn_rowids = _search_stages(store, qs, k)
        out.update(figures)
        store.close()
        _log("end to end through the real proxy (local model; exact and two-stage, alternating)")
        # Two retrievals per question (one each way), each text distinct: a suffix tells them apart.
        pairs = [f"{t} ({way})" for t in texts for way in ("a", "b")]
        out["e2e"] = asyncio.run(_e2e(path, url, pairs, ChapterRef(FILTER_BOOK, 9)))
    finally:
        _stop_process(proc)
    out["rss_after_e2e_mb"] = synth.peak_rss_mb()

    _log("numpy brute force (vectors read from the two-stage file)")
    t0 = time.perf_counter()
    f = codes.CodesFile.open(codes.path_for(path))
    rowids = np.concatenate([r for _, r, _ in f.code_blocks()])
    mat = f.read_section("floats", "<f4", width=dims)
    out["numpy_load_s"] = time.perf_counter() - t0
    out.update(_numpy_stage(mat, rowids, qs, k, knn_rowids))
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


def _e2e_real(path: Path, dims: int, queries: int, seed: int) -> dict[str, Any]:
    if dims != 384:
        return {"skipped": "the local model makes 384-dim vectors"}
    try:
        proc, url = _start_process(
            [sys.executable, "-m", "amicus_desktop", "proxy", "--port", "0"], "listening on ", timeout=120
        )
    except (RuntimeError, OSError) as exc:
        return {"skipped": f"the real proxy did not start ({exc})"}
    try:
        health = httpx.get(f"{url}/health", timeout=30, trust_env=False).json()
        if int(health["dims"]) != dims:
            return {"skipped": f"the real proxy serves {health['dims']} dims"}
        old = set_meta(path, "embedding_model", str(health["model"]))  # the bench's own copy
        try:
            texts = _query_texts(2 * (queries + WARMUP), f"real-{seed}")
            result = asyncio.run(_e2e(path, url, texts, ChapterRef(FILTER_BOOK, 9)))
        finally:
            set_meta(path, "embedding_model", str(old))
        result["model"] = str(health["model"])
        return result
    finally:
        _stop_process(proc)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m amicus_desktop.bench.worker")
    p.add_argument("action", choices=("build", "measure", "measure-real", "bandwidth"))
    p.add_argument("--path", type=Path)
    p.add_argument("--n", type=int)
    p.add_argument("--dims", type=int)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--queries", type=int, default=40)
    p.add_argument("--real-proxy", action="store_true")
    p.add_argument("--mib", type=int, default=512)
    args = p.parse_args(argv)
    if args.action == "bandwidth":
        result = do_bandwidth(args.mib)
    elif args.action == "build":
        result = do_build(args.path, args.n, args.dims, args.seed)
    elif args.action == "measure-real":
        result = do_measure_real(args.path, args.queries)
    else:
        result = do_measure(args.path, args.n, args.dims, args.seed, args.queries, args.real_proxy)
    result["blas_threads_env"] = os.environ.get("OPENBLAS_NUM_THREADS")
    with contextlib.suppress(BrokenPipeError):
        print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

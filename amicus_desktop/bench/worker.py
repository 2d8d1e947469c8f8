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
from pathlib import Path
from typing import Any

import httpx
import numpy as np

from ..core.types import Candidate, ChapterRef, Profile, RetrievalContext
from ..embedding.client import EmbedClient, Embedding
from ..rerank import rerank
from ..retrieval.pipeline import Retriever
from ..store.scripture import ScriptureStore
from ..store.sqlite import connect
from . import synth

K = 40  # CONTRACT section 3: 40 candidates by default
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
    out = {"build_s": st.seconds, "db_bytes": st.bytes, "build_peak_rss_mb": st.peak_rss_mb}
    synth.sidecar(path).write_text(json.dumps(out))
    return out


# -- bandwidth --------------------------------------------------------------------------------
def do_bandwidth(mib: int = 512, repeats: int = 5) -> dict[str, Any]:
    """Single-thread sequential read bandwidth: the best of a few numpy reductions over ``mib`` MiB.

    The array is far larger than any cache, so every pass streams it from RAM. Each kernel reads
    every byte once; the fastest kernel's best pass is taken as the machine's read bandwidth.
    """
    a = np.ones(mib * 1024 * 1024 // 4, dtype=np.float32)
    kernels = {"max": a.max, "sum": a.sum, "dot": lambda: np.dot(a, a)}
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
def _start_process(cmd: list[str], prefix: str, timeout: float = 60.0) -> tuple[subprocess.Popen, str]:
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


def _stop_process(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _query_texts(count: int, tag: str) -> list[str]:
    """Distinct question texts, so every retrieval misses the embed client's vector cache."""
    words = synth.WORDS[:96]
    books = [b.book_id for b in synth.BOOKS]
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
    client = _CountingClient(url)
    retriever = Retriever(db, url, embed_client=client)
    try:
        await retriever.open()
        total, embed, search, rr, wall = [], [], [], [], []
        for i, text in enumerate(texts):
            ctx = RetrievalContext(query=text, profile=PROFILE, chapter=chapter, k=10, candidates=K)
            t0 = time.perf_counter()
            result = await retriever.retrieve(ctx)
            w = _ms(t0)
            if i < WARMUP:
                continue
            t = result.timings
            total.append(t.total)
            embed.append(t.embed)
            search.append(t.search)
            rr.append(t.rerank)
            wall.append(w)
        calls = client.sent
    finally:
        await retriever.aclose()
    return {
        "total": stats(total), "embed": stats(embed), "search": stats(search),
        "rerank": stats(rr), "wall": stats(wall), "http_embed_calls": calls,
        "retrievals": len(texts),
    }


def _set_model_id(db: Path, model: str) -> str:
    """Rewrite ``db_meta.embedding_model`` of a bench-owned database; returns the old value."""
    con = connect(db, readonly=False)
    try:
        (old,) = con.execute("SELECT value FROM db_meta WHERE key = 'embedding_model'").fetchone()
        con.execute("UPDATE db_meta SET value = ? WHERE key = 'embedding_model'", (model,))
    finally:
        con.close()
    return str(old)


def do_measure(path: Path, n: int, dims: int, seed: int, queries: int, real_proxy: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"n": n, "dims": dims, "k": K, "queries": queries, "warmup": WARMUP}
    store = ScriptureStore(path)
    k = min(K, n)
    qs = synth.query_vectors(queries + WARMUP, dims, seed)

    # 1. KNN, fetch, re-rank, filtered KNN: the store as the Retriever's DB thread uses it.
    _log("KNN, fetch and re-rank")
    knn, fetch, search, rr = [], [], [], []
    knn_rowids: list[list[int]] = []
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
        if i < WARMUP:
            continue
        knn.append(t_knn)
        fetch.append(t_fetch)
        search.append(t_knn + t_fetch)
        rr.append(t_rr)
        knn_rowids.append([r for r, _ in hits])
        rejected_cap += sum(1 for r in rejected if r.reason.value == "scholar_cap")
    out.update(knn=stats(knn), fetch=stats(fetch), search=stats(search), rerank=stats(rr))
    # Near 1.0 when this process had a core to itself; lower means other load took CPU from it.
    out["cpu_share"] = (time.process_time() - cpu0) / max(1e-9, time.perf_counter() - wall0)
    out["scholar_cap_rejections_per_query"] = rejected_cap / max(1, queries)

    _log(f"one-book KNN (book_id = {FILTER_BOOK!r}, inside vec0)")
    (in_book,) = store.con.execute(
        "SELECT count(*) FROM chunk_metadata WHERE book_id = ?", (FILTER_BOOK,)
    ).fetchone()
    filt, returned = [], []
    for i, q in enumerate(qs):
        t0 = time.perf_counter()
        hits = store.knn(q, k, {"book_id": FILTER_BOOK})
        t = _ms(t0)
        if i >= WARMUP:
            filt.append(t)
            returned.append(len(hits))
    out["knn_one_book"] = {**stats(filt), "book": FILTER_BOOK, "rows_in_book": int(in_book),
                           "min_returned": min(returned) if returned else 0}
    store.close()
    out["rss_after_sqlite_mb"] = synth.peak_rss_mb()

    # 2. End to end through a loopback HTTP proxy (a separate process, like the real one).
    _log("end to end through the loopback bench proxy")
    proc, url = _start_process(
        [sys.executable, "-m", "amicus_desktop.bench.proxy", "--dims", str(dims)], "listening on "
    )
    try:
        texts = _query_texts(queries + WARMUP, f"bench-{seed}")
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
    out["matrix_bytes"] = int(mat.nbytes)
    out["same_vectors"] = _same_vectors(path, mat)
    np_ms, overlap = [], []
    for i, q in enumerate(qs):
        t0 = time.perf_counter()
        sims = mat @ q
        if k < n:
            top = np.argpartition(sims, n - k)[n - k :]
        else:
            top = np.arange(n)
        top = top[np.argsort(-sims[top], kind="stable")]
        t = _ms(t0)
        if i >= WARMUP:
            np_ms.append(t)
            want = set(knn_rowids[i - WARMUP])
            overlap.append(len(want & {int(x) + 1 for x in top}) / max(1, len(want)))
    out["numpy"] = stats(np_ms)
    out["recall_vs_numpy"] = float(np.mean(overlap)) if overlap else 0.0
    out["peak_rss_mb"] = synth.peak_rss_mb()
    return out


def _same_vectors(path: Path, mat: np.ndarray) -> bool:
    """Spot-check that the regenerated matrix is what the database holds (first, middle, last)."""
    con = connect(path, readonly=True)
    try:
        n = len(mat)
        for rowid in sorted({1, (n + 1) // 2, n}):
            (blob,) = con.execute("SELECT embedding FROM embeddings WHERE rowid = ?", (rowid,)).fetchone()
            if not np.array_equal(np.frombuffer(blob, dtype=np.float32), mat[rowid - 1]):
                return False
        return True
    finally:
        con.close()


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
        old = _set_model_id(path, str(health["model"]))
        try:
            texts = _query_texts(queries + WARMUP, f"real-{seed}")
            result = asyncio.run(_e2e(path, url, texts, ChapterRef(FILTER_BOOK, 9)))
        finally:
            _set_model_id(path, old)
        result["model"] = str(health["model"])
        return result
    finally:
        _stop_process(proc)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m amicus_desktop.bench.worker")
    p.add_argument("action", choices=("build", "measure", "bandwidth"))
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
    else:
        result = do_measure(args.path, args.n, args.dims, args.seed, args.queries, args.real_proxy)
    result["blas_threads_env"] = os.environ.get("OPENBLAS_NUM_THREADS")
    with contextlib.suppress(BrokenPipeError):
        print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

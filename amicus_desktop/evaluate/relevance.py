"""The relevance benchmark: every search mode, with and without boosts, on every model, in one run.

For each database given (one per embedding model, all built from the same chunks) it starts the
project's own embed proxy serving that database's model, evaluates the golden set under each
configuration of :func:`configurations`, and — when a set of questions the library cannot answer is
given — calibrates the no-strong-match floor of each model and mode. The report prints side by side
what decides the app's defaults (docs/RELEVANCE.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import httpx

from ..core.query import NO_BOOSTS, BoostWeights, Fusion, FusionMethod, SearchMode
from ..retrieval import Retriever
from ..store.scripture import ScriptureStore
from .golden import GoldenSet
from .run import EvalConfig, EvalReport, evaluate

BOOSTS = BoostWeights()


def configurations(default_fusion: Fusion) -> list[EvalConfig]:
    """The rows of the benchmark: the baselines, each mode with and without boosts, the fusion sweep."""
    rows = [
        EvalConfig(SearchMode.SEMANTIC, NO_BOOSTS, label="dense only (semantic, no boosts, no cap)"),
        EvalConfig(SearchMode.KEYWORD, NO_BOOSTS, label="BM25 only (keyword, no boosts, no cap)"),
        EvalConfig(SearchMode.HYBRID, NO_BOOSTS, default_fusion, label="hybrid, no boosts, no cap"),
        EvalConfig(SearchMode.SEMANTIC, BOOSTS, label="semantic + boosts + cap 2"),
        EvalConfig(SearchMode.KEYWORD, BOOSTS, label="keyword + boosts + cap 2"),
        EvalConfig(SearchMode.HYBRID, BOOSTS, default_fusion, label="hybrid + boosts + cap 2"),
    ]
    sweep = [Fusion(FusionMethod.CONVEX, a) for a in (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)]
    sweep += [Fusion(FusionMethod.RRF, 0.5, k) for k in (10, 60)]
    for fusion in sweep:
        if fusion == default_fusion:
            continue
        name = f"convex α {fusion.alpha:g}" if fusion.method is FusionMethod.CONVEX else f"RRF k {fusion.rrf_k}"
        rows.append(EvalConfig(SearchMode.HYBRID, BOOSTS, fusion, label=f"hybrid + boosts, {name}"))
    for cap in (1, 3, None):
        rows.append(EvalConfig(SearchMode.HYBRID, replace(BOOSTS, per_scholar_cap=cap), default_fusion,
                               label=f"hybrid + boosts, cap {cap or 'none'}"))
    return rows


@dataclass(frozen=True)
class Floor:
    """A calibrated floor: the base score that best separates answerable from unanswerable questions."""

    model: str
    mode: SearchMode
    floor: float
    #: share of answerable questions whose best base is at or above the floor
    kept: float
    #: share of unanswerable questions whose best base is below it
    flagged: float


@dataclass
class ModelReport:
    """One model's rows."""

    model: str
    db: Path
    reports: list[EvalReport] = field(default_factory=list)
    floors: list[Floor] = field(default_factory=list)
    seconds: float = 0.0


def calibrate(model: str, mode: SearchMode, answerable: Sequence[float], unanswerable: Sequence[float]) -> Floor:
    """The floor maximising balanced accuracy (mean of the two shares); ties go to the lower floor.

    Candidates are the midpoints between neighbouring observed values, so the floor never sits on an
    observation.
    """
    values = sorted(set(answerable) | set(unanswerable))
    cuts = [(a + b) / 2 for a, b in itertools.pairwise(values)] or values
    best: Floor | None = None
    for cut in cuts:
        kept = sum(v >= cut for v in answerable) / max(1, len(answerable))
        flagged = sum(v < cut for v in unanswerable) / max(1, len(unanswerable))
        candidate = Floor(model, mode, round(cut, 3), kept, flagged)
        if best is None or (kept + flagged) > (best.kept + best.flagged) + 1e-12:
            best = candidate
    assert best is not None
    return best


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def proxy_for(backend: str) -> Iterator[str]:
    """The project's embed proxy serving ``backend`` on a free loopback port, for the duration."""
    port = _free_port()
    log = tempfile.TemporaryFile()
    env = {**os.environ, "AMICUS_PROXY_TOKEN": ""}
    proc = subprocess.Popen(
        [sys.executable, "-m", "amicus_desktop", "proxy",
         "--port", str(port), "--backend", backend, "--rate-limit", "0"],
        stdout=log, stderr=subprocess.STDOUT, env=env,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                log.seek(0)
                raise RuntimeError(f"the {backend} proxy exited: {log.read().decode(errors='replace')[-800:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/health", timeout=1).status_code == 200:
                    break
            time.sleep(0.2)
        else:
            raise RuntimeError(f"the {backend} proxy did not answer within 120 s")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def db_model(db: Path) -> str:
    with ScriptureStore(db) as store:
        return store.info.model_id


async def run_model(
    db: Path,
    proxy: str,
    golden: GoldenSet,
    rows: Sequence[EvalConfig],
    unanswerable: GoldenSet | None,
    progress: Callable[[str], None],
) -> ModelReport:
    retriever = Retriever(db, proxy)
    t0 = time.perf_counter()
    try:
        info = await retriever.open()
        out = ModelReport(info.model_id, db)
        for config in rows:
            progress(f"{info.model_id}: {config.describe()}")
            out.reports.append(await evaluate(retriever, golden, config))
        if unanswerable is not None:
            for mode in (SearchMode.SEMANTIC, SearchMode.HYBRID):
                base = next(r for r in out.reports if r.config.mode is mode and r.config.weights == BOOSTS)
                neg = await evaluate(retriever, unanswerable, base.config)
                answerable = [q.best_base for q in base.queries if q.best_base is not None and q.scores["mrr@10"] > 0]
                negatives = [q.best_base for q in neg.queries if q.best_base is not None]
                out.floors.append(calibrate(info.model_id, mode, answerable, negatives))
        out.seconds = time.perf_counter() - t0
        return out
    finally:
        await retriever.aclose()


def run_benchmark(
    golden: GoldenSet,
    dbs: Sequence[tuple[Path, str]],
    *,
    default_fusion: Fusion,
    unanswerable: GoldenSet | None = None,
    progress: Callable[[str], None] = lambda _msg: None,
) -> list[ModelReport]:
    """Evaluate every configuration on each ``(database, proxy backend)`` pair."""
    reports = []
    rows = configurations(default_fusion)
    for db, backend in dbs:
        with proxy_for(backend) as url:
            reports.append(asyncio.run(run_model(db, url, golden, rows, unanswerable, progress)))
    return reports


def judged_share(golden: GoldenSet, report: EvalReport) -> float:
    """Mean share of each question's top 10 that carries a judgment (any grade).

    Unjudged chunks count as not relevant, so a ranking that finds chunks no pooled system found scores
    low for that alone: a low share says its numbers are a lower bound (docs/RELEVANCE.md, "Pooling").
    """
    by_id = {q.id: q for q in golden.queries}
    shares = [sum(c in by_id[q.id].judgments for c in q.ranked) / len(q.ranked)
              for q in report.queries if q.ranked and q.id in by_id]
    return sum(shares) / len(shares) if shares else 0.0


def format_benchmark(golden: GoldenSet, reports: Sequence[ModelReport]) -> str:
    lines = [f"Relevance on {golden.name!r}: {len(golden.queries)} judged questions, top 10, "
             "ratios against dense-only and BM25-only of the same model; judged = share of the top 10 "
             "with a judgment", ""]
    for model in reports:
        rows = model.reports
        dense = rows[0].mean["ndcg@10"]
        bm25 = rows[1].mean["ndcg@10"]
        lines.append(f"model {model.model}  ({model.db.name}, {model.seconds:.0f} s)")
        header = (f"  {'configuration':<44} {'nDCG@10':>8} {'MRR@10':>7} {'R@10':>6} {'×dense':>7} {'×BM25':>7}"
                  f" {'judged':>7}")
        lines += [header, "  " + "-" * (len(header) - 2)]
        for r in rows:
            m = r.mean
            lines.append(
                f"  {r.config.describe():<44.44} {m['ndcg@10']:8.3f} {m['mrr@10']:7.3f} {m['recall@10']:6.3f} "
                f"{m['ndcg@10'] / dense if dense else 0:7.2f} {m['ndcg@10'] / bm25 if bm25 else 0:7.2f} "
                f"{judged_share(golden, r):7.0%}"
            )
        for f in model.floors:
            lines.append(f"  no-strong-match floor, {f.mode.value}: {f.floor:.3f} (keeps {f.kept:.0%} of answered "
                         f"questions, flags {f.flagged:.0%} of unanswerable ones)")
        lines.append("")
    return "\n".join(lines)

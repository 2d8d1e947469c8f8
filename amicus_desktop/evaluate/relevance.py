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

from ..core.preset import APP, CONTRACT
from ..core.query import NO_BOOSTS, BoostWeights, Fusion, FusionMethod, SearchMode
from ..retrieval import Retriever
from ..store.library import open_library
from .calibrate import Floor, WarningRates, calibrate, calibrate_joint, warning_rates
from .chapters import VARIANTS, chapter_variants
from .golden import GoldenSet
from .run import EvalConfig, EvalReport, evaluate

BOOSTS = BoostWeights()
#: the rows every report is read against: the two plain baselines, the seed's default (the contract),
#: wave 2's app default, and what a reader gets now (the app preset)
DENSE = EvalConfig(SearchMode.SEMANTIC, NO_BOOSTS, label="dense only (semantic, no boosts, no cap)")
BM25 = EvalConfig(SearchMode.KEYWORD, NO_BOOSTS, label="BM25 only (keyword, no boosts, no cap)")
SEED = EvalConfig.of(CONTRACT, label="seed default (semantic + boosts + cap 2)")
HYBRID_CAP = EvalConfig(SearchMode.HYBRID, BOOSTS, Fusion(), label="hybrid + boosts + cap 2 (wave 2 app)")
APP_ROW = EvalConfig.of(APP, label="--preset app (what a reader gets)")


def configurations(default_fusion: Fusion) -> list[EvalConfig]:
    """The rows of the benchmark: the baselines, the presets, and the app preset's rules one by one."""
    rows = [
        DENSE, BM25,
        EvalConfig(SearchMode.HYBRID, NO_BOOSTS, default_fusion, label="hybrid, no boosts, no cap"),
        SEED,
        EvalConfig(SearchMode.KEYWORD, BOOSTS, label="keyword + boosts + cap 2"),
        HYBRID_CAP,
        APP_ROW,
    ]
    policy, cap = APP.policy, APP.weights.per_scholar_cap
    ablations = [
        (f"app without the spread (hard cap {cap})", replace(policy, spread=None)),
        ("app without passage first", replace(policy, passage_first=False)),
        ("app without source priors", replace(policy, source_priors=False)),
        ("app without the focus chapter", replace(policy, focus=None)),
        ("app, the open chapter boosting all of it", replace(policy, chapter_relation=None)),
        ("app, open chapter only above 0.7 × best", replace(policy, chapter_floor=0.7)),
        ("app, spread ×0.7", replace(policy, spread=0.7)),
        ("app, spread ×0.95", replace(policy, spread=0.95)),
    ]
    for label, changed in ablations:
        rows.append(replace(APP_ROW, policy=changed, label=label))
    two = replace(APP.weights, per_scholar_cap=2)
    rows.append(replace(APP_ROW, weights=two, label="app, spread past 2 per source"))
    for alpha in (0.5, 0.6, 0.8):
        rows.append(replace(APP_ROW, fusion=Fusion(FusionMethod.CONVEX, alpha), label=f"app, convex α {alpha:g}"))
    rows.append(replace(APP_ROW, fusion=Fusion(FusionMethod.RRF, 0.5, 60), label="app, RRF k 60"))
    return rows


def chapter_rows() -> list[EvalConfig]:
    """The rows asked again with no chapter, the chapter each question is about and an unrelated one
    (:mod:`.chapters`): the baselines, the app, and the app with the open chapter boosting every passage in it."""
    everywhere = replace(APP.policy, chapter_relation=None, chapter_floor=None)
    return [replace(DENSE, label="dense only"), replace(BM25, label="BM25 only"),
            replace(APP_ROW, label="--preset app"),
            replace(APP_ROW, policy=everywhere, label="app, chapter on all of it")]


@dataclass
class ModelReport:
    """One model's rows, its calibrated floors, and the warning and short-list rates of the key rows."""

    model: str
    db: Path
    reports: list[EvalReport] = field(default_factory=list)
    floors: list[Floor] = field(default_factory=list)
    rates: list[WarningRates] = field(default_factory=list)
    #: (variant of :data:`.chapters.VARIANTS`, row of :func:`chapter_rows`) → its report
    chapters: dict[tuple[str, EvalConfig], EvalReport] = field(default_factory=dict)
    seconds: float = 0.0


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
    with open_library(db) as store:
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
        asked = await retriever.run_db(lambda store: chapter_variants(store, golden))
        for variant in VARIANTS:
            for config in chapter_rows():
                progress(f"{info.model_id}: {config.describe()}, {variant} chapter")
                out.chapters[(variant, config)] = await evaluate(retriever, asked[variant], config)
        if unanswerable is not None:
            answerable = {q.id for q in golden.queries if any(g >= 2 for g in q.judgments.values())}
            by_config = {r.config: r for r in out.reports}
            for config in (SEED, HYBRID_CAP, APP_ROW):
                report = by_config[config]
                neg = await evaluate(retriever, unanswerable, config)
                out.rates.append(warning_rates(config.describe(), report, answerable, neg))
                pos = [q for q in report.queries if q.id in answerable and q.best_base is not None]
                if config.mode is SearchMode.SEMANTIC:
                    out.floors.append(calibrate(info.model_id, config.mode,
                                                [b for q in pos if (b := q.best_base) is not None],
                                                [b for q in neg.queries if (b := q.best_base) is not None]))
                elif config is APP_ROW:
                    out.floors.append(calibrate_joint(
                        info.model_id,
                        [(b, q.best_similarity or 0.0) for q in pos if (b := q.best_base) is not None],
                        [(b, q.best_similarity or 0.0) for q in neg.queries if (b := q.best_base) is not None],
                    ))
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

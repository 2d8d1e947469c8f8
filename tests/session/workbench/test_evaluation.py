"""Evaluating the set (``session/workbench/evaluation.py``) with progress, then its rankings saved and
compared as snapshots (``snapshots.py``). Expected numbers are recomputed with the metric functions."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from amicus_desktop.core.query import BoostWeights
from amicus_desktop.evaluate import golden as golden_io
from amicus_desktop.evaluate import metrics
from amicus_desktop.evaluate.golden import GoldenQuery, GoldenSet
from amicus_desktop.paths import snapshot_dir
from amicus_desktop.session.workbench import Progress
from tests.support.scripted_proxy import ScriptedProxy
from tests.support.sessions import OpenSession

from .support import started, tmp_path_of

pytestmark = pytest.mark.anyio  # async tests on asyncio; see tests/session/conftest.py


async def test_evaluate_the_set_with_progress_then_snapshots_compare(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    session, bench = await started(open_session, small_db, proxy.url)
    view = session.question.view
    assert view is not None
    top = [r.chunk_id for r in view.result.results]
    golden = GoldenSet("eval", (
        GoldenQuery("q1", "grace", {top[3]: 3, top[0]: 1}, chapter="romans:9"),
        GoldenQuery("q2", "faith and works", {top[1]: 2}),
        GoldenQuery("q3", "love", {}),
    ))
    path = tmp_path_of(session) / "eval.json"
    golden_io.save(golden, path)
    assert await bench.golden_job.open_golden(path)
    assert bench.snapshot_job.save_snapshot("too early") is None  # needs an evaluation first
    steps: list[Progress] = []
    bench.progress.connect(steps.append)
    task = bench.eval_job.evaluate_set()
    assert task is not None and bench.eval_job.evaluating
    await task
    assert not bench.eval_job.evaluating and steps == [Progress(1, 3), Progress(2, 3), Progress(3, 3)]
    report = bench.eval_job.report
    assert report is not None and [q.id for q in report.queries] == ["q1", "q2", "q3"]
    for q, g in zip(report.queries, golden.queries, strict=True):
        assert q.scores["ndcg@10"] == metrics.ndcg(q.ranked, g.judgments)
    first = await bench.snapshot_job.save_snapshot("before / tuning")
    assert first == snapshot_dir() / "before-tuning.json" and first.exists()
    assert bench.snapshot_job.snapshot_files == [first]

    bench.whatif_job.set_weights(BoostWeights(chapter=1.0, scholar=1.0, tradition=1.0, per_scholar_cap=None))
    task = bench.eval_job.evaluate_set()
    assert task is not None
    await task
    second = await bench.snapshot_job.save_snapshot("after")
    assert second is not None and bench.snapshot_job.snapshot_files[0] == second
    changes = await bench.snapshot_job.compare_snapshots(first, second)
    assert changes is not None and {c.id for c in changes} == {"q1", "q2", "q3"}
    after = {q.id: q.scores["ndcg@10"] for q in bench.eval_job.report.queries} if bench.eval_job.report else {}
    for c in changes:
        assert c.b == after[c.id] and c.delta == (c.b or 0) - (c.a or 0)
    deltas = [abs(c.delta or 0) for c in changes]
    assert deltas == sorted(deltas, reverse=True)

    # Cancel: the run stops, nothing half-done is kept as the report.
    kept = bench.eval_job.report
    task = bench.eval_job.evaluate_set()
    bench.eval_job.cancel_evaluation()
    assert not bench.eval_job.evaluating and task is not None
    await asyncio.wait([task])
    assert task.cancelled() and bench.eval_job.report is kept

"""The curator's review tools in the workbench session (no Qt): judging under a name, the golden set
reopened after a restart, the history of runs, the chunk preview, gaps and agreement, the weight search
and applying it, and judgments imported and exported. Real databases, the scripted proxy over HTTP."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from amicus_desktop.core.query import FusionMethod
from amicus_desktop.evaluate import golden as golden_io
from amicus_desktop.evaluate.golden import GoldenQuery, GoldenSet
from amicus_desktop.session import Session
from amicus_desktop.session.workbench import Workbench
from tests.support.scripted_proxy import ScriptedProxy
from tests.support.sessions import OpenSession, reach

from .support import bench_until, started, tmp_path_of

pytestmark = pytest.mark.anyio  # async tests on asyncio; see tests/session/conftest.py


async def poll(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait for ``condition`` across the workbench's tasks (files read and written in threads)."""
    for _ in range(int(timeout / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("state not reached")


def _set(top: list[str]) -> GoldenSet:
    return GoldenSet("curation", (
        GoldenQuery("q1", "grace", {top[3]: 3, top[0]: 1}, chapter="romans:9"),
        GoldenQuery("q2", "faith and works", {top[1]: 2}),
        GoldenQuery("q3", "love", {top[2]: 1}),
        GoldenQuery("q4", "hope", {top[4]: 2}),
        GoldenQuery("q5", "the law", {top[5]: 3}),
        GoldenQuery("q6", "election", {top[6]: 1}),
    ))


async def _with_set(open_session: OpenSession, db: Path, url: str) -> tuple[Session, Workbench, list[str], Path]:
    """A started session and workbench with :func:`_set` of the answer's chunk ids open; those ids, the set's file."""
    session, bench = await started(open_session, db, url)
    top = [r.chunk_id for r in session.question.view.result.results]  # type: ignore[union-attr]
    path = tmp_path_of(session) / "curation.json"
    golden_io.save(_set(top), path)
    assert await bench.golden_job.open_golden(path)
    return session, bench, top, path


async def test_judging_under_a_name_and_the_set_reopened_after_a_restart(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    session, bench = await started(open_session, small_db, proxy.url)
    session.apply_settings(session.prefs.settings.replace(judge_name="ana"))
    notices: list[str] = []
    bench.notice.connect(notices.append)
    top = [r.chunk_id for r in session.question.view.result.results]  # type: ignore[union-attr]
    assert not bench.golden_job.judge(top[0], 2) and "golden set first" in notices[-1]
    path = tmp_path_of(session) / "curation.json"
    golden_io.save(_set(top), path)
    assert await bench.golden_job.open_golden(path)
    assert notices[-1] == ""  # the notice that asked for a set is cleared
    assert bench.golden_job.judge(top[0], 3)
    assert bench.golden_job.judge_item("q2", top[7], 0)  # a chunk of a question not on screen
    await bench.golden_job.flush()
    saved = golden_io.load(path)
    rating = saved.query("q1").ratings[top[0]][0]  # type: ignore[union-attr]
    assert (rating.by, rating.grade) == ("ana", 3) and rating.at.endswith("Z")
    assert saved.query("q2").judgments[top[7]] == 0  # type: ignore[union-attr]
    assert bench.golden_job.question("q1")[1] is not None  # type: ignore[index]
    await session.aclose()

    # The next start: the same settings file; the set opens again once the library is ready.
    later = open_session(small_db, proxy.url, chapter="romans:9")
    again = Workbench(later)
    later.start()
    await poll(lambda: again.golden_job.golden is not None)
    assert again.golden_job.golden_path == path and again.golden_job.golden.query("q2") is not None  # type: ignore[union-attr]
    await later.aclose()

    path.unlink()  # a set deleted since is forgotten, without a fuss
    third = open_session(small_db, proxy.url)
    bench3 = Workbench(third)
    third.start()
    await reach(third, lambda: third.library.ready)
    await poll(lambda: third.prefs.settings.golden_set is None)
    assert bench3.golden_job.golden is None
    await third.aclose()


async def test_evaluate_keeps_history_gaps_preview_and_agreement(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    session, bench = await started(open_session, small_db, proxy.url)
    top = [r.chunk_id for r in session.question.view.result.results]  # type: ignore[union-attr]
    two = _set(top)
    q1 = two.queries[0].judge(top[3], 3, by="ana", at="t").judge(top[3], 1, by="ben", at="t")
    path = tmp_path_of(session) / "curation.json"
    golden_io.save(two.with_query(q1), path)
    assert await bench.golden_job.open_golden(path)
    config = bench.eval_job.eval_config()
    assert config.policy == session.prefs.settings.policy and config.policy.spread is not None
    task = bench.eval_job.evaluate_set()
    assert task is not None
    await task
    await bench_until(bench, lambda: len(bench.history_job.runs) == 1)
    run_ = bench.history_job.runs[0]
    assert run_.metrics["ndcg@10"] == pytest.approx(bench.eval_job.report.mean["ndcg@10"], abs=1e-6)  # type: ignore[union-attr]
    assert run_.library == str(small_db) and run_.source == "workbench"

    gaps = bench.review.gaps()
    report = bench.eval_job.report
    assert report is not None
    assert len(gaps) == report.unjudged and all(g.chunk_id not in bench.golden_job.golden.query(g.query_id).judgments
                                                for g in gaps)  # type: ignore[union-attr]
    agreement = bench.review.agreement()
    assert agreement is not None and agreement.judges == ("ana", "ben") and agreement.items == 1
    assert agreement.disagreements[0].grades == {"ana": 3, "ben": 1}

    shown: list[object] = []
    bench.previewed.connect(shown.append)
    bench.preview.show(top[4])
    await poll(lambda: bool(shown))
    assert getattr(shown[-1], "chunk_id", None) == top[4]
    bench.preview.show("no-such-chunk")
    await poll(lambda: len(shown) == 2)
    assert shown[-1] is None


@pytest.mark.timeout(60)
async def test_the_weight_search_runs_off_the_ui_thread_and_applies(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    session, bench, _top, _path = await _with_set(open_session, small_db, proxy.url)
    steps: list[object] = []
    bench.tune_progress.connect(steps.append)
    task = bench.tune.start(budget=20)
    assert task is not None and bench.tune.running
    await task
    outcome = bench.tune.outcome
    assert outcome is not None and not bench.tune.running and steps
    assert outcome.start.weights == bench.whatif_job.saved_weights and outcome.train + outcome.held == 6
    best = outcome.best
    if bench.tune.apply():
        s = session.prefs.settings
        assert (s.chapter_boost, s.per_scholar_cap, s.fusion, s.alpha, s.spread, s.focus_boost) == (
            best.weights.chapter, best.weights.per_scholar_cap, best.fusion.method.value, best.fusion.alpha,
            best.policy.spread, best.policy.focus)
        ctx = session.context("grace")
        assert ctx.policy == best.policy and ctx.fusion.method is FusionMethod(s.fusion)
    else:
        assert best == outcome.start


async def test_judgments_imported_into_and_exported_from_the_open_set(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    session, bench, top, path = await _with_set(open_session, small_db, proxy.url)
    notices: list[str] = []
    bench.notice.connect(notices.append)
    csv = tmp_path_of(session) / "ben.csv"
    csv.write_text(f"query,docid,rating\ngrace,{top[3]},1\nnew question,{top[0]},0\n", encoding="utf-8")
    task = bench.interchange.import_file(csv, "quepid", "0-1", "ben")
    assert task is not None and await task
    assert "Imported ben.csv: 2 ratings read, 1 questions added" in notices[-1]
    await bench.golden_job.flush()
    data = json.loads(path.read_text())
    [ben] = data["queries"][0]["judges"][top[3]]
    assert (ben["by"], ben["grade"]) == ("ben", 2)  # 1 on the 0-1 scale reads as 2 ("relevant")
    assert data["queries"][0]["judgments"][top[3]] == 3  # the set's grade is kept
    out = tmp_path_of(session) / "out.qrels"
    task = bench.interchange.export_file(out, "trec", "0-3")
    assert task is not None and await task
    assert out.read_text().splitlines()[0] == f"q1 0 {top[3]} 3"
    bad = tmp_path_of(session) / "bad.csv"
    bad.write_text("query,docid,rating\ngrace,x,7\n", encoding="utf-8")
    task = bench.interchange.import_file(bad, "quepid", "0-3")
    assert task is not None and not await task and "line 2: rating 7" in notices[-1]

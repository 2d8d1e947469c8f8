"""The curator workbench's state as plain Python: a real sqlite-vec file, the scripted proxy over real HTTP.

Every expected number is recomputed here from the engine's own output with the metric functions
(which have their own hand-worked tests), never typed in.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

from amicus_desktop.core.query import BoostWeights, SearchMode
from amicus_desktop.core.references import ChapterRef
from amicus_desktop.evaluate import golden as golden_io
from amicus_desktop.evaluate import metrics
from amicus_desktop.evaluate.golden import GoldenQuery, GoldenSet
from amicus_desktop.paths import golden_dir, snapshot_dir
from amicus_desktop.retrieval import rerank_result
from amicus_desktop.session import Session
from amicus_desktop.session.workbench import Progress, Workbench
from amicus_desktop.settings import SettingsStore
from tests.support.scripted_proxy import ScriptedProxy
from tests.support.sessions import make_session, reach, run

BIG_CHAPTER = BoostWeights(chapter=3.0)


async def started(db: Path, url: str) -> tuple[Session, Workbench]:
    session = make_session(db, url, chapter="romans:9")
    bench = Workbench(session)
    session.start()
    await reach(session, lambda: session.can_ask)
    task = session.ask("grace")
    assert task is not None
    await task
    return session, bench


def test_what_if_reranks_the_kept_candidates_and_moves_against_the_saved_weights(small_db: Path) -> None:
    async def main() -> None:
        with ScriptedProxy(dims=8) as proxy:
            session, bench = await started(small_db, proxy.url)
            view = session.question.view
            assert view is not None and bench.whatif is not None
            saved = {r.chunk_id: r.rank for r in view.result.results}
            assert bench.whatif.saved_ranks == saved and not bench.dirty
            assert all(bench.whatif.move(r.chunk_id, r.rank) == 0 for r in bench.whatif.result.results)

            bench.set_weights(BIG_CHAPTER)
            w = bench.whatif
            assert w is not None and bench.dirty and proxy.embed_requests == 1  # no new embedding
            expected = rerank_result(view.result, session.context("grace").replace(weights=BIG_CHAPTER))
            assert [r.chunk_id for r in w.result.results] == [r.chunk_id for r in expected.results]
            assert [r.chunk_id for r in w.result.results] != [r.chunk_id for r in view.result.results]
            in_chapter = [r for r in w.result.results if r.breakdown.chapter_boost != 1.0]
            assert in_chapter and all(r.breakdown.chapter_boost == 3.0 for r in in_chapter)
            moves = {r.chunk_id: w.move(r.chunk_id, r.rank) for r in w.result.results}
            assert any(m not in (0, None) for m in moves.values())
            for r in w.result.results:
                if r.chunk_id in saved:
                    assert moves[r.chunk_id] == saved[r.chunk_id] - r.rank

            bench.reset()
            assert not bench.dirty and bench.whatif is not None
            assert [r.chunk_id for r in bench.whatif.result.results] == list(saved)

            # Saved weights changed elsewhere (the settings dialog) carry the untouched what-if along.
            session.apply_settings(session.prefs.settings.replace(scholar_boost=1.3))
            assert bench.weights.scholar == 1.3 and not bench.dirty
            bench.set_weights(BoostWeights(chapter=5.0))
            session.apply_settings(session.prefs.settings.replace(scholar_boost=1.2))
            assert bench.weights == BoostWeights(chapter=5.0) and bench.dirty  # weights being tried stay

            bench.set_weights(BoostWeights(chapter=2.0, per_scholar_cap=None, reference=1.4))
            bench.save_weights()
            assert not bench.dirty and session.prefs.settings.weights == bench.weights
            stored = SettingsStore().load()
            assert stored.chapter_boost == 2.0 and stored.per_scholar_cap is None and stored.reference_boost == 1.4
            shown = session.question.view
            assert shown is not None and shown.result.context is not None
            assert shown.result.context.weights == bench.weights  # the app ranks with the saved weights
            await session.aclose()

    run(main())


def test_judging_goes_into_the_open_golden_set_saved_atomically(small_db: Path) -> None:
    async def main() -> None:
        with ScriptedProxy(dims=8) as proxy:
            session, bench = await started(small_db, proxy.url)
            notices: list[str] = []
            bench.notice.connect(notices.append)
            view = session.question.view
            assert view is not None
            top = [r.chunk_id for r in view.result.results]
            assert not bench.judge(top[0], 3) and "golden set first" in notices[-1]

            assert await bench.new_golden("My set")
            path = golden_dir() / "My-set.json"
            assert bench.golden_path == path and json.loads(path.read_text())["queries"] == []
            assert bench.judge(top[2], 3) and bench.judge(top[0], 1) and bench.judge(top[5], 2)
            await bench.flush()
            data = json.loads(path.read_text())
            assert len(data["queries"]) == 1
            q = data["queries"][0]
            assert q["query"] == "grace" and q["chapter"] == "romans:9" and q["mode"] == view.result.mode.value
            assert q["judgments"] == {top[2]: 3, top[0]: 1, top[5]: 2}
            assert bench.grade(top[2]) == 3 and bench.grade(top[1]) is None
            judgments = {top[2]: 3, top[0]: 1, top[5]: 2}
            assert bench.question_scores() == {"ndcg@10": metrics.ndcg(top, judgments),
                                               "mrr@10": metrics.mrr(top, judgments)}
            assert bench.judge(top[0], None)
            await bench.flush()
            assert top[0] not in json.loads(path.read_text())["queries"][0]["judgments"]
            assert not list(path.parent.glob(".*.tmp"))

            assert bench.changes is None and not list(path.parent.glob(".*.tmp"))
            # Another workbench (the next run of the app) reads the same judgments.
            again = Workbench(session)
            assert await again.open_golden(path) and again.grade(top[5]) == 2
            await session.aclose()

    run(main())


def test_a_bad_golden_file_is_reported_and_missing_chunk_ids_are_named(small_db: Path, tmp_path: Path) -> None:
    async def main() -> None:
        with ScriptedProxy(dims=8) as proxy:
            session, bench = await started(small_db, proxy.url)
            notices: list[str] = []
            bench.notice.connect(notices.append)
            bad = tmp_path / "bad.json"
            bad.write_text('{"name": "x", "queries": [{"id": "q1", "query": "grace", "judgments": {"a": 7}}]}')
            assert not await bench.open_golden(bad) and "bad.json is not a golden set" in notices[-1]
            assert "0 to 3" in notices[-1] and bench.golden is None
            assert not await bench.open_golden(tmp_path / "absent.json") and "could not be read" in notices[-1]

            view = session.question.view
            assert view is not None
            real = view.result.results[0].chunk_id
            good = tmp_path / "mixed.json"
            golden_io.save(GoldenSet("mixed", (GoldenQuery("q1", "grace", {real: 2, "nope:1": 3, "gone#2": 1}),)), good)
            assert await bench.open_golden(good)
            await bench_until(bench, lambda: bench.missing != ())
            assert bench.missing == ("gone#2", "nope:1")
            await session.aclose()

    run(main())


def test_evaluate_the_set_with_progress_then_snapshots_compare(small_db: Path) -> None:
    async def main() -> None:
        with ScriptedProxy(dims=8) as proxy:
            session, bench = await started(small_db, proxy.url)
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
            assert await bench.open_golden(path)
            assert bench.save_snapshot("too early") is None  # needs an evaluation first
            steps: list[Progress] = []
            bench.progress.connect(steps.append)
            task = bench.evaluate_set()
            assert task is not None and bench.evaluating
            await task
            assert not bench.evaluating and steps == [Progress(1, 3), Progress(2, 3), Progress(3, 3)]
            report = bench.report
            assert report is not None and [q.id for q in report.queries] == ["q1", "q2", "q3"]
            for q, g in zip(report.queries, golden.queries, strict=True):
                assert q.scores["ndcg@10"] == metrics.ndcg(q.ranked, g.judgments)
            first = await bench.save_snapshot("before / tuning")
            assert first == snapshot_dir() / "before-tuning.json" and first.exists() and bench.snapshot_files == [first]

            bench.set_weights(BoostWeights(chapter=1.0, scholar=1.0, tradition=1.0, per_scholar_cap=None))
            task = bench.evaluate_set()
            assert task is not None
            await task
            second = await bench.save_snapshot("after")
            assert second is not None and bench.snapshot_files[0] == second
            changes = await bench.compare_snapshots(first, second)
            assert changes is not None and {c.id for c in changes} == {"q1", "q2", "q3"}
            after = {q.id: q.scores["ndcg@10"] for q in bench.report.queries} if bench.report else {}
            for c in changes:
                assert c.b == after[c.id] and c.delta == (c.b or 0) - (c.a or 0)
            deltas = [abs(c.delta or 0) for c in changes]
            assert deltas == sorted(deltas, reverse=True)

            # Cancel: the run stops, nothing half-done is kept as the report.
            kept = bench.report
            task = bench.evaluate_set()
            bench.cancel_evaluation()
            assert not bench.evaluating and task is not None
            await asyncio.wait([task])
            assert task.cancelled() and bench.report is kept
            await session.aclose()

    run(main())


def test_ab_answers_the_question_twice_and_measures_the_agreement(small_db: Path) -> None:
    async def main() -> None:
        with ScriptedProxy(dims=8) as proxy:
            session, bench = await started(small_db, proxy.url)
            a = bench.side(SearchMode.SEMANTIC, session.prefs.settings.weights)
            b = bench.side(SearchMode.SEMANTIC, BIG_CHAPTER, chapter=True)
            assert b.chapter == ChapterRef("romans", 9)
            task = bench.compare(a, b)
            assert task is not None and bench.ab_running
            await task
            ab = bench.ab
            assert ab is not None and not bench.ab_running
            ids_a = [r.chunk_id for r in ab.a.results]
            ids_b = [r.chunk_id for r in ab.b.results]
            assert ids_a != ids_b and ab.b.context is not None and ab.b.context.weights == BIG_CHAPTER
            assert ab.overlap == metrics.overlap(ids_a, ids_b) and ab.rbo == metrics.rbo(ids_a, ids_b)
            assert 0 < ab.rbo < 1 and ab.ranks_b[ids_b[0]] == 1
            session.set_chapter(ChapterRef("john", 3))
            assert bench.ab is ab  # a re-rank of the same question keeps the comparison
            task = session.ask("faith")
            assert task is not None
            await task
            assert bench.ab is None  # a new question: the comparison answered another one
            await session.aclose()

    run(main())


async def bench_until(bench: Workbench, condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait for ``condition`` on the workbench's own change events."""
    reached = asyncio.get_running_loop().create_future()

    def check(_value: None) -> None:
        if not reached.done() and condition():
            reached.set_result(None)

    disconnect = bench.changed.connect(check)
    try:
        if not condition():
            await asyncio.wait_for(reached, timeout)
    finally:
        disconnect()


def tmp_path_of(session: Session) -> Path:
    return session.prefs.store.path.parent


def test_a_grade_that_cannot_be_saved_is_kept_and_saved_with_the_next(small_db: Path, tmp_path: Path) -> None:
    async def main() -> None:
        with ScriptedProxy(dims=8) as proxy:
            session, bench = await started(small_db, proxy.url)
            notices: list[str] = []
            bench.notice.connect(notices.append)
            folder = tmp_path / "sets"
            path = folder / "set.json"
            golden_io.save(GoldenSet("set", ()), path)
            assert await bench.open_golden(path)
            view = session.question.view
            assert view is not None
            top = [r.chunk_id for r in view.result.results]
            path.unlink()
            folder.rmdir()
            folder.write_text("the folder is gone; a file has its name")  # every save now fails
            assert bench.judge(top[0], 3)
            await bench.flush()
            assert "set.json could not be saved" in notices[-1] and bench.grade(top[0]) == 3
            folder.unlink()
            assert bench.judge(top[1], 1)
            await bench.flush()
            saved = golden_io.load(path)
            assert saved.queries[0].judgments == {top[0]: 3, top[1]: 1}  # nothing was lost
            await session.aclose()

    run(main())

"""The golden set (``session/workbench/golden.py``): judging into it, saved atomically and in order;
a bad file reported; judged chunks the database lacks named. Every expected number is recomputed
from the engine's own output with the metric functions, never typed in."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amicus_desktop.evaluate import golden as golden_io
from amicus_desktop.evaluate import metrics
from amicus_desktop.evaluate.golden import GoldenQuery, GoldenSet
from amicus_desktop.paths import golden_dir
from amicus_desktop.session.workbench import Workbench
from tests.support.scripted_proxy import ScriptedProxy
from tests.support.sessions import OpenSession

from .support import bench_until, started

pytestmark = pytest.mark.anyio  # async tests on asyncio; see tests/session/conftest.py


async def test_judging_goes_into_the_open_golden_set_saved_atomically(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    session, bench = await started(open_session, small_db, proxy.url)
    notices: list[str] = []
    bench.notice.connect(notices.append)
    view = session.question.view
    assert view is not None
    top = [r.chunk_id for r in view.result.results]
    assert not bench.golden_job.judge(top[0], 3) and "golden set first" in notices[-1]

    assert await bench.golden_job.new_golden("My set")
    path = golden_dir() / "My-set.json"
    assert bench.golden_job.golden_path == path and json.loads(path.read_text())["queries"] == []
    assert bench.golden_job.judge(top[2], 3) and bench.golden_job.judge(top[0], 1) and bench.golden_job.judge(top[5], 2)
    await bench.golden_job.flush()
    data = json.loads(path.read_text())
    assert len(data["queries"]) == 1
    q = data["queries"][0]
    assert q["query"] == "grace" and q["chapter"] == "romans:9" and q["mode"] == view.result.mode.value
    assert q["judgments"] == {top[2]: 3, top[0]: 1, top[5]: 2}
    assert bench.golden_job.grade(top[2]) == 3 and bench.golden_job.grade(top[1]) is None
    judgments = {top[2]: 3, top[0]: 1, top[5]: 2}
    assert bench.golden_job.question_scores() == {"ndcg@10": metrics.ndcg(top, judgments),
                                       "mrr@10": metrics.mrr(top, judgments)}
    assert bench.golden_job.judge(top[0], None)
    await bench.golden_job.flush()
    assert top[0] not in json.loads(path.read_text())["queries"][0]["judgments"]
    assert not list(path.parent.glob(".*.tmp"))

    assert bench.snapshot_job.changes is None and not list(path.parent.glob(".*.tmp"))
    # Another workbench (the next run of the app) reads the same judgments.
    again = Workbench(session)
    assert await again.golden_job.open_golden(path) and again.golden_job.grade(top[5]) == 2


async def test_a_bad_golden_file_is_reported_and_missing_chunk_ids_are_named(
    small_db: Path, tmp_path: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    session, bench = await started(open_session, small_db, proxy.url)
    notices: list[str] = []
    bench.notice.connect(notices.append)
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "x", "queries": [{"id": "q1", "query": "grace", "judgments": {"a": 7}}]}')
    assert not await bench.golden_job.open_golden(bad) and "bad.json is not a golden set" in notices[-1]
    assert "0 to 3" in notices[-1] and bench.golden_job.golden is None
    assert not await bench.golden_job.open_golden(tmp_path / "absent.json") and "could not be read" in notices[-1]

    view = session.question.view
    assert view is not None
    real = view.result.results[0].chunk_id
    good = tmp_path / "mixed.json"
    golden_io.save(GoldenSet("mixed", (GoldenQuery("q1", "grace", {real: 2, "nope:1": 3, "gone#2": 1}),)), good)
    assert await bench.golden_job.open_golden(good)
    await bench_until(bench, lambda: bench.golden_job.missing != ())
    assert bench.golden_job.missing == ("gone#2", "nope:1")


async def test_a_grade_that_cannot_be_saved_is_kept_and_saved_with_the_next(
    small_db: Path, tmp_path: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    session, bench = await started(open_session, small_db, proxy.url)
    notices: list[str] = []
    bench.notice.connect(notices.append)
    folder = tmp_path / "sets"
    path = folder / "set.json"
    golden_io.save(GoldenSet("set", ()), path)
    assert await bench.golden_job.open_golden(path)
    view = session.question.view
    assert view is not None
    top = [r.chunk_id for r in view.result.results]
    path.unlink()
    folder.rmdir()
    folder.write_text("the folder is gone; a file has its name")  # every save now fails
    assert bench.golden_job.judge(top[0], 3)
    await bench.golden_job.flush()
    assert "set.json could not be saved" in notices[-1] and bench.golden_job.grade(top[0]) == 3
    folder.unlink()
    assert bench.golden_job.judge(top[1], 1)
    await bench.golden_job.flush()
    saved = golden_io.load(path)
    assert saved.queries[0].judgments == {top[0]: 3, top[1]: 1}  # nothing was lost


async def test_a_shipped_golden_set_is_graded_in_a_copy_and_never_written(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    """Opening ``resources/golden/demo.json`` opens the curator's copy in the data folder (said once, and in the
    set's label); grading writes the copy, and the shipped file keeps every byte. Opened again, the copy (with
    its grades) is what opens."""
    import hashlib

    from amicus_desktop.resources import resource_path

    shipped = resource_path("golden", "demo.json")
    before = hashlib.sha256(shipped.read_bytes()).hexdigest()
    session, bench = await started(open_session, small_db, proxy.url)
    notices: list[str] = []
    bench.notice.connect(notices.append)
    assert await bench.golden_job.open_golden(shipped)
    copy = golden_dir() / "demo.json"
    assert bench.golden_job.golden_path == copy and bench.golden_job.copied_from == shipped
    assert "never changed" in notices[-1] and str(copy) in notices[-1]
    view = session.question.view
    assert view is not None
    top = view.result.results[0].chunk_id
    assert bench.golden_job.judge(top, 3)
    await bench.golden_job.flush()
    assert hashlib.sha256(shipped.read_bytes()).hexdigest() == before
    assert any(q["judgments"].get(top) == 3 for q in json.loads(copy.read_text())["queries"])

    again = Workbench(session)
    assert await again.golden_job.open_golden(shipped)
    assert again.golden_job.golden_path == copy and again.golden_job.grade(top) == 3
    # a set of the curator's own is no copy
    assert await again.golden_job.new_golden("Mine") and again.golden_job.copied_from is None

"""The Snapshots tab in the real window (offscreen): snapshots saved with their configuration and library, any
number lined up against a chosen baseline (per kind, with intervals; the rank of each judged result in each,
by title), and a snapshot replayed on today's library with what moved said per question."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from amicus_desktop.evaluate import golden as golden_io
from amicus_desktop.evaluate.golden import GoldenQuery, GoldenSet
from amicus_desktop.evaluate.snapshots import load
from amicus_desktop.paths import golden_dir
from amicus_desktop.session.workbench.snapshots import LAST_RUN
from tests.support.scripted_proxy import ScriptedProxy

from .conftest import wait_for


def test_snapshots_line_up_against_a_baseline_and_replay(harness: Any, qtbot: Any, qtmodeltester: Any,
                                                         small_db: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="romans:9")
        session, bench, dock = window.session, window.workbench, window.workbench_dock
        panel = dock.panel
        wait_for(qtbot, lambda: session.can_ask)
        window.ask_control.ask("grace")
        wait_for(qtbot, lambda: session.question.view is not None and not session.question.busy)
        top = [r.chunk_id for r in session.question.view.result.results]
        golden = GoldenSet("lineup", (
            GoldenQuery("q1", "grace", {top[3]: 3, top[0]: 1}, extra={"kind": "word"}),
            GoldenQuery("q2", "faith", {top[1]: 2}, extra={"kind": "word"}),
            GoldenQuery("q3", "love", {top[2]: 3}, chapter="romans:9"),
            GoldenQuery("q4", "hope", {top[4]: 2}, chapter="romans:9")))
        golden_io.save(golden, golden_dir() / "lineup.json")
        dock.toggle()
        dock.open_golden_set(str(golden_dir() / "lineup.json"))
        wait_for(qtbot, lambda: bench.golden_job.golden is not None and bench.golden_job.golden.name == "lineup")
        tab = panel.snapshot_tab
        panel.tabs.setCurrentIndex(panel.SNAPSHOT_TAB)

        for name, chapter in (("first", 1.5), ("second", 4.0)):
            panel.whatif_tab.chapter_spin.setValue(chapter)
            panel.eval_tab.eval_button.click()
            wait_for(qtbot, lambda: bench.eval_job.report is not None and not bench.eval_job.evaluating, 30)
            tab.snapshot_name.setText(name)
            tab.snapshot_save.click()
            wait_for(qtbot, lambda n=name: any(p.stem == n for p in bench.snapshot_job.snapshot_files))
        first = load(next(p for p in bench.snapshot_job.snapshot_files if p.stem == "first"))
        assert first.settings["knobs"]["chapter_boost"] == 1.5 and first.library["chunks"] == 112
        assert first.library["id"] and first.metrics["questions"].keys() == {"q1", "q2", "q3", "q4"}

        # check the last evaluation and both snapshots; the baseline offers exactly the checked ones
        wait_for(qtbot, lambda: tab.pick_list.count() == 3)
        labels = [tab.pick_list.item(i).text() for i in range(3)]
        assert labels[0].startswith(LAST_RUN) and set(labels[1:]) == {"first", "second"}
        assert not tab.lineup_button.isEnabled()
        for i in range(3):
            tab.pick_list.item(i).setCheckState(Qt.CheckState.Checked)
        baselines = [tab.baseline_box.itemText(i) for i in range(tab.baseline_box.count())]
        assert baselines[0] == LAST_RUN and set(baselines[1:]) == {"first", "second"}
        tab.baseline_box.setCurrentIndex(baselines.index("first"))
        tab.lineup_button.click()
        wait_for(qtbot, lambda: bench.snapshot_job.lineup is not None and tab.kinds_model.rowCount() > 0)
        found = bench.snapshot_job.lineup
        assert found.rankings[found.baseline].name == "first"
        assert tab.results.currentIndex() == tab.KINDS_PAGE
        qtmodeltester.check(tab.kinds_model)
        qtmodeltester.check(tab.ranks_model)
        kinds = tab.kinds_model
        assert kinds.rowCount() == 3 * 3  # every question, chapter, word × three rankings
        rows = [[kinds.data(kinds.index(r, c)) for c in range(kinds.columnCount())] for r in range(kinds.rowCount())]
        assert rows[0][0] == "every question" and any(r[1] == "first (baseline)" for r in rows[:3])
        assert all("[" in r[3] for r in rows[:3] if "baseline" not in r[1])  # an interval beside each difference
        ranks = tab.ranks_model
        assert [ranks.headerData(c, Qt.Orientation.Horizontal) for c in range(3, ranks.columnCount())] == \
            [r.name for r in found.rankings]
        last, second = ([r.name for r in found.rankings].index(n) + 3 for n in (LAST_RUN, "second"))
        assert all(ranks.data(ranks.index(r, last)) == ranks.data(ranks.index(r, second))
                   for r in range(ranks.rowCount()))  # the last evaluation is the second snapshot
        assert all(ranks.data(ranks.index(r, c)) == "–" or ranks.data(ranks.index(r, c)).startswith("#")
                   for r in range(ranks.rowCount()) for c in range(3, ranks.columnCount()))
        # results by their titles, not their ids, once the library has named them
        wait_for(qtbot, lambda: all(ranks.data(ranks.index(r, ranks.CHUNK)) != ranks.key(r)
                                    for r in range(ranks.rowCount())))
        assert "rankings against first" in tab.snap_status.text()

        # replay the first snapshot today: the same library and judgments, nothing moved, and that is said
        tab.snap_a.setCurrentIndex(tab.snap_a.findText("first"))
        tab.replay_button.click()
        wait_for(qtbot, lambda: bench.snapshot_job.replayed is not None and not bench.snapshot_job.replaying, 30)
        assert tab.results.currentIndex() == tab.REPLAY_PAGE
        qtmodeltester.check(tab.replay_model)
        replay = tab.replay_model
        assert replay.rowCount() == 4
        assert all(replay.data(replay.index(r, replay.DELTA)) == "same" for r in range(4))
        assert "first asked again today: 0 better, 0 worse, 4 same" in tab.snap_status.text()
        assert "as they were" in tab.snap_status.text()
        assert {replay.data(replay.index(r, replay.QUESTION)) for r in range(4)} == {"grace", "faith", "love", "hope"}

        # a grade given since the snapshot: the replay says the judgments changed
        q3 = bench.golden_job.golden.query("q3")
        bench.golden_job.judge_item("q3", next(c for c in first.ranked("q3") or () if c not in q3.judgments), 3)
        tab.replay_button.click()
        wait_for(qtbot, lambda: "the judgments changed" in tab.snap_status.text(), 30)

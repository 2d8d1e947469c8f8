"""The curator workbench in the window: models (qtmodeltester), keys, A/B linking, the chart, snapshots.

The fast test runs on a random-vector DB and the scripted proxy over real HTTP; the keyboard-only
flow of issue 12 runs on the study DB (real vectors) and the real local proxy.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from amicus_desktop.core.query import SearchMode
from amicus_desktop.evaluate import golden as golden_io
from amicus_desktop.evaluate import metrics
from amicus_desktop.evaluate.golden import GoldenQuery, GoldenSet
from amicus_desktop.paths import golden_dir
from amicus_desktop.resources import resource_path
from tests.support.scripted_proxy import ScriptedProxy

from .conftest import OFFSCREEN_NOISE, run, wait_for

ALT = Qt.KeyboardModifier.AltModifier
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def ask_by_keyboard(window: Any, qtbot: Any, text: str) -> None:
    qtbot.keyClick(window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    edit = window.ask.edit
    edit.selectAll()
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    wait_for(qtbot, lambda: window.session.question.view is not None and not window.session.question.busy, 30)


def ranking_ids(panel: Any) -> list[str]:
    m = panel.whatif_tab.ranking_model
    return [m.key(r) for r in range(m.rowCount())]


def test_workbench_models_keys_ab_and_snapshots(harness: Any, qtbot: Any, qtmodeltester: Any, small_db: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="romans:9")
        session = window.session
        wait_for(qtbot, lambda: session.can_ask)
        ask_by_keyboard(window, qtbot, "grace")
        panel, bench = window.workbench_dock.panel, window.workbench

        qtbot.keyClick(window, Qt.Key.Key_W, CTRL_SHIFT)
        assert window.workbench_dock.isVisible() and panel.whatif_tab.ranking.hasFocus()
        qtmodeltester.check(panel.whatif_tab.ranking_model)
        saved_order = ranking_ids(panel)
        ranking_model = panel.whatif_tab.ranking_model
        assert len(saved_order) == 10 and ranking_model.data(ranking_model.index(0, 1)) == "="

        # Grading needs a golden set; then 0–3 grade the row under the cursor and move down.
        qtbot.keyClick(panel.whatif_tab.ranking, Qt.Key.Key_3)
        assert "golden set first" in panel.notice_label.text()
        window.workbench_dock.new_golden_set("ui set")
        wait_for(qtbot, lambda: bench.golden_job.golden is not None)
        panel.focus_ranking()
        qtbot.keyClick(panel.whatif_tab.ranking, Qt.Key.Key_3)
        qtbot.keyClick(panel.whatif_tab.ranking, Qt.Key.Key_1)
        assert panel.whatif_tab.ranking.currentIndex().row() == 2
        path = golden_dir() / "ui-set.json"
        run(qtbot, bench.golden_job.flush())
        judged = json.loads(path.read_text())["queries"][0]["judgments"]
        assert judged == {saved_order[0]: 3, saved_order[1]: 1}
        assert panel.whatif_tab.ranking_model.data(panel.whatif_tab.ranking_model.index(0, 2)) == "3"
        expected = metrics.ndcg(saved_order, judged)
        assert f"nDCG@10 {expected:.3f}" in panel.whatif_tab.scores_label.text()

        # The app's own breakdown says which weights are in force.
        wait_for(qtbot, lambda: "Weights in force: chapter ×1.5, scholar ×1.1, tradition ×1.05, reference ×1.25, "
                                "past 3 per source each ×0.85" in window.results.breakdown.words.text())

        # What-if: the chapter boost by keyboard; the ranking moves and says so.
        qtbot.keyClick(panel, Qt.Key.Key_R, ALT)
        assert panel.whatif_tab.chapter_spin.hasFocus()
        for _ in range(3):
            qtbot.keyClick(panel.whatif_tab.chapter_spin, Qt.Key.Key_PageUp)
        assert bench.whatif_job.weights.chapter == pytest.approx(3.0)
        moved = ranking_ids(panel)
        assert moved != saved_order and "ranks differ" in panel.whatif_tab.whatif_status.text()
        moves = [panel.whatif_tab.ranking_model.data(panel.whatif_tab.ranking_model.index(r, 1)) for r in range(10)]
        assert any(m.startswith(("▲", "▼", "new")) for m in moves)
        qtmodeltester.check(panel.whatif_tab.ranking_model)
        panel.whatif_tab.cap_spin.setValue(0)
        assert bench.whatif_job.weights.per_scholar_cap is None and panel.whatif_tab.cap_spin.text() == "no cap"
        panel.whatif_tab.reset_weights.click()
        assert ranking_ids(panel) == saved_order and not panel.whatif_tab.save_weights.isEnabled()

        # A/B: semantic with the saved weights against semantic with no boosts.
        qtbot.keyClick(panel, Qt.Key.Key_B, ALT)
        panel.ab_tab.a_mode.setCurrentIndex(panel.ab_tab.a_mode.findData(SearchMode.SEMANTIC.value))
        panel.ab_tab.b_weights.setCurrentIndex(2)
        qtbot.keyClick(panel, Qt.Key.Key_M, ALT)
        wait_for(qtbot, lambda: bench.ab_job.ab is not None and not bench.ab_job.ab_running)
        qtmodeltester.check(panel.ab_tab.a_model)
        qtmodeltester.check(panel.ab_tab.b_model)
        ab = bench.ab_job.ab
        assert f"overlap@10 (Jaccard) {ab.overlap:.2f}" in panel.ab_tab.ab_status.text()
        shared = next(cid for cid in ab.ranks_a if cid in ab.ranks_b and ab.ranks_a[cid] != ab.ranks_b[cid])
        panel.ab_tab.a_view.setCurrentIndex(panel.ab_tab.a_model.index(panel.ab_tab.a_model.row_of(shared), 0))
        # linked across the lists
        assert panel.ab_tab.b_view.currentIndex().row() == panel.ab_tab.b_model.row_of(shared)
        text = panel.ab_tab.a_model.data(panel.ab_tab.a_model.index(panel.ab_tab.a_model.row_of(shared), 1))
        assert text.startswith(f"#{ab.ranks_b[shared]} in B")

        # Evaluate, the chart, snapshots and their comparison.
        golden = GoldenSet("eval", (GoldenQuery("q1", "grace", {saved_order[3]: 3}, chapter="romans:9"),
                                    GoldenQuery("q2", "faith", {saved_order[0]: 2})))
        golden_io.save(golden, golden_dir() / "eval.json")
        window.workbench_dock.open_golden_set(str(golden_dir() / "eval.json"))
        wait_for(qtbot, lambda: bench.golden_job.golden is not None and bench.golden_job.golden.name == "eval")
        qtbot.keyClick(panel, Qt.Key.Key_L, ALT)
        qtbot.keyClick(panel, Qt.Key.Key_U, ALT)
        wait_for(qtbot, lambda: bench.eval_job.report is not None and not bench.eval_job.evaluating)
        assert panel.eval_tab.progress.value() == 2 and panel.eval_tab.progress.maximum() == 2
        assert [qid for qid, _v in panel.eval_tab.chart.bars] == ["q1", "q2"]
        assert panel.eval_tab.chart.bars[0][1] == bench.eval_job.report.queries[0].scores["ndcg@10"]
        assert not panel.eval_tab.chart.grab().isNull()  # the picture paints
        panel.snapshot_tab.snapshot_name.setText("first")
        qtbot.keyClick(panel.snapshot_tab.snapshot_name, Qt.Key.Key_Return)
        wait_for(qtbot, lambda: len(bench.snapshot_job.snapshot_files) == 1)
        panel.whatif_tab.chapter_spin.setValue(4.0)
        panel.eval_tab.eval_button.click()
        wait_for(qtbot, lambda: not bench.eval_job.evaluating)
        panel.snapshot_tab.snapshot_name.setText("second")
        panel.snapshot_tab.snapshot_save.click()
        wait_for(qtbot, lambda: len(bench.snapshot_job.snapshot_files) == 2)
        snaps = panel.snapshot_tab
        assert snaps.snap_a.currentText() == "first" and snaps.snap_b.currentText() == "second"
        qtbot.keyClick(panel, Qt.Key.Key_S, ALT)
        panel.snapshot_tab.snapshot_name.setFocus()
        for _ in range(4):  # name → Save → A → B → Compare
            qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        assert panel.snapshot_tab.snap_compare.hasFocus()
        qtbot.keyClick(panel.snapshot_tab.snap_compare, Qt.Key.Key_Space)
        wait_for(qtbot, lambda: panel.snapshot_tab.changes_model.rowCount() == 2)
        qtmodeltester.check(panel.snapshot_tab.changes_model)
        assert "questions better" in panel.snapshot_tab.snap_status.text()


@pytest.mark.slow
@pytest.mark.qt_log_ignore(OFFSCREEN_NOISE, r"^This plugin does not support (grabbing the keyboard|raise\(\))")
def test_curator_by_keyboard_alone(harness: Any, qtbot: Any, study_db: Path, local_proxy: Any,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Open the shipped golden set, judge a result, change the chapter boost and watch the ranking move,
    compare hybrid against semantic, evaluate the set: every step by key presses."""
    shipped = resource_path("golden", "demo.json")
    shipped_sha = hashlib.sha256(shipped.read_bytes()).hexdigest()
    own = golden_dir() / "demo.json"  # the copy the workbench makes: judging writes to it, never to the package
    golden = golden_io.load(shipped)
    question = golden.queries[0]

    window = harness.open(db=study_db, proxy=local_proxy.url, chapter=question.chapter)
    session, panel, bench = window.session, window.workbench_dock.panel, window.workbench
    wait_for(qtbot, lambda: session.can_ask, 30)

    # File ▸ Open golden set… (the file dialog answers with the shipped set: the workbench opens a copy of it).
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(shipped), ""))
    qtbot.keyClick(window, Qt.Key.Key_F, ALT)
    menu = window.menuBar().actions()[0].menu()
    wait_for(qtbot, menu.isVisible)
    qtbot.keyClick(menu, Qt.Key.Key_G)  # Open &golden set…
    wait_for(qtbot, lambda: bench.golden_job.golden is not None)
    assert window.workbench_dock.isVisible() and bench.golden_job.golden.name == golden.name
    assert bench.golden_job.golden_path == own
    assert "your copy of the shipped set" in panel.golden_label.text()
    wait_for(qtbot, lambda: not menu.isVisible())
    window.activateWindow()  # offscreen, the closed menu stays the active window until told
    wait_for(qtbot, lambda: QApplication.activeWindow() is window)
    wait_for(qtbot, lambda: bench.golden_job.missing != ())  # the shipped ids this small DB lacks, one by one
    assert all(cid in panel.eval_tab.missing_label.text() for cid in bench.golden_job.missing[:5])

    ask_by_keyboard(window, qtbot, question.query)
    qtbot.keyClick(window, Qt.Key.Key_W, CTRL_SHIFT)
    qtbot.keyClick(window, Qt.Key.Key_W, CTRL_SHIFT)  # hide and show again: the focus lands on the ranking
    wait_for(qtbot, panel.whatif_tab.ranking.hasFocus)
    before = ranking_ids(panel)
    qtbot.keyClick(panel.whatif_tab.ranking, Qt.Key.Key_Down)
    qtbot.keyClick(panel.whatif_tab.ranking, Qt.Key.Key_2)
    run(qtbot, bench.golden_job.flush())
    assert golden_io.load(own).query(question.id).judgments[before[1]] == 2
    assert hashlib.sha256(shipped.read_bytes()).hexdigest() == shipped_sha
    assert "This question: nDCG@10" in panel.whatif_tab.scores_label.text()

    qtbot.keyClick(panel, Qt.Key.Key_R, ALT)
    for _ in range(2):
        qtbot.keyClick(panel.whatif_tab.chapter_spin, Qt.Key.Key_PageDown)  # 1.5 → 0.5: chapter chunks sink
    assert bench.whatif_job.weights.chapter == pytest.approx(0.5)
    wait_for(qtbot, lambda: ranking_ids(panel) != before)
    assert "ranks differ" in panel.whatif_tab.whatif_status.text()

    qtbot.keyClick(panel, Qt.Key.Key_B, ALT)
    assert (panel.ab_tab.a_mode.currentText(), panel.ab_tab.b_mode.currentText()) == ("hybrid", "semantic")
    qtbot.keyClick(panel, Qt.Key.Key_M, ALT)
    wait_for(qtbot, lambda: bench.ab_job.ab is not None and not bench.ab_job.ab_running, 30)
    assert bench.ab_job.ab.a.mode is SearchMode.HYBRID and bench.ab_job.ab.b.mode is SearchMode.SEMANTIC
    assert "rank-biased overlap" in panel.ab_tab.ab_status.text()

    qtbot.keyClick(panel, Qt.Key.Key_L, ALT)
    qtbot.keyClick(panel, Qt.Key.Key_U, ALT)
    wait_for(qtbot, lambda: bench.eval_job.report is not None and not bench.eval_job.evaluating, 180)
    assert len(panel.eval_tab.chart.bars) == len(golden.queries)
    assert "mean nDCG@10" in panel.eval_tab.eval_status.text()


def test_the_settings_dialog_edits_the_reference_boost_and_no_cap(qtbot: Any, amicus_home: Path) -> None:
    from amicus_desktop.settings import Settings
    from amicus_desktop.ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(Settings(per_scholar_cap=None, reference_boost=1.4))
    qtbot.addWidget(dialog)
    assert dialog.cap_spin.text() == "no cap" and dialog.reference_spin.value() == pytest.approx(1.4)
    edited = dialog.edited()
    assert edited.per_scholar_cap is None and edited.reference_boost == pytest.approx(1.4)
    dialog.cap_spin.setValue(3)
    dialog.reference_spin.setValue(1.1)
    edited = dialog.edited()
    assert edited.per_scholar_cap == 3 and edited.weights.reference == pytest.approx(1.1)

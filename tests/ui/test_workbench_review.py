"""The curator workbench's second round in a real window (offscreen): every row readable in the preview,
titles elided with tooltips, the new tabs (gaps, judges, weight search, history) and their models
(qtmodeltester), the chart's bars, the golden set reopened after a restart, and the fixes of issue 26 —
the notice that goes, the New golden set dialog, the export folder, a 1000 px window with the workbench."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QInputDialog

from amicus_desktop.evaluate import golden as golden_io
from amicus_desktop.evaluate.golden import GoldenQuery, GoldenSet
from amicus_desktop.paths import golden_dir
from amicus_desktop.present import titles
from tests.support.scripted_proxy import ScriptedProxy

from .conftest import wait_for


def ask(window: Any, qtbot: Any, text: str) -> None:
    window.ask_control.ask(text)
    wait_for(qtbot, lambda: window.session.question.view is not None and not window.session.question.busy
             and window.session.question.view.result.query == text, 30)


def preview_text(panel: Any) -> str:
    return panel.preview.passage.view.toPlainText()


def two_judge_set(top: list[str]) -> GoldenSet:
    q1 = GoldenQuery("q1", "grace", {top[3]: 3, top[0]: 1}, chapter="romans:9")
    q1 = q1.judge(top[3], 3, by="ana", at="t1").judge(top[3], 1, by="ben", at="t2")
    q1 = q1.judge(top[0], 1, by="ana", at="t1").judge(top[0], 1, by="ben", at="t2").judge(top[0], 1)
    return GoldenSet("review", (q1, GoldenQuery("q2", "faith and works", {top[1]: 2}),
                                GoldenQuery("q3", "love", {top[2]: 1}), GoldenQuery("q4", "hope", {top[4]: 2}),
                                GoldenQuery("q5", "the law", {top[5]: 3}), GoldenQuery("q6", "election", {})))


def test_every_row_is_readable_and_the_review_tabs_work(harness: Any, qtbot: Any, qtmodeltester: Any,
                                                        small_db: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="romans:9")
        session, bench, dock = window.session, window.workbench, window.workbench_dock
        panel = dock.panel
        wait_for(qtbot, lambda: session.can_ask)
        ask(window, qtbot, "grace")
        top = [r.chunk_id for r in session.question.view.result.results]
        dock.toggle()

        # "Open or create a golden set first" goes once a set is open.
        qtbot.keyClick(panel.whatif_tab.ranking, Qt.Key.Key_3)
        assert panel.notice_label.isVisible() and "golden set first" in panel.notice_label.text()
        path = golden_dir() / "review.json"
        golden_io.save(two_judge_set(top), path)
        dock.open_golden_set(str(path))
        wait_for(qtbot, lambda: bench.golden_job.golden is not None)
        assert not panel.notice_label.isVisible()

        # What-if: the selected row's chunk in the preview; the title elides in the middle, its tooltip whole.
        ranking, model = panel.whatif_tab.ranking, panel.whatif_tab.ranking_model
        assert ranking.textElideMode() == Qt.TextElideMode.ElideMiddle
        ranking.setCurrentIndex(model.index(2, 0))
        chunk = model.chunk(2)
        wait_for(qtbot, lambda: titles.title(chunk.candidate) in preview_text(panel))
        assert chunk.candidate.text.split()[0] in preview_text(panel)
        assert model.data(model.index(2, model.TITLE), Qt.ItemDataRole.ToolTipRole).startswith(
            titles.title(chunk.candidate))

        # A/B: a side's row is readable too, and the line says how much of each side is judged.
        panel.tabs.setCurrentIndex(panel.AB_TAB)
        panel.ab_tab.compare()
        wait_for(qtbot, lambda: bench.ab_job.ab is not None and not bench.ab_job.ab_running)
        assert "Judged: A " in panel.ab_tab.ab_status.text()
        side = panel.ab_tab.b_model
        assert side.data(side.index(0, side.TITLE), Qt.ItemDataRole.ToolTipRole).endswith(side.key(0))
        panel.ab_tab.b_view.setCurrentIndex(side.index(1, 0))
        wait_for(qtbot, lambda: titles.title(side.chunk(1).candidate) in preview_text(panel))

        # Evaluate: pool recall beside nDCG, the judged share, the bars' tooltips, a click reads the question.
        panel.tabs.setCurrentIndex(panel.EVAL_TAB)
        panel.eval_tab.eval_button.click()
        wait_for(qtbot, lambda: bench.eval_job.report is not None and not bench.eval_job.evaluating)
        text = panel.eval_tab.eval_status.text()
        assert "recall@40 of the candidate pool" in text and "the search's misses" in text
        assert "of the top 10 judged" in panel.eval_tab.judged_label.text()
        chart = panel.eval_tab.chart
        assert chart.tip_at(QPoint(10, chart.row_top(1) + 5)).startswith("q2: faith and works")
        qtbot.mouseClick(chart, Qt.MouseButton.LeftButton, pos=QPoint(20, chart.row_top(1) + 5))
        assert chart.current == 1 and preview_text(panel).startswith("q2: faith and works")
        qtbot.keyClick(chart, Qt.Key.Key_Down)
        assert chart.current == 2

        # Gaps: the queue of unjudged chunks; a row is read in the preview and graded with 0–3.
        panel.eval_tab.gaps_button.click()
        assert panel.tabs.currentIndex() == panel.GAPS_TAB
        gaps = panel.gaps_tab.model
        qtmodeltester.check(gaps)
        assert gaps.rowCount() == bench.eval_job.report.unjudged > 0
        first = gaps.gap(0)
        # words, not ids: the question's text, and the chunk's title once the database has named it
        assert gaps.data(gaps.index(0, gaps.QUESTION)) == first.query and first.query != first.query_id
        named = {r.chunk_id: titles.title(r.candidate) for r in session.question.view.result.results}
        wait_for(qtbot, lambda: gaps.data(gaps.index(0, gaps.CHUNK)) != first.chunk_id)
        if first.chunk_id in named:
            assert gaps.data(gaps.index(0, gaps.CHUNK)) == named[first.chunk_id]
        assert first.chunk_id in gaps.data(gaps.index(0, gaps.CHUNK), Qt.ItemDataRole.ToolTipRole)
        panel.gaps_tab.view.setCurrentIndex(gaps.index(0, 0))
        wait_for(qtbot, lambda: first.chunk_id in preview_text(panel))
        qtbot.keyClick(panel.gaps_tab.view, Qt.Key.Key_2)
        assert bench.golden_job.golden.query(first.query_id).judgments[first.chunk_id] == 2
        assert gaps.data(gaps.index(0, gaps.GRADE)) == "2" and panel.gaps_tab.view.currentIndex().row() == 1

        # Judges: α, κ and the confusion matrix; the most disagreed item first, read in the preview.
        panel.tabs.setCurrentIndex(panel.JUDGES_TAB)
        judges = panel.judges_tab
        qtmodeltester.check(judges.model)
        assert "Krippendorff's α (ordinal)" in judges.summary.text() and "Cohen's κ" in judges.summary.text()
        assert judges.model.item(0).chunk_id == top[3] and judges.model.data(judges.model.index(0, 0)) == "2"
        assert judges.model.data(judges.model.index(0, judges.model.QUESTION)) == "grace"
        wait_for(qtbot, lambda: judges.model.data(judges.model.index(0, judges.model.CHUNK)) == named[top[3]])
        judges.view.setCurrentIndex(judges.model.index(0, 0))
        wait_for(qtbot, lambda: top[3] in preview_text(panel))

        # History: the run just made, drawn and listed; a run reads in the preview.
        panel.tabs.setCurrentIndex(panel.HISTORY_TAB)
        wait_for(qtbot, lambda: panel.history_tab.model.rowCount() == 1)
        qtmodeltester.check(panel.history_tab.model)
        panel.history_tab.view.setCurrentIndex(panel.history_tab.model.index(0, 0))
        assert "questions ·" in preview_text(panel) and not panel.history_tab.chart.grab().isNull()

        # Weight search: off the UI thread with progress, a report in its own words, Apply.
        panel.tabs.setCurrentIndex(panel.TUNE_TAB)
        panel.tune_tab.budget.setValue(10)
        panel.tune_tab.search_button.click()
        wait_for(qtbot, lambda: bench.tune.outcome is not None and not bench.tune.running, 60)
        report = panel.tune_tab.report.text()
        assert "held-out questions" in report and "95% interval" in report
        assert f"Only {bench.tune.outcome.held} held-out" in report
        assert panel.tune_tab.progress.value() > 0

        # A double-click on a bar asks that question with its chapter open.
        panel.tabs.setCurrentIndex(panel.EVAL_TAB)
        qtbot.mouseDClick(chart, Qt.MouseButton.LeftButton, pos=QPoint(20, chart.row_top(3) + 5))
        wait_for(qtbot, lambda: session.question.view is not None and session.question.view.result.query == "hope"
                 and not session.question.busy, 30)
        assert window.ask.edit.text() == "hope"


def test_the_golden_set_is_reopened_after_a_restart(harness: Any, qtbot: Any, small_db: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url)
        wait_for(qtbot, lambda: window.session.can_ask)
        window.workbench_dock.new_golden_set()
        dialog = window.workbench_dock.dialog
        assert isinstance(dialog, QInputDialog) and dialog.windowTitle() == "New golden set"
        assert dialog.minimumWidth() >= dialog.fontMetrics().horizontalAdvance(dialog.labelText())
        dialog.setTextValue("kept set")
        dialog.accept()
        wait_for(qtbot, lambda: window.workbench.golden_job.golden is not None)
        harness.close(window)

        again = harness.open(db=small_db, proxy=proxy.url)
        wait_for(qtbot, lambda: again.workbench.golden_job.golden is not None)
        assert again.workbench.golden_job.golden_path == golden_dir() / "kept-set.json"
        assert "kept set" in again.workbench_dock.panel.golden_label.text()


def test_a_1000_px_window_with_the_workbench_open(harness: Any, qtbot: Any, small_db: Path, tmp_path: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="romans:9")
        wait_for(qtbot, lambda: window.session.can_ask)
        ask(window, qtbot, "grace")
        window.resize(1480, 920)
        window.workbench_dock.toggle()
        wait_for(qtbot, lambda: window.left_split.isVisible())  # room for the reader at the default size
        # the window's minimum follows the reader's a layout pass later (under load, later than 100 ms)
        wait_for(qtbot, lambda: window.minimumWidth() <= 1000)
        window.resize(1000, 650)
        wait_for(qtbot, lambda: window.width() == 1000)  # it shrinks: the reader steps aside
        assert not window.left_split.isVisible()
        window.results.focus_results()
        chart = window.results.breakdown.chart
        wait_for(qtbot, chart.isVisible)
        assert chart.width() >= chart.minimumSizeHint().width()  # "Why this rank" keeps its numbers
        window.resize(1480, 920)
        wait_for(qtbot, window.left_split.isVisible)
        window.workbench_dock.toggle()
        assert window.left_split.isVisible()

        # The export dialog opens where the last export went.
        window.exporter.remember_folder(tmp_path)
        window.exporter.export_results()
        assert Path(window.exporter.dialog.directory().absolutePath()) == tmp_path
        window.exporter.dialog.reject()


def test_the_settings_dialog_shows_what_the_weight_search_applies(qtbot: Any, amicus_home: Path) -> None:
    from amicus_desktop.settings import Settings
    from amicus_desktop.ui.settings_dialog import SettingsDialog

    dialog = SettingsDialog(Settings(alpha=0.6, spread=None, focus_boost=None, judge_name="ana"))
    qtbot.addWidget(dialog)
    assert dialog.spread_spin.text() == "hard cap" and dialog.focus_spin.text() == "off"
    edited = dialog.edited()
    assert (edited.alpha, edited.spread, edited.focus_boost, edited.judge_name) == (0.6, None, None, "ana")
    dialog.spread_spin.setValue(0.9)
    dialog.focus_spin.setValue(1.3)
    dialog.judge_edit.clear()
    edited = dialog.edited()
    assert (edited.spread, edited.focus_boost, edited.judge_name) == (0.9, 1.3, None)
    assert edited.policy.spread == 0.9 and edited.policy.focus == 1.3

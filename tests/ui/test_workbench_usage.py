"""Judgments from use in the real window (offscreen): nothing recorded while consent is off (the default); with
it on, what the reader opens, copies and pins is kept in this workspace's file only — another workspace records
nothing and reads nothing of it — never in a log; the From use tab suggests grades and a curator confirms one
into the golden set with its evidence."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from amicus_desktop import paths
from amicus_desktop.evaluate import golden as golden_io
from amicus_desktop.session.workbench.usage import usage_dir
from tests.support.scripted_proxy import ScriptedProxy

from .conftest import run, wait_for

QUESTION = "what does the potter's clay teach"


def ask(window: Any, qtbot: Any, text: str) -> None:
    window.ask_control.ask(text)
    wait_for(qtbot, lambda: window.session.question.view is not None and not window.session.question.busy
             and window.session.question.view.result.query == text, 30)


def use_results(window: Any, qtbot: Any) -> None:
    """Open the first result, copy the third, pin the second (as a reader would)."""
    results = window.results
    results.results_view.setFocus()
    results.results_view.setCurrentIndex(results.results_view.model().index(0, 0))
    results.results_view.activated.emit(results.results_view.currentIndex())
    results.results_view.setCurrentIndex(results.results_view.model().index(2, 0))
    results.menu.copy_current()
    view = window.session.question.view
    results.pinScopeRequested.emit(view.result.results[1].chunk_id, "question")


def test_use_is_recorded_only_with_consent_only_in_its_workspace_and_never_logged(
        harness: Any, qtbot: Any, small_db: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="romans:9")
        bench, dock = window.workbench, window.workbench_dock
        wait_for(qtbot, lambda: window.session.can_ask)
        dock.toggle()
        panel = dock.panel
        tab = panel.usage_tab
        panel.tabs.setCurrentIndex(panel.USAGE_TAB)
        # off by default, and said plainly
        assert not tab.consent.isChecked() and not bench.usage.consent
        assert "Off unless you turn it on" in tab.privacy.text() and "never written to a log" in tab.privacy.text()
        ask(window, qtbot, QUESTION)
        use_results(window, qtbot)
        run(qtbot, bench.usage.flush())
        assert bench.usage.record.askings == ()
        assert not usage_dir().exists() or not any(usage_dir().iterdir())

        # on: asked twice, the same result copied each time (the cascade model's evidence)
        tab.consent.click()
        run(qtbot, bench.usage.flush())
        assert bench.usage.consent
        for again in (QUESTION, "grace", QUESTION + " "):
            ask(window, qtbot, again)
            use_results(window, qtbot)
        run(qtbot, bench.usage.flush())
        record = bench.usage.record
        assert [a.question for a in record.askings] == [QUESTION, "grace", QUESTION + " "]
        assert {x.action for x in record.askings[0].actions} == {"opened", "copied", "pinned"}
        own = usage_dir() / f"{record.workspace}.json"
        assert own.is_file() and QUESTION in own.read_text()
        wait_for(qtbot, lambda: tab.model.rowCount() > 0)
        assert "questions recorded in this workspace" in tab.status.text()

        # another workspace: nothing of the first is read, nothing is recorded there
        window.menus.workspace_menu.new_workspace("Evening service")
        wait_for(qtbot, lambda: "Evening" in window.workspace_switcher.currentText())
        wait_for(qtbot, lambda: bench.usage.record.workspace != record.workspace)
        assert not bench.usage.consent and bench.usage.record.askings == ()
        ask(window, qtbot, "hope")
        use_results(window, qtbot)
        run(qtbot, bench.usage.flush())
        assert bench.usage.record.askings == ()
        assert sorted(p.name for p in usage_dir().iterdir()) == [own.name]
        wait_for(qtbot, lambda: tab.model.rowCount() == 0 and "Nothing is recorded" in tab.status.text())

        # the question's text reaches no log: not the records caught here, not the log folder's files
        logged = [r.getMessage() + " " + " ".join(f"{k}={v}" for k, v in r.__dict__.items()) for r in caplog.records
                  if r.name.startswith("amicus")]  # the app's loggers: the only ones its log file holds
        assert not any(QUESTION in line or "potter" in line for line in logged)
        for f in paths.log_dir().rglob("*") if paths.log_dir().exists() else []:
            if f.is_file():
                assert "potter" not in f.read_text(errors="replace")


def test_a_suggested_grade_is_confirmed_into_the_set_with_its_evidence(harness: Any, qtbot: Any,
                                                                      small_db: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="romans:9")
        bench, dock = window.workbench, window.workbench_dock
        wait_for(qtbot, lambda: window.session.can_ask)
        dock.toggle()
        dock.new_golden_set("from use")
        wait_for(qtbot, lambda: bench.golden_job.golden is not None)
        panel = dock.panel
        tab = panel.usage_tab
        panel.tabs.setCurrentIndex(panel.USAGE_TAB)
        tab.consent.click()
        for _ in range(2):
            ask(window, qtbot, "grace")
            use_results(window, qtbot)
            ask(window, qtbot, "faith")  # between two askings of the same question
        wait_for(qtbot, lambda: tab.model.rowCount() > 0)
        row = next(r for r in range(tab.model.rowCount()) if tab.model.candidate(r).grade == 3)
        copied = tab.model.candidate(row)
        assert copied.question == "grace" and ("copied", 2) in copied.actions
        tab.view.setFocus()
        tab.view.setCurrentIndex(tab.model.index(row, 0))
        qtbot.keyClick(tab.view, Qt.Key.Key_Return)
        run(qtbot, bench.golden_job.flush())
        saved = golden_io.load(bench.golden_job.golden_path)
        q = next(q for q in saved.queries if q.query == "grace")
        assert q.judgments[copied.chunk_id] == 3
        assert q.why(copied.chunk_id).startswith("from use, confirmed: copied 2")
        assert "cascade model" in q.why(copied.chunk_id)
        assert [r.by for r in q.ratings[copied.chunk_id]] == [bench.golden_job.judge_name]
        wait_for(qtbot, lambda: tab.model.data(tab.model.index(row, tab.model.SET)) == "3")

"""Judging in the real window (offscreen): the reason beside each grade (the golden set's ``rationale``) shown
and edited while judging, saved atomically into the curator's copy of a shipped set (the shipped file's bytes
unchanged); judgments imported under a judge's name — asked for, filled in from the file's judge column,
never the file's name."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from amicus_desktop.evaluate import golden as golden_io
from amicus_desktop.paths import golden_dir
from amicus_desktop.resources import resource_path
from tests.support.scripted_proxy import ScriptedProxy

from .conftest import run, wait_for


def ask(window: Any, qtbot: Any, text: str) -> None:
    window.ask_control.ask(text)
    wait_for(qtbot, lambda: window.session.question.view is not None and not window.session.question.busy
             and window.session.question.view.result.query == text, 30)


def test_the_reason_for_a_grade_is_shown_and_edited_into_the_curators_copy(
        harness: Any, qtbot: Any, small_db: Path) -> None:
    shipped = resource_path("golden", "demo.json")
    sha = hashlib.sha256(shipped.read_bytes()).hexdigest()
    golden = golden_io.load(shipped)
    question = next(q for q in golden.queries if any(q.why(c) for c in q.judgments))
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter=question.chapter)
        bench, dock = window.workbench, window.workbench_dock
        wait_for(qtbot, lambda: window.session.can_ask)
        dock.open_golden_set(str(shipped))
        wait_for(qtbot, lambda: bench.golden_job.golden is not None)
        own = golden_dir() / "demo.json"
        assert bench.golden_job.golden_path == own
        ask(window, qtbot, question.query)
        tab = dock.panel.whatif_tab
        wait_for(qtbot, lambda: tab.ranking_model.rowCount() > 0)
        ranking, model, edit = tab.ranking, tab.ranking_model, tab.why_edit
        chunk = model.key(1)

        # grade the second result, then say why: the field follows the selection, Enter saves
        ranking.setFocus()
        ranking.setCurrentIndex(model.index(1, 0))
        assert edit.isEnabled() and edit.text() == question.why(chunk)
        qtbot.keyClick(ranking, Qt.Key.Key_2)
        ranking.setCurrentIndex(model.index(1, 0))
        edit.setFocus()
        edit.selectAll()
        qtbot.keyClicks(edit, "Names the  promise   outright")
        qtbot.keyClick(edit, Qt.Key.Key_Return)
        run(qtbot, bench.golden_job.flush())
        saved = golden_io.load(own).query(question.id)
        assert saved is not None and saved.judgments[chunk] == 2 and saved.why(chunk) == "Names the promise outright"
        assert model.data(model.index(1, model.GRADE), Qt.ItemDataRole.ToolTipRole).endswith(
            "Why: Names the promise outright")
        # the other reasons and keys of the question are kept; the shipped file is never written
        others = {c: question.why(c) for c in question.judgments if c != chunk and question.why(c)}
        assert all(saved.why(c) == why for c, why in others.items())
        assert hashlib.sha256(shipped.read_bytes()).hexdigest() == sha

        # another row shows its own reason; back on the first, the saved one; blank removes it
        ranking.setCurrentIndex(model.index(0, 0))
        assert edit.text() == saved.why(model.key(0))
        ranking.setCurrentIndex(model.index(1, 0))
        assert edit.text() == "Names the promise outright"
        edit.setFocus()
        edit.clear()
        edit.setModified(True)
        qtbot.keyClick(edit, Qt.Key.Key_Return)
        run(qtbot, bench.golden_job.flush())
        assert golden_io.load(own).query(question.id).why(chunk) == ""
        assert hashlib.sha256(shipped.read_bytes()).hexdigest() == sha


def test_an_imported_judge_is_asked_for_and_filled_in_from_the_files_judge_column(
        harness: Any, qtbot: Any, small_db: Path, tmp_path: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="romans:9")
        bench, dock = window.workbench, window.workbench_dock
        wait_for(qtbot, lambda: window.session.can_ask)
        dock.new_golden_set("imports")
        wait_for(qtbot, lambda: bench.golden_job.golden is not None)

        # Quepid's own CSV names nobody: the name is asked for, Import waits for one, never "ana-quepid.csv"
        plain = tmp_path / "ana-quepid.csv"
        plain.write_text("query,docid,rating\ngrace,a,3\ngrace,b,1\n", encoding="utf-8")
        dock.import_judgments(str(plain))
        wait_for(qtbot, lambda: dock.dialog is not None and dock.dialog.objectName() == "importJudgments"
                 and dock.dialog.isVisible())
        ask_dialog: Any = dock.dialog
        ok = ask_dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert ask_dialog.judge_edit.text() == "" and not ok.isEnabled()
        assert "does not say who judged" in ask_dialog.intro.text()
        qtbot.keyClicks(ask_dialog.judge_edit, "Ana Ruiz")
        assert ok.isEnabled()
        ok.click()
        wait_for(qtbot, lambda: "Imported ana-quepid.csv" in dock.panel.notice_label.text())
        run(qtbot, bench.golden_job.flush())
        assert golden_io.load(bench.golden_job.golden_path).judges() == ["Ana Ruiz"]

        # a file with a judge column: its one judge is filled in (and may be changed)
        dock.dialog = None
        named = tmp_path / "ratings.csv"
        named.write_text("query,docid,rating,judge\ngrace,a,2,ben\nfaith,c,1,ben\n", encoding="utf-8")
        dock.import_judgments(str(named), scale="0-3")
        wait_for(qtbot, lambda: dock.dialog is not None and dock.dialog.isVisible())
        ask_dialog = dock.dialog
        assert ask_dialog.judge_edit.text() == "ben" and "names its judge, ben" in ask_dialog.intro.text()
        ask_dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
        wait_for(qtbot, lambda: "Imported ratings.csv" in dock.panel.notice_label.text())
        run(qtbot, bench.golden_job.flush())
        data = json.loads(Path(bench.golden_job.golden_path).read_text())
        assert [r["by"] for r in data["queries"][0]["judges"]["a"]] == ["Ana Ruiz", "ben"]
        assert golden_io.load(bench.golden_job.golden_path).judges() == ["Ana Ruiz", "ben"]

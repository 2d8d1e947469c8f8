"""Answers that follow the question, in the window (issue #33 items 2, 3 and 5): the results header's toggle that
asks one question of the whole library, the warnings inside the Results tab (the tab bar never moves, and the
Verses tab never shows the results' warnings), and a verse opened from the Verses tab leaving the results as
they are. Real widgets offscreen, a real sqlite-vec file, a real HTTP embed server."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPoint, Qt

from amicus_desktop.core.bundle import RetrievalWarning, WarningCode
from amicus_desktop.core.references import ChapterRef, PassageRef
from amicus_desktop.ui.results import ResultsPane
from tests.support.scripted_proxy import ScriptedProxy

from .conftest import wait_for


def ask_in_window(window: Any, qtbot: Any, text: str) -> None:
    before = window.session.question.view
    window.ask.edit.setText(text)
    qtbot.mouseClick(window.ask.button, Qt.MouseButton.LeftButton)
    wait_for(qtbot, lambda: window.session.question.view is not before and not window.session.question.busy)


def test_the_header_asks_one_question_of_the_whole_library(harness: Any, qtbot: Any, small_db: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="rom 9")
        s, pane = window.session, window.results
        wait_for(qtbot, lambda: s.can_ask)
        ask_in_window(window, qtbot, "the potter and the clay")
        toggle = pane.chapter_toggle
        assert toggle.isVisible() and toggle.isChecked() and toggle.text() == "Rank for Romans 9"
        assert "ranked for Romans 9" in pane.title.text()
        assert "Ctrl+Shift+A" in toggle.toolTip() and "next question" in toggle.toolTip()

        before = s.question.view
        qtbot.mouseClick(toggle, Qt.MouseButton.LeftButton, pos=QPoint(8, toggle.height() // 2))  # off: the whole
        # library, re-ranked from the same candidates, visibly
        wait_for(qtbot, lambda: s.question.view is not before)
        assert s.question.view is not None and s.question.view.whole_library
        assert "ranked for the whole library" in pane.title.text() and "Romans 9" not in pane.title.text()
        assert not toggle.isChecked() and toggle.text() == "Rank for Romans 9"
        assert pane.note.isVisible() and "for the whole library (this question only)" in pane.note.text()

        ask_in_window(window, qtbot, "the potter and the clay")  # asked again: still the whole library
        assert s.question.view.whole_library and not toggle.isChecked()
        ask_in_window(window, qtbot, "love one another")  # the next question: the chapter is on again
        assert not s.question.view.whole_library and toggle.isChecked()
        assert "ranked for Romans 9" in pane.title.text()

        before = s.question.view
        window.actions_by_id["whole_library"].trigger()  # the shortcut
        wait_for(qtbot, lambda: s.question.view is not before)
        assert s.question.view.whole_library and not toggle.isChecked()


def test_warnings_never_move_the_tabs_nor_cover_the_verses(harness: Any, qtbot: Any, small_db: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="rom 9")
        s, pane = window.session, window.results
        wait_for(qtbot, lambda: s.can_ask)
        ask_in_window(window, qtbot, "the potter and the clay")
        view = s.question.view
        warned = replace(view, result=replace(view.result, warnings=(
            RetrievalWarning(WarningCode.NO_STRONG_MATCH, "No strong match: the best similarity is low."),)))
        quiet = replace(view, result=replace(view.result, warnings=()))
        bar = pane.tabs.tabBar()

        def tab_bar_at() -> QPoint:
            return bar.mapTo(window, QPoint(0, 0))

        pane.show_view(quiet)
        qtbot.waitUntil(lambda: not pane.warnings.isVisible())
        at = tab_bar_at()
        pane.show_view(warned)
        qtbot.waitUntil(pane.warnings.isVisible)
        assert tab_bar_at() == at  # the warning came inside the Results tab: the tabs did not move
        assert pane.results_page.isAncestorOf(pane.warnings) and pane.results_page.isAncestorOf(pane.note)
        pane.tabs.setCurrentIndex(ResultsPane.VERSES_TAB)
        qtbot.waitUntil(lambda: not pane.warnings.isVisible())  # not over the Verses tab
        assert tab_bar_at() == at
        pane.tabs.setCurrentIndex(ResultsPane.RESULTS_TAB)
        qtbot.waitUntil(pane.warnings.isVisible)


def test_opening_a_verse_does_not_rerank_the_results(harness: Any, qtbot: Any, small_db: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="rom 9")
        s = window.session
        wait_for(qtbot, lambda: s.can_ask)
        ask_in_window(window, qtbot, "the potter and the clay")
        view = s.question.view
        window.results.verses.verseOpened.emit(PassageRef("john", 3, 16, 16))  # Enter on a verse
        wait_for(qtbot, lambda: s.reader.chapter == ChapterRef("john", 3))
        assert s.question.view is view and s.question.ranked_for == ChapterRef("romans", 9)
        assert not window.results.note.isVisible()  # no "9 of 10 ranks changed"
        assert "ranked for Romans 9" in window.results.title.text()

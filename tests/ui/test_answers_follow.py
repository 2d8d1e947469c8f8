"""Answers that follow the question, in the window (issue #33 items 2, 3 and 5): the results header's toggle that
asks one question of the whole library, the warnings inside the Results tab (the tab bar never moves, and the
Verses tab never shows the results' warnings), and a verse opened from the Verses tab leaving the results as
they are. Real widgets offscreen, a real sqlite-vec file, a real HTTP embed server."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QGuiApplication

from amicus_desktop.core.bundle import RetrievalWarning, WarningCode
from amicus_desktop.core.references import ChapterRef, PassageRef
from amicus_desktop.present import citation
from amicus_desktop.retrieval import retrieve
from amicus_desktop.session.controller import app_context
from amicus_desktop.settings import Settings
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
        assert window.ask.context_label.text() == "Context: whole library"  # the ask bar says so too

        ask_in_window(window, qtbot, "the potter and the clay")  # asked again: still the whole library
        assert s.question.view.whole_library and not toggle.isChecked()
        ask_in_window(window, qtbot, "love one another")  # the next question: the chapter is on again
        assert not s.question.view.whole_library and toggle.isChecked()
        assert "ranked for Romans 9" in pane.title.text()
        assert window.ask.context_label.text() == "Context: Romans 9"

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


# -- on the real demo library through the real local proxy ------------------------------------------------------
GOVERNMENT = "How should Christians treat the government?"
BORN_AGAIN = "What does it mean to be born again?"


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_on_the_demo_library_the_whole_library_and_a_pin_follow_the_question(
        harness: Any, qtbot: Any, demo_db: Path, local_proxy: Any) -> None:
    window = harness.open(db=demo_db, proxy=local_proxy.url, chapter="romans:8")
    s = window.session
    wait_for(qtbot, lambda: s.can_ask, timeout=60)
    ask_in_window(window, qtbot, GOVERNMENT)
    # the ranking set Romans 8 aside for a question not about it, and the header says so
    assert "Romans 8 set aside (not about this question)" in window.results.title.text()
    before = s.question.view
    qtbot.mouseClick(window.results.chapter_toggle, Qt.MouseButton.LeftButton,
                     pos=QPoint(8, window.results.chapter_toggle.height() // 2))
    wait_for(qtbot, lambda: s.question.view is not before)
    # the whole library: what the command line ranks with no chapter, from the same candidates
    with ThreadPoolExecutor(1) as pool:  # the command line's own loop, off this test's Qt loop
        cli = pool.submit(retrieve, app_context(Settings(), GOVERNMENT), db=demo_db, proxy=local_proxy.url).result()
    assert [r.chunk_id for r in s.question.view.result.results] == [r.chunk_id for r in cli.results]
    assert "ranked for the whole library" in window.results.title.text()

    # a result pinned for John 3 (the new-birth chapter) comes first there, and nowhere else
    s.set_chapter(ChapterRef("john", 3))
    wait_for(qtbot, lambda: s.reader.loaded_chapter == ChapterRef("john", 3), timeout=30)
    ask_in_window(window, qtbot, BORN_AGAIN)
    chosen = next(r for r in s.question.view.result.ranked if r.candidate.metadata.book_id == "john")
    before = s.question.view
    s.pin(chosen.chunk_id, "passage")
    wait_for(qtbot, lambda: s.question.view is not before and not s.question.busy, timeout=30)
    first = window.results.results_model
    assert first.chunk(0).chunk_id == chosen.chunk_id and first.index(0, 1).data() == "Pinned for John 3"

    s.set_chapter(ChapterRef("romans", 13))  # another chapter: the government question gets no John 3 pin
    wait_for(qtbot, lambda: s.reader.loaded_chapter == ChapterRef("romans", 13), timeout=30)
    ask_in_window(window, qtbot, GOVERNMENT)
    assert not any(r.pinned for r in s.question.view.result.results)
    QGuiApplication.clipboard().clear()
    window.actions_by_id["copy_context"].trigger()  # nor its copied context
    wait_for(qtbot, lambda: bool(QGuiApplication.clipboard().text()), timeout=60)
    assert chosen.chunk_id not in QGuiApplication.clipboard().text()
    assert citation(chosen, s.library.names).splitlines()[0] not in QGuiApplication.clipboard().text()

"""A reader's Bible (issue 34: 1, 2, 5, 7): the text gets the room, reading mode, the study drawer that keeps its
height, the commentary following the verse, back and forward, WEB and KJV side by side, and the searched words
marked — the real window offscreen over the real demo library (Romans and John, WEB and KJV)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QGuiApplication, QKeySequence, QTextCursor

from amicus_desktop.core.query import SearchMode
from amicus_desktop.core.references import ChapterRef, PassageRef
from amicus_desktop.ui.shortcuts import BY_ID, sequences
from tests.support.proxy import free_port

from .conftest import wait_for
from .test_reader_experience import visible_lines

SMALL = (1000, 650)


@pytest.fixture
def window(harness: Any, qtbot: Any, demo_db: Path) -> Any:
    """The window over the demo library at 1000 × 650, offline (reading needs no proxy), Romans 9 on screen."""
    w = harness.open(db=demo_db, proxy=f"http://127.0.0.1:{free_port()}", chapter="romans:9")
    w.resize(*SMALL)
    wait_for(qtbot, lambda: w.session.reader.loaded_chapter == ChapterRef("romans", 9), timeout=30)
    wait_for(qtbot, lambda: w.commentary.model.rowCount() > 0)
    return w


def _goto(window: Any, qtbot: Any, text: str, ref: ChapterRef) -> None:
    window.reader.goto_edit.setText(text)
    window.reader.goto_edit.returnPressed.emit()
    wait_for(qtbot, lambda: window.session.reader.loaded_chapter == ref and window.reader.highlighted is not None)


def _covers(note: Any, verse: int) -> bool:
    m = note.metadata
    return m.verse_start is not None and m.verse_start <= verse <= (m.verse_end or m.verse_start)


def test_the_text_gets_the_room_and_reading_mode_gives_it_the_window(window: Any, qtbot: Any) -> None:
    reader = window.reader
    wait_for(qtbot, lambda: visible_lines(reader) >= 15)  # the study drawer is closed: only its tabs show
    assert window.drawer.tabs.isVisible() and not window.commentary.isVisible()
    assert window.drawer.tabs.tabText(0) == f"Commentary ({window.commentary.model.rowCount()})"
    before = visible_lines(reader)
    width = reader.text.width()
    window.actions_by_id["reading_mode"].trigger()  # F11: the text alone
    wait_for(qtbot, lambda: reader.text.width() > width)
    assert not window.right.isVisible() and not window.drawer.isVisible()
    assert window.actions_by_id["reading_mode"].isChecked()
    assert visible_lines(reader) >= before
    window.actions_by_id["reading_mode"].trigger()  # again: everything as it was
    wait_for(qtbot, window.right.isVisible)
    assert window.drawer.tabs.isVisible() and not window.actions_by_id["reading_mode"].isChecked()
    # one key, in the shortcut table F1 lists; Alt+Left is back now, the chapters moved to Ctrl/Alt+PgUp
    assert QKeySequence("F11") in sequences(BY_ID["reading_mode"])
    assert QKeySequence("Alt+Left") in sequences(BY_ID["back"])
    assert QKeySequence("Alt+Left") not in sequences(BY_ID["prev_chapter"])


def test_the_study_drawer_opens_on_demand_and_keeps_its_height(harness: Any, window: Any, qtbot: Any,
                                                              demo_db: Path) -> None:
    window.actions_by_id["commentary"].trigger()
    wait_for(qtbot, window.commentary.list.isVisible)
    assert window.actions_by_id["commentary"].isChecked()
    assert visible_lines(window.reader) >= 5  # the text keeps a readable share with the drawer open
    split = window.left_split
    total = sum(split.sizes())
    split.moveSplitter(total - 300, 1)  # the reader drags the drawer to 300 px (less the handle)
    wait_for(qtbot, lambda: abs(window.drawer.open_height - 300) < 12)
    kept = window.drawer.open_height
    window.notes_control.focus()  # Ctrl+5: the notes take the drawer's place
    assert window.drawer.current is window.notes_control.pane and not window.commentary.isVisible()
    window.actions_by_id["commentary"].trigger()
    window.drawer.close_drawer()  # closed, the text takes the room back: no empty band under the tabs
    wait_for(qtbot, lambda: window.left_split.sizes()[1] <= window.drawer.tabs.sizeHint().height() + 2)
    assert window.drawer.open_height == kept
    window.actions_by_id["commentary"].trigger()
    harness.close(window)
    again = harness.open(db=demo_db, proxy=f"http://127.0.0.1:{free_port()}", chapter="romans:9")
    again.resize(*SMALL)
    wait_for(qtbot, lambda: again.drawer.current is again.commentary)
    assert again.drawer.open_height == kept
    wait_for(qtbot, lambda: abs(again.left_split.sizes()[1] - kept) < 12)


def test_the_commentary_follows_the_verse(window: Any, qtbot: Any) -> None:
    pane = window.commentary
    window.toggle_commentary()
    _goto(window, qtbot, "Romans 9:13", ChapterRef("romans", 9))
    wait_for(qtbot, lambda: pane.current is not None and _covers(pane.current, 13))
    covering = [pane.model.chunk(r) for r in range(pane.model.rowCount()) if _covers(pane.model.chunk(r), 13)]
    narrowest = min((c.metadata.verse_end or 0) - (c.metadata.verse_start or 0) for c in covering)
    assert (pane.current.metadata.verse_end or 0) - (pane.current.metadata.verse_start or 0) == narrowest
    assert pane.current.chunk_id.split("#")[0] in pane.text.toPlainText() or pane.text.toPlainText().strip()
    # the reader clicks (moves the cursor) into verse 30: the note on it is shown
    cursor = window.reader._verse_cursor(30)
    assert cursor is not None
    cursor.movePosition(QTextCursor.MoveOperation.NextWord)
    window.reader.text.setTextCursor(cursor)
    wait_for(qtbot, lambda: pane.current is not None and _covers(pane.current, 30))
    assert window.reader.current_verse == 30


def test_back_and_forward_go_through_what_was_read(window: Any, qtbot: Any) -> None:
    s, nav = window.session, window.reader.nav
    assert not nav.back_button.isEnabled()
    _goto(window, qtbot, "John 3:16", ChapterRef("john", 3))
    window.peek_passage("romans", 8, 28, 28)  # a result opened to read
    wait_for(qtbot, lambda: s.reader.loaded_chapter == ChapterRef("romans", 8))
    window.results.verses.verseOpened.emit(PassageRef("john", 1, 14, 14))  # a verse result opened
    wait_for(qtbot, lambda: s.reader.loaded_chapter == ChapterRef("john", 1))
    window.actions_by_id["next_chapter"].trigger()
    wait_for(qtbot, lambda: s.reader.loaded_chapter == ChapterRef("john", 2))
    assert nav.back_button.isEnabled() and "John 1:14" in nav.back_button.toolTip()
    expected = [(ChapterRef("john", 1), (14, 14)), (ChapterRef("romans", 8), (28, 28)),
                (ChapterRef("john", 3), (16, 16)), (ChapterRef("romans", 9), None)]
    for chapter, lines in expected:
        window.actions_by_id["back"].trigger()
        wait_for(qtbot, lambda c=chapter: s.reader.loaded_chapter == c)
        wait_for(qtbot, lambda want=lines: window.reader.highlighted == want)
    assert not nav.back_button.isEnabled() and not window.actions_by_id["back"].isEnabled()
    nav.forward_button.click()
    wait_for(qtbot, lambda: s.reader.loaded_chapter == ChapterRef("john", 3) and window.reader.highlighted == (16, 16))
    _goto(window, qtbot, "Romans 9:20", ChapterRef("romans", 9))  # a new place drops the ones ahead
    assert not nav.forward_button.isEnabled()
    window.actions_by_id["back"].trigger()
    wait_for(qtbot, lambda: s.reader.loaded_chapter == ChapterRef("john", 3))


def test_web_and_kjv_side_by_side_verse_by_verse(window: Any, qtbot: Any) -> None:
    s, reader = window.session, window.reader
    assert {t.abbreviation for t in s.verses.translations} >= {"WEB", "KJV"}
    window.actions_by_id["parallel"].trigger()
    wait_for(qtbot, lambda: reader.showing_parallel)
    text = s.reader.text
    assert text is not None and text.translation == "WEB" and text.beside_translation == "KJV"
    assert window.actions_by_id["parallel"].isChecked() and reader.nav.beside_combo.currentText().startswith("+ KJV")
    table = reader.text.document().rootFrame().childFrames()[0]
    assert table.rows() == 1 + len({n for n, _t in text.verses} | {n for n, _t in text.beside})
    plain = reader.text.toPlainText()
    assert "Jacob have I loved" in plain and "Jacob I loved" in plain  # KJV and WEB of 9:13, side by side
    # copy verse 13 from the KJV column and from the WEB column, each with its reference
    table_cell = reader._verse_cursor(13)
    assert table_cell is not None
    kjv = table_cell.currentTable().cellAt(table_cell.currentTable().cellAt(table_cell).row(), 1).firstCursorPosition()
    reader.text.setTextCursor(kjv)
    assert reader.column_at() == 1 and reader.copy_verses()
    assert "Jacob have I loved" in QGuiApplication.clipboard().text()
    assert "Romans 9:13 (KJV)" in QGuiApplication.clipboard().text()
    assert reader.copy_verses([13], column=0) and "Romans 9:13 (WEB)" in QGuiApplication.clipboard().text()
    # the chapter after keeps both; one translation again
    window.actions_by_id["next_chapter"].trigger()
    wait_for(qtbot, lambda: s.reader.loaded_chapter == ChapterRef("romans", 10) and reader.showing_parallel)
    reader.nav.beside_combo.setCurrentIndex(0)
    reader.nav.beside_combo.activated.emit(0)
    wait_for(qtbot, lambda: not reader.showing_parallel and s.reader.text is not None and not s.reader.text.parallel)


def test_the_searched_words_are_marked_in_the_passage_and_the_verses(window: Any, qtbot: Any) -> None:
    s = window.session
    s.set_mode(SearchMode.KEYWORD)  # searching by words works offline
    window.ask.edit.setText("Jacob Esau hated")
    window.ask.askRequested.emit("Jacob Esau hated")
    wait_for(qtbot, lambda: s.question.view is not None and bool(s.question.view.result.results), timeout=30)
    passage = window.results.passage
    wait_for(qtbot, lambda: passage.words == s.question.view.result.trace.keywords)
    assert set(passage.words) >= {"jacob", "esau"}
    wait_for(qtbot, lambda: "font-weight:600" in passage.view.toHtml() and passage.verses is not None)
    marks = passage.view.toHtml().count("background-color")
    assert marks >= 2  # in the note, and in its Bible text
    verses = window.results.verses
    wait_for(qtbot, lambda: s.verses.view is not None, timeout=30)
    if s.verses.view is not None and s.verses.view.result.results:
        wait_for(qtbot, lambda: "Esau" in verses.why.toPlainText() or "Jacob" in verses.why.toPlainText()
                 or verses.why.toHtml().count("font-weight:600") >= 1)


def test_the_reader_offers_hooks_for_study_panes(window: Any, qtbot: Any) -> None:
    """Margin marks of another kind, their clicks, and a word's click: what ui/study/ hooks into."""
    reader = window.reader
    clicks: list[tuple[str, int]] = []
    words: list[tuple[int, str, int]] = []
    reader.marginMarkClicked.connect(lambda kind, verse: clicks.append((kind, verse)))
    reader.wordClicked.connect(lambda verse, word, column: words.append((verse, word, column)))
    reader.set_margin_marks("xref", {13: ("†", "3 cross-references")})
    assert "mark:xref:13" in reader.text.toHtml()
    reader.text.anchorClicked.emit(QUrl("mark:xref:13"))
    assert clicks == [("xref", 13)]
    cursor = reader._verse_cursor(13)
    assert cursor is not None
    cursor.movePosition(QTextCursor.MoveOperation.NextWord)
    point = reader.text.cursorRect(cursor).center()
    qtbot.mouseClick(reader.text.viewport(), Qt.MouseButton.LeftButton, pos=point)
    wait_for(qtbot, lambda: bool(words))
    assert words[-1][0] == 13 and words[-1][1].isalpha() and words[-1][2] == 0

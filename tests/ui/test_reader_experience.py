"""The reader's experience (issue 13): jumping to verses, navigation messages, and the rest of the
study companion, driven through the real window offscreen over a real sqlite-vec file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from amicus_desktop.core.types import ChapterRef
from tests.support.dbs import BOOKS, build_db, demo_like_chunks
from tests.support.proxy import free_port

from .conftest import wait_for

#: Verses per chapter in :func:`long_db`: enough that a late verse starts off-screen.
VERSES = 40


@pytest.fixture(scope="module")
def long_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small demo-like corpus with 40 long verses per chapter, so chapters overflow the view."""
    rows = [
        (book, c, v, f"Verse {v} of {book.title()} {c}: " + "a long line of scripture for the reader, " * 4)
        for book, _name, _ord, chapters in BOOKS
        for c in range(1, chapters + 1)
        for v in range(1, VERSES + 1)
    ]
    path = tmp_path_factory.mktemp("long") / "long.db"
    return build_db(path, demo_like_chunks(dims=8), books=BOOKS, verses=rows)


def _centred(window: Any, verse: int) -> bool:
    """Whether ``verse`` is highlighted and its first line sits near the middle of the reader's view."""
    pane = window.reader
    lines = pane.highlighted
    y = pane.verse_rect_y(verse)
    height = pane.text.viewport().height()
    return lines is not None and lines[0] == verse and y is not None and abs(y - height // 2) < height // 6


def test_go_to_a_verse_scrolls_it_into_the_middle(harness, qtbot, long_db: Path) -> None:
    window = harness.open(db=long_db, proxy=f"http://127.0.0.1:{free_port()}", chapter="romans:1")
    window.resize(1000, 650)
    wait_for(qtbot, lambda: window.session.reader.loaded_chapter == ChapterRef("romans", 1))
    window.reader.goto_edit.setText("John 3:30")
    window.reader.goto_edit.returnPressed.emit()
    wait_for(qtbot, lambda: window.session.reader.loaded_chapter == ChapterRef("john", 3))
    wait_for(qtbot, lambda: _centred(window, 30))
    assert window.reader.text.verticalScrollBar().value() > 0
    assert window.reader.book_combo.currentData() == "john" and window.reader.chapter_spin.value() == 3
    # "open in reader" on a result: another chapter, then a verse of the chapter already on screen
    window.open_passage("romans", 9, 25, 27)
    wait_for(qtbot, lambda: window.session.reader.loaded_chapter == ChapterRef("romans", 9))
    wait_for(qtbot, lambda: _centred(window, 25))
    assert window.reader.highlighted == (25, 27)
    window.open_passage("romans", 9, 20, 20)
    wait_for(qtbot, lambda: _centred(window, 20))
    # a chapter without verses in focus clears the highlight
    window.session.step_chapter(1)
    wait_for(qtbot, lambda: window.session.reader.loaded_chapter == ChapterRef("romans", 10))
    assert window.reader.highlighted is None


@pytest.mark.parametrize(
    ("typed", "words"),
    [("Gal 2", "no text of Galatians"), ("John 30", "John has 21 chapters"), ("Hezekiah 4", "Hezekiah")],
)
def test_go_to_nowhere_says_why_and_changes_nothing(harness, qtbot, small_db: Path, typed: str, words: str) -> None:
    window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}", chapter="john:3")
    wait_for(qtbot, lambda: window.session.reader.loaded_chapter == ChapterRef("john", 3))
    window.reader.goto_edit.setText(typed)
    window.reader.goto_edit.returnPressed.emit()
    assert window.reader.goto_error.isVisibleTo(window)
    assert words in window.reader.goto_error.text()
    assert window.session.reader.chapter == ChapterRef("john", 3)
    assert window.session.context("q").chapter == ChapterRef("john", 3)
    assert window.reader.book_combo.currentData() == "john" and window.reader.chapter_spin.value() == 3
    assert window.reader.goto_edit.text() == typed  # kept, to be corrected


def test_result_rows_have_titles_and_the_passage_shows_the_bible_text(harness, qtbot, small_db: Path) -> None:
    """Each row has a title and display names; the passage pane puts the verses' text under the note."""
    from tests.support.scripted_proxy import ScriptedProxy

    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="romans:9")
        wait_for(qtbot, lambda: window.session.can_ask, timeout=15)
        window.ask.edit.setText("election")
        window.ask.askRequested.emit("election")
        wait_for(qtbot, lambda: window.session.question.view is not None, timeout=15)
        model = window.results.results_model
        titles = [model.index(r, model.TITLE).data() for r in range(model.rowCount())]
        assert all(t and t != "—" for t in titles)
        scholars = {model.index(r, model.SCHOLAR).data() for r in range(model.rowCount())}
        assert not scholars & {"matthew-henry", "scofield", "spurgeon"}  # display names, not ids
        assert scholars & {"Matthew Henry", "C. I. Scofield", "Charles Spurgeon", "C. H. Spurgeon", "—"}
        first = model.chunk(0)
        assert first is not None
        meta = first.candidate.metadata
        wait_for(qtbot, lambda: window.results.passage.verses is not None)
        shown = window.results.passage.verses
        assert shown is not None and [n for n, _t in shown.verses] == list(
            range(meta.verse_start, min(meta.verse_end or meta.verse_start, 12) + 1))
        text = window.results.passage.view.toPlainText()
        assert titles[0] in text and "Bible text" in text
        assert f"This is verse {meta.verse_start} of {meta.book_id.title()} {meta.chapter_num}" in text


def _ask(window: Any, qtbot: Any, text: str = "election") -> None:
    wait_for(qtbot, lambda: window.session.can_ask, timeout=15)
    window.ask.edit.setText(text)
    window.ask.askRequested.emit(text)
    wait_for(qtbot, lambda: window.session.question.view is not None, timeout=15)
    wait_for(qtbot, lambda: window.results.breakdown.chart.isVisibleTo(window))


def _inside(widget: Any, window: Any) -> bool:
    """Whether ``widget`` lies wholly inside each of its ancestors up to ``window``."""
    from PySide6.QtCore import QPoint, QRect

    child, parent = widget, widget.parentWidget()
    while parent is not None and child is not window:
        top_left = child.mapTo(parent, QPoint(0, 0))
        if not parent.rect().contains(QRect(top_left, child.size())):
            return False
        child, parent = parent, parent.parentWidget()
    return True


@pytest.mark.parametrize("size", [(1000, 650), (1920, 1080)])
def test_layout_holds_at_laptop_and_full_hd_sizes(harness, qtbot, small_db: Path, tmp_path: Path,
                                                 size: tuple[int, int]) -> None:
    from tests.support.scripted_proxy import ScriptedProxy

    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="romans:9")
        window.resize(*size)
        _ask(window, qtbot)
        qtbot.wait(100)  # the detail panes are laid out a turn after the table
        shot = window.grab()
        assert shot.save(str(tmp_path / f"layout-{size[0]}x{size[1]}.png"))
        assert (shot.width(), shot.height()) == size
        reader, results, breakdown = window.reader, window.results, window.results.breakdown
        controls = [reader.book_combo, reader.chapter_spin, reader.prev_button, reader.next_button,
                    reader.goto_edit, reader.text, window.ask.edit, window.ask.button, results.results_view,
                    results.passage.view, breakdown.scroll]
        for w in controls:
            assert w.isVisible(), w.accessibleName()
            assert _inside(w, window), f"{w.accessibleName() or w!r} is clipped by its parent"
            hint = w.minimumSizeHint()
            assert w.width() >= hint.width() and w.height() >= min(hint.height(), 20), w.accessibleName()
        assert reader.width() >= 320
        assert reader.goto_edit.width() >= 200
        table = results.results_view
        assert not table.horizontalScrollBar().isVisible()
        assert table.viewport().height() // table.verticalHeader().defaultSectionSize() >= 6
        assert table.columnWidth(results.results_model.TITLE) >= 200
        # the chart's rows and numbers fit, and the words start below its last row
        chart, words = breakdown.chart, breakdown.words
        assert chart.width() >= chart.minimumSizeHint().width()
        assert chart.height() >= chart.minimumSizeHint().height()
        assert chart.geometry().bottom() < words.geometry().top()

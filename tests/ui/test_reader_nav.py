"""The reader's navigation bar (``ui/reader_nav.py``), alone: what the *Go to* box says stays only while it is
true."""

from __future__ import annotations

from typing import Any

from amicus_desktop.core.references import ChapterRef
from amicus_desktop.store.scripture import BookRow
from amicus_desktop.ui.reader_nav import ReaderNav


def test_a_go_to_error_goes_when_the_reader_moves_elsewhere(qtbot: Any) -> None:
    """"Cannot open “Philemon”" stayed under the box after the reader reached Philemon by the book box (or a
    result, or the next chapter): the error said something no longer true. It stays while the reader stays."""
    nav = ReaderNav()
    qtbot.addWidget(nav)
    nav.set_books([BookRow("titus", "Titus", 56, 3), BookRow("philemon", "Philemon", 57, 1)])
    nav.show()
    nav.show_chapter(ChapterRef("titus", 3))
    nav.show_goto_error("Cannot open “Philemon”: 'Philemon' is not a reference such as 'Romans 9' or 'John 3:16'.")
    nav.show_chapter(ChapterRef("titus", 3))  # the same place shown again: the error still holds
    assert nav.goto_error.isVisible()
    nav.show_chapter(ChapterRef("philemon", 1))
    assert not nav.goto_error.isVisible()
    assert not nav.next_button.isEnabled() and nav.prev_button.isEnabled()  # the last book's only chapter

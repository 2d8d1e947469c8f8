"""The study aids name a book as the library does: "Song of Solomon 2:1" in the reader's menu, the status line,
the Bookmarks tab, the cross-references' heading — not its id read as words ("Song Of Solomon 2:1")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QMenu

from amicus_desktop.core.references import ChapterRef, PassageRef
from amicus_desktop.notes.marks import MarkKind
from amicus_desktop.study import CrossReferences
from tests.support.dbs import BOOKS, build_db, demo_like_chunks, verses

from ..conftest import wait_for

SONG = ("song-of-solomon", "Song of Solomon", 22, 8)


def test_the_study_aids_say_song_of_solomon(harness: Any, qtbot: Any, tmp_path: Path) -> None:
    lines = [("song-of-solomon", c, v, f"Verse {v} of the Song, chapter {c}.") for c in range(1, 9) for v in (1, 2)]
    db = build_db(tmp_path / "song.db", demo_like_chunks(dims=8), books=[*BOOKS, SONG], verses=[*verses(), *lines])
    window = harness.open(db=db, chapter="song-of-solomon:2")
    wait_for(qtbot, lambda: window.session.reader.loaded_chapter == ChapterRef("song-of-solomon", 2), timeout=30)
    menu = QMenu()
    for extend in window.reader.menu_extenders:
        extend(menu, [1])
    entries = [a.text() for a in menu.actions() if a.text()]
    assert "Bookmark Song of Solomon 2:1" in entries and "Cross-references of Song of Solomon 2:1" in entries
    control = window.study_control
    control.add_mark(MarkKind.BOOKMARK, PassageRef("song-of-solomon", 2, 1, 1))
    marks = control.panel.marks
    wait_for(qtbot, lambda: marks.list.count() == 1, timeout=20)
    assert "Song of Solomon 2:1" in marks.list.item(0).text()
    xrefs = control.panel.xrefs
    xrefs.show_result(CrossReferences(PassageRef("song-of-solomon", 2, 1, 1), (), (), ()))
    assert xrefs.title.text() == "Cross-references of Song of Solomon 2:1"

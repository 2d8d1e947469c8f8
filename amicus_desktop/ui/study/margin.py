"""The reader's bookmarks and highlights shown in its text: a highlight's colour behind its verses, ⚑ before a
bookmarked verse's number.

Drawn over the reader's own rendering without changing it: each time the chapter's document is filled
(its ``contentsChanged``), the current chapter's marks are laid on it through text cursors — a
background merged into the verses' characters, a glyph inserted at a bookmarked verse's anchor (the
reader's ``v23`` anchors, which it reads back from the document itself). The marks of a new chapter are
asked for once (:attr:`ReaderMarks.fetch`, off the UI thread) and kept until the chapter or the marks
change; new marks ask the reader to draw its text again (``rerender``), and are laid on that.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor

from ...core.references import ChapterRef
from ...notes.marks import Mark, MarkKind
from .marks_pane import SHADES

BOOKMARK = "⚑"


def anchor_positions(doc: Any, prefix: str = "v") -> dict[int, int]:
    """Verse number → the position of its anchor (``v<n>``; ``b<n>`` the translation beside) in the reader's
    document."""
    out: dict[int, int] = {}
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            for name in fragment.charFormat().anchorNames():
                if name.startswith(prefix) and name[1:].isdigit():
                    out[int(name[1:])] = int(fragment.position())
            it += 1
        block = block.next()
    return out


def _spans(doc: Any, anchors: dict[int, int], beside: dict[int, int], ends: dict[int, int],
           verses: list[int]) -> list[tuple[int, int]]:
    """Where a highlight of ``verses`` goes: one run of text in one translation; with two side by side, each
    verse's cell in both columns (a selection across a table's cells would colour whole columns of rows)."""
    probe = QTextCursor(doc)
    probe.setPosition(anchors[min(verses)])
    if probe.currentTable() is None:
        return [(anchors[min(verses)], ends[max(verses)])]
    out = []
    for verse in sorted(verses):
        for where in (anchors, beside):
            if verse in where:
                cursor = QTextCursor(doc)
                cursor.setPosition(where[verse])
                table = cursor.currentTable()
                end = table.cellAt(cursor).lastCursorPosition().position() if table is not None else ends[verse]
                out.append((where[verse], end))
    return out


class ReaderMarks:
    def __init__(self, text: Any, chapter: Callable[[], ChapterRef | None],
                 fetch: Callable[[ChapterRef, Callable[[list[Mark]], None]], None],
                 rerender: Callable[[], object]) -> None:
        self._text = text
        self._chapter = chapter
        self.fetch = fetch
        self._rerender = rerender
        self.marks: list[Mark] = []
        self._for: ChapterRef | None = None
        self._drawing = False
        text.document().contentsChanged.connect(self._changed)

    def refresh(self) -> None:
        """Ask for the chapter's marks again (one was added or removed)."""
        self._for = None
        self._changed()

    def set_marks(self, chapter: ChapterRef, marks: list[Mark]) -> None:
        if chapter != self._chapter():
            return
        self.marks = [m for m in marks if m.ref.book_id == chapter.book_id and m.ref.chapter == chapter.chapter]
        self._rerender()  # the reader draws the chapter afresh (a removed mark's colour goes), then _changed

    def _changed(self) -> None:
        if self._drawing:
            return
        chapter = self._chapter()
        if chapter is None:
            return
        if chapter != self._for:
            self._for = chapter
            self.marks = []
            self.fetch(chapter, lambda marks: self.set_marks(chapter, marks))
            return
        self._draw()

    def _draw(self) -> None:
        if not self.marks:
            return
        doc = self._text.document()
        anchors = anchor_positions(doc)
        if not anchors:
            return
        self._drawing = True
        try:
            order = sorted(anchors.items())
            ends = {v: (order[i + 1][1] if i + 1 < len(order) else doc.characterCount() - 1)
                    for i, (v, _p) in enumerate(order)}
            beside = anchor_positions(doc, "b")
            for mark in (m for m in self.marks if m.kind is MarkKind.HIGHLIGHT):
                first = mark.ref.verse_start or order[0][0]
                last = mark.ref.verse_end or (mark.ref.verse_start or order[-1][0])
                shown = [v for v in anchors if first <= v <= last]
                if not shown:
                    continue
                fmt = QTextCharFormat()
                fmt.setBackground(QColor(SHADES.get(mark.colour or "", SHADES["yellow"])))
                fmt.setForeground(QColor("#1a1a1a"))
                for start, end in _spans(doc, anchors, beside, ends, shown):
                    cursor = QTextCursor(doc)
                    cursor.setPosition(start)
                    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
                    cursor.mergeCharFormat(fmt)
            # glyphs last, from the end: an insertion moves only what comes after it
            marked = sorted({m.ref.verse_start or 0 for m in self.marks if m.kind is MarkKind.BOOKMARK}, reverse=True)
            for verse in marked:
                if verse in anchors:
                    cursor = QTextCursor(doc)
                    cursor.setPosition(anchors[verse])
                    cursor.insertText(BOOKMARK + "\u200a", QTextCharFormat())
        finally:
            self._drawing = False

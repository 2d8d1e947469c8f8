"""The commentary pane: the notes, chapter panels and word studies on the chapter on screen.

It follows the reader (the session's :class:`~amicus_desktop.session.Commentary` loads the notes
of every chapter opened, without a question), lists them by verse with their titles from
:mod:`amicus_desktop.present.titles`, and shows the selected one's full text — and it follows the verse:
the note covering the verse the reader is at (:meth:`CommentaryPane.follow_verse`, the narrowest when
several do) is selected and shown. Enter (or a double-click) on a note opens its verses in the reader.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import QLabel, QSplitter, QTextBrowser, QTreeView, QVBoxLayout, QWidget

from ..core.names import DEFAULT_NAMES, NamesSource
from ..core.results import Candidate
from ..present.titles import snippet, source_label, title
from ..session import ChapterNotes
from .theme import muted_text, scaled_font, serif_font

Index = QModelIndex | QPersistentModelIndex
ChunkRole = Qt.ItemDataRole.UserRole + 1


def verse_label(c: Candidate) -> str:
    """``v. 6–13``, ``v. 6``, or ``Chapter`` for a note on the whole chapter."""
    m = c.metadata
    if m.verse_start is None:
        return "Chapter"
    if m.verse_end is None or m.verse_end == m.verse_start:
        return f"v. {m.verse_start}"
    return f"v. {m.verse_start}–{m.verse_end}"


class CommentaryModel(QAbstractListModel):
    """One row per note of :class:`ChapterNotes`: ``"v. 6–13 · <title>"``, its snippet as tooltip."""

    def __init__(self, names: NamesSource | None = None, parent: Any = None) -> None:
        super().__init__(parent)
        self._names = names
        self._rows: tuple[Candidate, ...] = ()

    def set_notes(self, notes: ChapterNotes | None) -> None:
        self.beginResetModel()
        self._rows = notes.chunks if notes is not None else ()
        self.endResetModel()

    def chunk(self, row: int) -> Candidate | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def rowCount(self, parent: Index | None = None) -> int:
        return 0 if parent is not None and parent.isValid() else len(self._rows)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.column() != 0 or not 0 <= index.row() < len(self._rows):
            return None
        c = self._rows[index.row()]
        names = self._names() if self._names is not None else DEFAULT_NAMES
        if role == ChunkRole:
            return c
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{verse_label(c)} · {title(c, names)}"
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{verse_label(c)}, {source_label(c.source_type)}: {title(c, names)}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return snippet(c) or None
        return None


class CommentaryPane(QWidget):
    """Lists the chapter's notes and shows the selected one; emits :attr:`passageRequested`
    (book, chapter, start, end; 0 for no verse) when a note is activated."""

    passageRequested = Signal(str, int, int, int)

    def __init__(self, names: NamesSource | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._names = names
        self._opened = ""  # the note the reader last opened in the reader (Enter, a double-click)
        self.heading = QLabel("Commentary")
        self.heading.setFont(scaled_font(self.font(), 1.0, bold=True))
        self.model = CommentaryModel(names, self)
        # A one-column tree view rather than a list view: it elides long titles to its width
        # instead of scrolling sideways.
        self.list = QTreeView()
        self.list.setModel(self.model)
        self.list.setAccessibleName("Commentary on this chapter")
        self.list.setRootIsDecorated(False)
        self.list.setHeaderHidden(True)
        self.list.setUniformRowHeights(True)
        self.list.setAlternatingRowColors(True)
        self.list.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.text = QTextBrowser()
        self.text.setOpenLinks(False)
        self.text.setAccessibleName("Selected note")
        self.text.document().setDocumentMargin(10)
        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.setObjectName("commentarySplit")
        self.split.addWidget(self.list)
        self.split.addWidget(self.text)
        self.split.setChildrenCollapsible(False)
        self.split.setSizes([160, 200])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.setSpacing(4)
        layout.addWidget(self.heading)
        layout.addWidget(self.split, 1)
        self.set_text_size(12.0)
        self.list.selectionModel().currentRowChanged.connect(self._row_changed)
        self.list.activated.connect(self._activated)
        self.set_notes(None, "")

    def set_text_size(self, reading: float) -> None:
        self.text.setFont(serif_font(max(8.0, reading * 0.9)))

    def set_notes(self, notes: ChapterNotes | None, chapter_label: str) -> None:
        """Show the notes of a chapter (``None``: not loaded yet); the selected note stays selected
        when it is still listed (the same chapter read again), else the first is."""
        before = self.current
        self.model.set_notes(notes)
        count = self.model.rowCount()
        if notes is None:
            self.heading.setText("Commentary")
        else:
            shown = f" (the first {count})" if notes.more else f" ({count})" if count else ""
            self.heading.setText(f"Commentary on {chapter_label}{shown}")
        if count:
            ids = [c.chunk_id for c in notes.chunks] if notes is not None else []
            row = ids.index(before.chunk_id) if before is not None and before.chunk_id in ids else 0
            self.list.setCurrentIndex(self.model.index(row, 0))
        else:
            muted = muted_text(self.palette()).name()
            message = "No notes, chapter panels or word studies on this chapter in this database." if notes else ""
            self.text.setHtml(f"<p style='color:{muted}; font-style:italic'>{html.escape(message)}</p>")

    def follow_verse(self, verse: int | None) -> bool:
        """Select the note covering ``verse`` (the one the reader opened when it does, else the narrowest range: a
        verse's note before a section's, a section's before the chapter's outline); ``False`` when none does (the
        selection stays)."""
        if verse is None:
            return False
        current = self.current
        m0 = current.metadata if current is not None and current.chunk_id == self._opened else None
        if m0 is not None and m0.verse_start is not None and m0.verse_start <= verse <= (m0.verse_end or
                                                                                         m0.verse_start):
            return True  # the note the reader opened covers it: it stays
        best: tuple[int, int] | None = None
        for row in range(self.model.rowCount()):
            c = self.model.chunk(row)
            m = c.metadata if c is not None else None
            if m is None or m.verse_start is None or not m.verse_start <= verse <= (m.verse_end or m.verse_start):
                continue
            width = (m.verse_end or m.verse_start) - m.verse_start
            if best is None or width < best[0]:
                best = (width, row)
        if best is None:
            return False
        index = self.model.index(best[1], 0)
        if self.list.currentIndex() != index:
            self.list.setCurrentIndex(index)
        self.list.scrollTo(index)
        return True

    @property
    def current(self) -> Candidate | None:
        return self.model.chunk(self.list.currentIndex().row())

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        c = self.model.chunk(current.row())
        if c is None:
            return
        names = self._names() if self._names is not None else DEFAULT_NAMES
        muted = muted_text(self.palette()).name()
        facts = [verse_label(c), source_label(c.source_type)]
        if c.metadata.scholar_id:
            facts.append(names.scholar(c.metadata.scholar_id).name)
        body = "".join(f"<p style='line-height:140%'>{html.escape(p)}</p>" for p in c.text.split("\n\n") if p.strip())
        self.text.setHtml(
            f"<p style='font-weight:600; margin-bottom:2px'>{html.escape(title(c, names))}</p>"
            f"<p style='color:{muted}; font-size:small; margin-top:0'>{html.escape(' · '.join(facts))}</p>{body}"
        )

    def _activated(self, index: QModelIndex) -> None:
        c = self.model.chunk(index.row())
        if c is None or not c.metadata.book_id or c.metadata.chapter_num is None:
            return
        self._opened = c.chunk_id  # it stays selected when its verses come into focus
        m = c.metadata
        self.passageRequested.emit(m.book_id, m.chapter_num, m.verse_start or 0, m.verse_end or m.verse_start or 0)

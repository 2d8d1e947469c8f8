"""The item model of the reader's notes: one row per note, as the notes pane lists them."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt

from ...core.names import DEFAULT_NAMES, NamesSource
from ...notes import Note
from ...present import notes as words

Index = QModelIndex | QPersistentModelIndex
NoteRole = Qt.ItemDataRole.UserRole + 1


class NotesModel(QAbstractListModel):
    """``v. 11 · Not of works…`` (a chapter's notes) or ``Romans 9:11 · Not of works…`` (the whole list);
    :data:`NoteRole` gives the :class:`~amicus_desktop.notes.Note`."""

    def __init__(self, names: NamesSource | None = None, parent: Any = None) -> None:
        super().__init__(parent)
        self._names = names
        self._rows: tuple[Note, ...] = ()
        self._in_chapter = True

    def set_notes(self, notes: tuple[Note, ...], *, in_chapter: bool) -> None:
        self.beginResetModel()
        self._rows = tuple(notes)
        self._in_chapter = in_chapter
        self.endResetModel()

    def note(self, row: int) -> Note | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, note_id: str) -> int:
        return next((i for i, n in enumerate(self._rows) if n.id == note_id), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.column() != 0 or not 0 <= index.row() < len(self._rows):
            return None
        n = self._rows[index.row()]
        names = self._names() if self._names is not None else DEFAULT_NAMES
        if role == NoteRole:
            return n
        place = words.verse_label(n) if self._in_chapter else words.where(n, names)
        if role == Qt.ItemDataRole.DisplayRole:
            return f"{place} · {words.plain_snippet(n.text)}"
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"Your note on {words.where(n, names)}: {words.plain_snippet(n.text)}"
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{words.plain_snippet(n.text, 300)}\n{words.saved_text(n.updated)}"
        return None

"""Item models of the curator workbench: the what-if ranking with grades, one A/B side, snapshot changes.

Each is a read-only ``QAbstractTableModel`` over rows the Qt-free
:class:`~amicus_desktop.session.workbench.Workbench` computed; nothing here ranks or scores. Every
cell says its meaning in words ("▲ 2", "grade 3", "#4 in B"), so colour is never the only carrier.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from ...core.results import RetrievedChunk
from ...evaluate.snapshots import QueryChange
from ...present import titles
from ...session.workbench import WhatIf

Index = QModelIndex | QPersistentModelIndex
_ROOT = QModelIndex()
ChunkIdRole = Qt.ItemDataRole.UserRole + 11

_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)

GRADE_WORDS = {0: "0 not relevant", 1: "1 related", 2: "2 relevant", 3: "3 highly relevant"}


def move_words(move: int | None) -> str:
    """How a rank moved: ``"▲ 2"``, ``"▼ 1"``, ``"="`` or ``"new"``."""
    if move is None:
        return "new"
    if move > 0:
        return f"▲ {move}"
    if move < 0:
        return f"▼ {-move}"
    return "="


class Table(QAbstractTableModel):
    """A flat read-only table: rows, columns and a cell function."""

    COLUMNS: tuple[str, ...] = ()
    RIGHT: frozenset[int] = frozenset()

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._count = 0

    def rowCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else self._count

    def columnCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(self.COLUMNS)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.COLUMNS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT if section in self.RIGHT else _LEFT
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < self._count or not 0 <= index.column() < len(self.COLUMNS):
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return self.cell(index.row(), index.column())
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT if index.column() in self.RIGHT else _LEFT
        if role == ChunkIdRole:
            return self.key(index.row())
        if role == Qt.ItemDataRole.ToolTipRole:
            return self.tooltip(index.row(), index.column())
        return None

    def cell(self, row: int, col: int) -> str:
        raise NotImplementedError

    def key(self, row: int) -> str | None:
        return None

    def tooltip(self, row: int, col: int) -> str | None:
        return None

    def _reset(self, count: int) -> None:
        self.beginResetModel()
        self._count = count
        self.endResetModel()


class _ChunkTable(Table):
    """A table of ranked chunks, keyed by chunk id."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: tuple[RetrievedChunk, ...] = ()

    def row_of(self, chunk_id: str) -> int:
        return next((i for i, r in enumerate(self._rows) if r.chunk_id == chunk_id), -1)

    def key(self, row: int) -> str | None:
        return self._rows[row].chunk_id

    def chunk(self, row: int) -> RetrievedChunk | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def title_tip(self, row: int) -> str:
        """The whole title (the column elides it) and the chunk id."""
        r = self._rows[row]
        return f"{titles.title(r.candidate)}\n{r.chunk_id}"


class RankingModel(_ChunkTable):
    """The question on screen under the what-if weights: rank, move against the saved weights, grade."""

    COLUMNS = ("#", "Move", "Grade", "Score", "Result")
    RANK, MOVE, GRADE, SCORE, TITLE = range(5)
    RIGHT = frozenset({RANK, SCORE})

    def __init__(self, grade: Callable[[str], int | None], parent: Any = None, *,
                 why: Callable[[str], str] | None = None) -> None:
        super().__init__(parent)
        self._grade = grade
        self._why = why
        self._whatif: WhatIf | None = None

    def set_whatif(self, whatif: WhatIf | None) -> None:
        self._whatif = whatif
        self._rows = whatif.result.results if whatif is not None else ()
        self._reset(len(self._rows))

    def grades_changed(self) -> None:
        if self._rows:
            self.dataChanged.emit(self.index(0, self.GRADE), self.index(len(self._rows) - 1, self.GRADE))

    def cell(self, row: int, col: int) -> str:
        r = self._rows[row]
        if col == self.RANK:
            return str(r.rank)
        if col == self.MOVE:
            return move_words(self._whatif.move(r.chunk_id, r.rank)) if self._whatif else ""
        if col == self.GRADE:
            g = self._grade(r.chunk_id)
            return "–" if g is None else str(g)
        if col == self.SCORE:
            return f"{r.score:.4f}"
        return titles.title(r.candidate)

    def tooltip(self, row: int, col: int) -> str | None:
        r = self._rows[row]
        if col == self.GRADE:
            g = self._grade(r.chunk_id)
            if g is None:
                return "Not judged: press 0–3 to grade"
            why = self._why(r.chunk_id) if self._why is not None else ""
            return f"Grade {GRADE_WORDS[g]}" + (f"\nWhy: {why}" if why else "")
        if col == self.MOVE and self._whatif is not None:
            before = self._whatif.saved_ranks.get(r.chunk_id)
            return "Not in the top results under the saved weights" if before is None else \
                f"#{before} under the saved weights"
        return self.title_tip(row)


class SideModel(_ChunkTable):
    """One side of the A/B comparison; the Δ column links each chunk to its rank on the other side."""

    COLUMNS = ("#", "Other side", "Score", "Result")
    RANK, OTHER, SCORE, TITLE = range(4)
    RIGHT = frozenset({RANK, SCORE})

    def __init__(self, other: str, parent: Any = None) -> None:
        super().__init__(parent)
        self._other_name = other
        self._other: Mapping[str, int] = {}

    def set_rows(self, rows: tuple[RetrievedChunk, ...], other_ranks: Mapping[str, int]) -> None:
        self._rows, self._other = rows, other_ranks
        self._reset(len(rows))

    def cell(self, row: int, col: int) -> str:
        r = self._rows[row]
        if col == self.RANK:
            return str(r.rank)
        if col == self.OTHER:
            there = self._other.get(r.chunk_id)
            return f"only {'A' if self._other_name == 'B' else 'B'}" if there is None else \
                f"#{there} in {self._other_name} ({move_words(there - r.rank)})"
        if col == self.SCORE:
            return f"{r.score:.4f}"
        return titles.title(r.candidate)

    def tooltip(self, row: int, col: int) -> str | None:
        if col == self.OTHER:
            return self.cell(row, col)
        return self.title_tip(row)


class ChangesModel(Table):
    """Snapshot A against B, question by question: nDCG@10 on each side and the change."""

    COLUMNS = ("Change", "nDCG@10 A", "nDCG@10 B", "Question")
    DELTA, A, B, QUERY = range(4)
    RIGHT = frozenset({A, B, DELTA})

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[QueryChange] = []

    def set_changes(self, changes: list[QueryChange]) -> None:
        self._rows = changes
        self._reset(len(changes))

    def key(self, row: int) -> str | None:
        return self._rows[row].id

    def change(self, row: int) -> QueryChange | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def tooltip(self, row: int, col: int) -> str | None:
        c = self._rows[row]
        return f"{c.id}: {c.query}" if col == self.QUERY else None

    def cell(self, row: int, col: int) -> str:
        c = self._rows[row]
        if col == self.QUERY:
            return f"{c.id}: {c.query}"
        if col == self.A:
            return "–" if c.a is None else f"{c.a:.3f}"
        if col == self.B:
            return "–" if c.b is None else f"{c.b:.3f}"
        d = c.delta
        if d is None:
            return "not in both"
        if abs(d) < 1e-9:
            return "same"
        return f"{'better' if d > 0 else 'worse'} {d:+.3f}"

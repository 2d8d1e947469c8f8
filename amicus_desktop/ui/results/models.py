"""Item models for results and rejected candidates (the score bar and the note mark are painted by ``paint.py``).

:class:`ResultsModel` is a ``QAbstractTableModel`` over the engine's ``RetrievedChunk`` tuple;
:data:`ChunkRole` returns the raw object and :data:`SortRole` a number, so a
``QSortFilterProxyModel`` can sort any column correctly. Text always names the boost
("×1.5 chapter"); colour is never the only carrier of meaning. Each row says what it is: a
*Title* (:func:`~amicus_desktop.present.titles.title`, with its one-line snippet as the tooltip)
and scholars by their display names, from the open database's own tables (:class:`Names`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt

from ...core.names import DEFAULT_NAMES, Names, NamesSource
from ...core.query import USER_NOTE, RetrievalContext, SearchMode
from ...core.results import RejectedChunk, RetrievedChunk
from ...pin_scopes import PinScope
from ...present import describe, factors
from ...present.titles import snippet, title
from ...session import ResultView
from .. import shortcuts
from ..highlight import tip
from .paint import ScoreFractionRole, note_mark

ChunkRole = Qt.ItemDataRole.UserRole + 1
SortRole = Qt.ItemDataRole.UserRole + 2

Index = QModelIndex | QPersistentModelIndex

_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_CENTER = int(Qt.AlignmentFlag.AlignCenter)
_LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)


class _RowsModel(QAbstractTableModel):
    """A flat, read-only table over a tuple of rows: what both result tables share."""

    COLUMNS: tuple[str, ...] = ()
    _rows: tuple[Any, ...] = ()
    _names: NamesSource | None = None
    _words: tuple[str, ...] = ()  # the words the keyword search looked for: bold in the snippet's tooltip

    @property
    def names(self) -> Names:
        return self._names() if self._names is not None else DEFAULT_NAMES

    def _title(self, item: RetrievedChunk | RejectedChunk) -> str:
        return title(item.candidate, self.names)

    def _title_tip(self, item: RetrievedChunk | RejectedChunk) -> str:
        """The snippet (the searched words in bold), then what the row is in the database's terms."""
        c = item.candidate
        facts = [self.names.reference(c.metadata), describe.source_label(c.source_type), c.chunk_id]
        return tip(snippet(c), self._words, " · ".join(f for f in facts if f))

    def _scholar(self, scholar_id: str | None) -> str:
        return self.names.scholar(scholar_id).name if scholar_id else "—"

    def _in_range(self, index: Index) -> bool:
        return index.isValid() and 0 <= index.row() < len(self._rows) and 0 <= index.column() < len(self.COLUMNS)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren


class ResultsModel(_RowsModel):
    """The top-k results of the last ask (re-ranked as the chapter and profile change)."""

    COLUMNS = ("#", "Move", "Title", "Reference", "Source", "Scholar", "Tradition", "Similarity", "Boosts",
               "Final score")
    RANK, MOVE, TITLE, REFERENCE, SOURCE, SCHOLAR, TRADITION, SIMILARITY, BOOSTS, FINAL = range(10)

    def __init__(self, names: NamesSource | None = None, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: tuple[RetrievedChunk, ...] = ()
        self._view: ResultView | None = None
        self._names = names
        self._max_score = 1.0
        #: where each pin applies (the session's; set by the pane): the Move cell of a pinned row says so
        self.pin_scope: Callable[[str], PinScope] = lambda chunk_id: PinScope(chunk_id, "always", "")

    # -- data in ---------------------------------------------------------------------------
    def set_view(self, view: ResultView | None) -> None:
        self.beginResetModel()
        self._view = view
        self._rows = view.result.results if view is not None else ()
        self._words = tuple(view.result.trace.keywords) if view is not None else ()
        # One scale for every question: 1.0 (a perfect match, unboosted) or the top score if boosted past it.
        self._max_score = max([1.0, *(r.score for r in self._rows)])
        self.endResetModel()

    @property
    def view(self) -> ResultView | None:
        return self._view

    def chunk(self, row: int) -> RetrievedChunk | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, chunk_id: str) -> int:
        return next((i for i, r in enumerate(self._rows) if r.chunk_id == chunk_id), -1)

    # -- QAbstractTableModel ---------------------------------------------------------------
    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.COLUMNS):
            return None
        mode = self._view.result.mode if self._view is not None else SearchMode.SEMANTIC
        if role == Qt.ItemDataRole.DisplayRole:
            if section == self.SIMILARITY:  # the base score's name in the mode on screen
                return describe.BASE_NAMES[mode].capitalize()
            return self.COLUMNS[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            if section == self.SIMILARITY:
                return _BASE_TIPS[mode]
            return _HEADER_TIPS[section]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT if section in (self.RANK, self.SIMILARITY, self.FINAL) else _LEFT
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not self._in_range(index):
            return None
        r = self._rows[index.row()]
        col = index.column()
        if role == ChunkRole:
            return r
        mine = r.candidate.source_type == USER_NOTE  # the reader's own note: a mark of its own, and said so
        if role == Qt.ItemDataRole.DecorationRole and col == self.TITLE and mine:
            return note_mark()
        if role == Qt.ItemDataRole.AccessibleTextRole and col == self.TITLE and mine:
            return f"Your own note: {self._title(r)}"
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return self._text(r, col, accessible=role == Qt.ItemDataRole.AccessibleTextRole)
        if role == SortRole:
            return self._sort(r, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(r, col)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if col in (self.RANK, self.SIMILARITY, self.FINAL):
                return _RIGHT
            if col == self.MOVE:
                return _CENTER
            return _LEFT
        if role == ScoreFractionRole and col == self.FINAL:
            return r.score / self._max_score
        return None

    # -- cells -----------------------------------------------------------------------------
    def _move(self, r: RetrievedChunk) -> tuple[str, str, int]:
        prev = self._view.previous_ranks if self._view else None
        return describe.move_text(r.rank, prev, r.chunk_id)

    def _text(self, r: RetrievedChunk, col: int, *, accessible: bool = False) -> str:
        c = r.candidate
        m = c.metadata
        if col == self.RANK:
            return f"Pinned, rank {r.rank}" if accessible and r.pinned else str(r.rank)
        if col == self.MOVE:
            if r.pinned:  # words, not colour: the Move column is shown whenever a result is pinned
                scope = self.pin_scope(r.chunk_id)
                if accessible:
                    return f"Pinned {describe.pin_scope_text(scope, self.names)}: shown first"
                return describe.pin_scope_short(scope, self.names)
            short, sentence, _ = self._move(r)
            return sentence if accessible else short
        if col == self.TITLE:
            return self._title(r)
        if col == self.REFERENCE:
            return self.names.reference(c.metadata) or "—"
        if col == self.SOURCE:
            return describe.source_label(c.source_type)
        if col == self.SCHOLAR:
            return self._scholar(m.scholar_id)
        if col == self.TRADITION:
            return m.tradition or "—"
        if col == self.SIMILARITY:
            return describe.fmt_score(r.breakdown.base)
        if col == self.BOOSTS:
            return factors.boosts_text(r.breakdown)
        if col == self.FINAL:
            return f"{r.score:.4f}"
        return ""

    def _sort(self, r: RetrievedChunk, col: int) -> Any:
        if col == self.RANK:
            return r.rank
        if col == self.MOVE:
            return self._move(r)[2]
        if col == self.SIMILARITY:
            return r.breakdown.base if r.breakdown.base is not None else -1.0
        if col == self.FINAL:
            return r.score
        if col == self.BOOSTS:
            product = 1.0
            for value in r.breakdown.boosts.values():
                product *= value
            return product
        return self._text(r, col).lower()

    def _tooltip(self, r: RetrievedChunk, col: int) -> str | None:
        c = r.candidate
        if col in (self.RANK, self.MOVE) and r.pinned:
            where = describe.pin_scope_text(self.pin_scope(r.chunk_id), self.names)
            return (f"Pinned {where}: shown first whatever its score (unpin it, or pin it for another scope, from "
                    f"its context menu; {shortcuts.keys_of('toggle_pin')} unpins it)")
        if col == self.MOVE:
            _short, sentence, _ = self._move(r)
            why = describe.cause_text(self._view.cause) if self._view else ""
            return f"{sentence} after {why}" if sentence and why else sentence or None
        if col == self.SOURCE:
            return f"{c.source_type} · {c.source_id}"
        if col == self.FINAL:
            return factors.final_formula(r.breakdown)
        if col == self.SIMILARITY:
            b = r.breakdown
            return (f"{describe.mode_title(b.mode)}: similarity {describe.fmt_score(b.similarity)}, "
                    f"keyword score {describe.fmt_score(b.lexical)}")
        if col == self.REFERENCE:
            return c.chunk_id
        if col == self.TITLE:
            return self._title_tip(r)
        return None


_HEADER_TIPS = (
    "Rank after re-ranking (1 = best)",
    "Pinned, or how the rank moved at the last chapter, profile or pin change",
    "What the chunk is; hover for its first lines",
    "The passage the chunk is about",
    "Kind of source",
    "Scholar (the scholar boost and the per-scholar cap use this)",
    "Tradition (the tradition boost uses this)",
    "1 − cosine distance between the question and the chunk",
    "Multipliers applied: chapter, scholar, tradition, reference",
    "The base score × every boost: what the ranking sorts by",
)

_BASE_TIPS = {
    SearchMode.SEMANTIC: "Semantic search: 1 − cosine distance between the question and the chunk",
    SearchMode.HYBRID: "Hybrid search: the similarity and the keyword score, fused into one base score",
    SearchMode.KEYWORD: "Keyword search: the BM25 score of the question's words, normalised",
}


class RejectedModel(_RowsModel):
    """Candidates that were found but not shown, each with its reason in words."""

    COLUMNS = ("Title", "Reference", "Source", "Scholar", "Similarity", "Score", "Why it is not shown")
    TITLE, REFERENCE, SOURCE, SCHOLAR, SIMILARITY, SCORE, REASON = range(7)

    def __init__(self, names: NamesSource | None = None, parent: Any = None) -> None:
        super().__init__(parent)
        self._names = names
        self._rows: tuple[RejectedChunk, ...] = ()
        self._ctx: RetrievalContext | None = None
        self._positions: dict[str, int] = {}

    def set_view(self, view: ResultView | None) -> None:
        self.beginResetModel()
        self._rows = view.result.rejected if view is not None else ()
        self._words = tuple(view.result.trace.keywords) if view is not None else ()
        self._ctx = view.result.context if view is not None else None
        k = self._ctx.k if self._ctx else 10
        self._positions = describe.cutoff_positions(self._rows, k)
        self.endResetModel()

    def item(self, row: int) -> RejectedChunk | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def reason(self, rej: RejectedChunk) -> str:
        return describe.reject_reason(rej, self._ctx, self._positions.get(rej.chunk_id), self.names)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.COLUMNS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.COLUMNS[section]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT if section in (self.SIMILARITY, self.SCORE) else _LEFT
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not self._in_range(index):
            return None
        rej = self._rows[index.row()]
        col = index.column()
        if role == ChunkRole:
            return rej
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole, Qt.ItemDataRole.ToolTipRole):
            if role == Qt.ItemDataRole.ToolTipRole and col not in (self.REASON, self.REFERENCE, self.TITLE):
                return None
            if col == self.TITLE:
                return self._title_tip(rej) if role == Qt.ItemDataRole.ToolTipRole else self._title(rej)
            if col == self.REFERENCE:
                text = self.names.reference(rej.candidate.metadata) or "—"
                return rej.chunk_id if role == Qt.ItemDataRole.ToolTipRole else text
            if col == self.SOURCE:
                return describe.source_label(rej.candidate.source_type)
            if col == self.SCHOLAR:
                return self._scholar(rej.candidate.metadata.scholar_id)
            if col == self.SIMILARITY:
                return describe.fmt_score(rej.similarity)
            if col == self.SCORE:
                return f"{rej.score:.4f}"
            if col == self.REASON:
                return self.reason(rej)
        if role == SortRole:
            if col == self.SIMILARITY:
                return rej.similarity if rej.similarity is not None else -1.0
            if col == self.SCORE:
                return rej.score
            return str(self.data(index)).lower()
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT if col in (self.SIMILARITY, self.SCORE) else _LEFT
        return None


class SortProxy(QSortFilterProxyModel):
    """Sorts by :data:`SortRole` so numbers sort as numbers."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.setSortRole(SortRole)

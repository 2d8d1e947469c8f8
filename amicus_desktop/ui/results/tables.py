"""The results and rejected tables: how each view is set up, and how the results table fits its width.

The tables never scroll sideways: the title column stretches and elides, and when even that is too
tight the columns the title repeats (tradition, similarity, scholar) are hidden until there is room
again (:func:`fit_columns`).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QFrame, QHeaderView, QTableView

from ..elided import TitleDelegate
from .models import RejectedModel, ResultsModel, SortProxy
from .paint import ScoreBarDelegate

#: The title column never gets narrower than this; columns the title repeats give way first.
TITLE_MIN = 220
#: The Move column's width for "▲ 2" and "new"; a pinned row's "Pinned for John 3" widens it to fit.
MOVE_WIDTH = 56
#: Results columns hidden, in this order, when the table is too narrow for them and the title.
NARROW_DROPS = (ResultsModel.TRADITION, ResultsModel.SIMILARITY, ResultsModel.SCHOLAR)


def results_table(proxy: SortProxy) -> QTableView:
    """The results view over ``proxy``: rank order, the score bar, room for six rows, Ctrl+click
    (or Shift+arrow) selects a second result to compare."""
    view = table(proxy, "Results")
    view.setItemDelegateForColumn(ResultsModel.FINAL, ScoreBarDelegate(view))
    view.setItemDelegateForColumn(ResultsModel.TITLE, TitleDelegate(view))  # a narrow title keeps its passage
    view.sortByColumn(ResultsModel.RANK, Qt.SortOrder.AscendingOrder)
    for col, width in ((ResultsModel.RANK, 34), (ResultsModel.MOVE, MOVE_WIDTH), (ResultsModel.SCHOLAR, 118),
                       (ResultsModel.TRADITION, 96), (ResultsModel.SIMILARITY, 100), (ResultsModel.BOOSTS, 150),
                       (ResultsModel.FINAL, 118)):
        view.setColumnWidth(col, width)
    header = view.horizontalHeader()
    header.setSectionResizeMode(ResultsModel.TITLE, QHeaderView.ResizeMode.Stretch)
    header.setSectionResizeMode(ResultsModel.BOOSTS, QHeaderView.ResizeMode.ResizeToContents)
    view.setColumnHidden(ResultsModel.MOVE, True)
    view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
    # The title says the reference and the kind; their own columns stay in the model for sorting.
    for col in (ResultsModel.REFERENCE, ResultsModel.SOURCE):
        view.setColumnHidden(col, True)
    # Room for six rows however the splitter is dragged or the window sized (1000 × 650 included).
    rows = view.verticalHeader().defaultSectionSize() * 6
    view.setMinimumHeight(rows + view.horizontalHeader().sizeHint().height() + 4)
    # Ctrl+click (or Shift+arrow) a second result to compare the two.
    view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    return view


def rejected_table(proxy: SortProxy) -> QTableView:
    """The rejected view over ``proxy``: the reason stretches; nearest misses first."""
    view = table(proxy, "Rejected candidates")
    view.setItemDelegateForColumn(RejectedModel.TITLE, TitleDelegate(view))
    for col, width in ((RejectedModel.TITLE, 260), (RejectedModel.SCHOLAR, 112),
                       (RejectedModel.SIMILARITY, 74), (RejectedModel.SCORE, 74)):
        view.setColumnWidth(col, width)
    for col in (RejectedModel.REFERENCE, RejectedModel.SOURCE):
        view.setColumnHidden(col, True)
    view.horizontalHeader().setSectionResizeMode(RejectedModel.REASON, QHeaderView.ResizeMode.Stretch)
    # Nearest misses first: what a curator looks for.
    view.sortByColumn(RejectedModel.SCORE, Qt.SortOrder.DescendingOrder)
    return view


def fit_move_column(view: QTableView, model: ResultsModel) -> None:
    """The Move column as wide as its widest pinned cell ("Pinned for John 3"), else :data:`MOVE_WIDTH`."""
    texts = [model.index(row, ResultsModel.MOVE).data() for row in range(model.rowCount())
             if (item := model.chunk(row)) is not None and item.pinned]
    widest = max((view.fontMetrics().horizontalAdvance(str(t)) for t in texts), default=0)
    view.setColumnWidth(ResultsModel.MOVE, max(MOVE_WIDTH, widest + 16))


def fit_columns(view: QTableView, model: ResultsModel, hidden: set[int]) -> None:
    """Hide the columns the title repeats while the title would get less than :data:`TITLE_MIN`;
    ``hidden`` holds the ones hidden for width (shown again first)."""
    for col in hidden:
        view.setColumnHidden(col, False)
    hidden.clear()
    available = view.viewport().width()
    fixed = [c for c in range(model.columnCount())
             if c != ResultsModel.TITLE and not view.isColumnHidden(c)]

    def width(col: int) -> int:
        if col == ResultsModel.BOOSTS:
            return max(view.sizeHintForColumn(col), view.horizontalHeader().sectionSizeHint(col))
        return view.columnWidth(col)

    used = sum(width(c) for c in fixed)
    for col in NARROW_DROPS:
        if available - used >= TITLE_MIN:
            break
        if col in fixed:
            view.setColumnHidden(col, True)
            hidden.add(col)
            used -= width(col)


def table(model: SortProxy, name: str) -> QTableView:
    """A read-only, row-selecting, sortable table without a grid or sideways tab stops."""
    view = QTableView()
    view.setModel(model)
    view.setAccessibleName(name)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setSortingEnabled(True)
    view.setAlternatingRowColors(True)
    view.setShowGrid(False)
    view.setWordWrap(False)
    # other columns elide in the middle; the title columns' delegate keeps the passage and the part whole (the
    # whole title is in the tooltip)
    view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(max(26, view.fontMetrics().height() + 10))
    view.horizontalHeader().setHighlightSections(False)
    view.horizontalHeader().setStretchLastSection(False)
    view.setFrameShape(QFrame.Shape.NoFrame)
    view.setTabKeyNavigation(False)
    return view

"""The results pane: a title and notes over the Results and Rejected tables, and below them the
selected chunk's passage and score breakdown.

:class:`ResultsPane` renders one :class:`~amicus_desktop.session.ResultView` (or the empty
state) and keeps the selection across re-ranks. The detail panes are filled one event-loop turn
after the tables, so a new result set costs two short UI-thread slices instead of one long one
(``tests/ui/test_stall.py``); repeated selections coalesce.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, QTimer
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHeaderView,
    QLabel,
    QSplitter,
    QStackedWidget,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ..core.types import ChapterRef, RejectedChunk, RetrievedChunk
from ..session import ResultView
from . import describe, states
from .banner import Banner
from .breakdown import BreakdownPanel
from .passage import PassagePanel
from .results import ChunkRole, RejectedModel, ResultsModel, ScoreBarDelegate, SortProxy
from .theme import scaled_font

Item = RetrievedChunk | RejectedChunk


class ResultsPane(QWidget):
    """Results, rejected candidates, passage and breakdown for the session's current answer.

    ``book_name`` and ``chapter_label`` come from the session's library (names as the database
    spells them).
    """

    RESULTS_TAB, REJECTED_TAB = 0, 1

    def __init__(self, book_name: describe.BookName, chapter_label: Callable[[ChapterRef | None], str],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._book_name = book_name
        self._chapter_label = chapter_label
        self._pending: Item | None = None
        self._shown: tuple[Item, ResultView] | None = None  # what the detail panes hold
        self._detail_timer = QTimer(self)
        self._detail_timer.setSingleShot(True)
        self._detail_timer.setInterval(0)
        self._detail_timer.timeout.connect(self._render_detail)

        self._build_tables()
        self.title = QLabel()
        self.title.setFont(scaled_font(self.font(), 1.0, bold=True))
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.hide()
        self.stale_note = Banner()

        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.results_view, "Results")
        self.tabs.addTab(self.rejected_view, "Rejected")
        self.tabs.setAccessibleName("Results and rejected candidates")
        self.empty = QLabel(states.EMPTY_RESULTS)
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.empty.setMargin(40)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.tabs)

        results_box = QWidget()
        rl = QVBoxLayout(results_box)
        rl.setContentsMargins(12, 6, 12, 0)
        rl.setSpacing(6)
        rl.addWidget(self.title)
        rl.addWidget(self.stale_note)
        rl.addWidget(self.note)
        rl.addWidget(self.stack, 1)

        self.passage = PassagePanel()
        self.breakdown = BreakdownPanel()
        passage_box = QWidget()
        pl = QVBoxLayout(passage_box)
        pl.setContentsMargins(12, 6, 0, 6)
        pl.setSpacing(4)
        passage_title = QLabel("Passage")
        passage_title.setFont(scaled_font(self.font(), 1.0, bold=True))
        pl.addWidget(passage_title)
        pl.addWidget(self.passage, 1)
        self.detail_split = _splitter(Qt.Orientation.Horizontal, "detailSplit", passage_box, self.breakdown,
                                      stretch=(3, 2), sizes=[540, 420])
        # "rightSplit": the name window.ini has stored this splitter's state under since the first release.
        self.split = _splitter(Qt.Orientation.Vertical, "rightSplit", results_box, self.detail_split,
                               stretch=(5, 4), sizes=[385, 435])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.split)

        self.results_view.selectionModel().currentRowChanged.connect(self._row_changed)
        self.rejected_view.selectionModel().currentRowChanged.connect(self._row_changed)
        self.results_view.activated.connect(self._activated)
        self.rejected_view.activated.connect(self._activated)
        self.tabs.currentChanged.connect(self._tab_changed)
        self.show_view(None)

    def _build_tables(self) -> None:
        self.results_model = ResultsModel(self._book_name, self)
        self.results_proxy = SortProxy(self)
        self.results_proxy.setSourceModel(self.results_model)
        self.results_view = _table(self.results_proxy, "Results")
        self.results_view.setItemDelegateForColumn(ResultsModel.FINAL, ScoreBarDelegate(self.results_view))
        self.results_view.sortByColumn(ResultsModel.RANK, Qt.SortOrder.AscendingOrder)
        for col, width in ((ResultsModel.RANK, 34), (ResultsModel.MOVE, 56), (ResultsModel.REFERENCE, 128),
                           (ResultsModel.SOURCE, 112), (ResultsModel.SCHOLAR, 118), (ResultsModel.TRADITION, 96),
                           (ResultsModel.SIMILARITY, 78), (ResultsModel.FINAL, 118)):
            self.results_view.setColumnWidth(col, width)
        self.results_view.horizontalHeader().setSectionResizeMode(ResultsModel.BOOSTS, QHeaderView.ResizeMode.Stretch)
        self.results_view.setColumnHidden(ResultsModel.MOVE, True)

        self.rejected_model = RejectedModel(self._book_name, self)
        self.rejected_proxy = SortProxy(self)
        self.rejected_proxy.setSourceModel(self.rejected_model)
        self.rejected_view = _table(self.rejected_proxy, "Rejected candidates")
        for col, width in ((RejectedModel.REFERENCE, 124), (RejectedModel.SOURCE, 108), (RejectedModel.SCHOLAR, 112),
                           (RejectedModel.SIMILARITY, 74), (RejectedModel.SCORE, 74)):
            self.rejected_view.setColumnWidth(col, width)
        self.rejected_view.horizontalHeader().setSectionResizeMode(RejectedModel.REASON, QHeaderView.ResizeMode.Stretch)
        # Nearest misses first: what a curator looks for.
        self.rejected_view.sortByColumn(RejectedModel.SCORE, Qt.SortOrder.DescendingOrder)

    # -- input -----------------------------------------------------------------------------
    def show_view(self, view: ResultView | None) -> None:
        """Render ``view`` (``None``: the empty state), keeping the selected result if it is still there."""
        selected = self._selected_chunk_id()
        self.results_model.set_view(view)
        self.rejected_model.set_view(view)
        self.results_view.sortByColumn(ResultsModel.RANK, Qt.SortOrder.AscendingOrder)
        for tab, title in enumerate(describe.tab_titles(view)):
            self.tabs.setTabText(tab, title)
        if view is None:
            self.stack.setCurrentWidget(self.empty)
            self.detail_split.hide()
            self.title.setText("")
            self.note.hide()
            self.stale_note.clear()
            self._clear_detail()
            return
        self.stack.setCurrentWidget(self.tabs)
        self.detail_split.show()
        self.title.setText(describe.results_title(view))
        self.results_view.setColumnHidden(ResultsModel.MOVE, view.previous_ranks is None)
        note = describe.rerank_note(view, self._chapter_label)
        self.note.setText(note or "")
        self.note.setVisible(note is not None)
        if view.stale:
            title, body = states.stale_text(describe.asked_time(view))
            self.stale_note.show_message("info", title, body, compact=True)
        else:
            self.stale_note.clear()
        self._reselect(selected)

    def focus_results(self) -> None:
        self.tabs.setCurrentIndex(self.RESULTS_TAB)
        self.results_view.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def focus_rejected(self) -> None:
        self.tabs.setCurrentIndex(self.REJECTED_TAB)
        self.rejected_view.setFocus(Qt.FocusReason.ShortcutFocusReason)

    @property
    def splitters(self) -> tuple[QSplitter, ...]:
        """The splitters whose positions the window saves and restores."""
        return self.split, self.detail_split

    def shutdown(self) -> None:
        """The window is closing: stop the deferred render and drop the slots of signals that
        children emit while Qt destroys them (a tab widget reports its current tab changing)."""
        self._detail_timer.stop()
        self.tabs.currentChanged.disconnect(self._tab_changed)
        self.results_view.selectionModel().currentRowChanged.disconnect(self._row_changed)
        self.rejected_view.selectionModel().currentRowChanged.disconnect(self._row_changed)

    # -- selection and the detail panes ----------------------------------------------------
    def _selected_chunk_id(self) -> str | None:
        index = self.results_view.currentIndex()
        item = index.data(ChunkRole) if index.isValid() else None
        return item.chunk_id if item is not None else None

    def _reselect(self, chunk_id: str | None) -> None:
        if self.results_proxy.rowCount() == 0:
            self._clear_detail(states.NOTHING_PASSED)
            return
        row = self.results_model.row_of(chunk_id) if chunk_id else -1
        index = self.results_proxy.mapFromSource(self.results_model.index(max(row, 0), 0))
        self.results_view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        )
        self._show_item(index.data(ChunkRole))  # also when the current row did not change

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self._show_item(current.data(ChunkRole))

    def _activated(self, _index: QModelIndex) -> None:
        self.passage.open_link()

    def _tab_changed(self, tab: int) -> None:
        view = self.results_view if tab == self.RESULTS_TAB else self.rejected_view
        current = view.currentIndex()
        if current.isValid():
            self._show_item(current.data(ChunkRole))
        elif tab == self.REJECTED_TAB and self.rejected_proxy.rowCount():
            view.selectRow(0)

    def _show_item(self, item: Item | None) -> None:
        """Show ``item`` in the passage and breakdown panes on the next turn of the event loop."""
        self._pending = item
        self._detail_timer.start()

    def _clear_detail(self, message: str | None = None) -> None:
        if message is None:
            self.passage.clear()
            self.breakdown.clear()
        else:
            self.passage.clear(message)
            self.breakdown.clear("")
        self._shown = None

    def _render_detail(self) -> None:
        item, self._pending = self._pending, None
        view = self.results_model.view
        if item is None or view is None:
            return
        if self._shown is not None and self._shown[0] is item and self._shown[1] is view:
            return
        self._shown = (item, view)
        ctx = view.result.context
        if isinstance(item, RetrievedChunk):
            self.passage.show_candidate(item.candidate, self._book_name)
            self.breakdown.show_chunk(item, ctx, self._book_name, total=len(view.result.results))
        else:
            reason = self.rejected_model.reason(item)
            self.passage.show_candidate(item.candidate, self._book_name, note=describe.not_shown(reason))
            self.breakdown.show_chunk(item, ctx, self._book_name, reason=reason)


def _splitter(orientation: Qt.Orientation, name: str, first: QWidget, second: QWidget, *,
              stretch: tuple[int, int], sizes: list[int]) -> QSplitter:
    split = QSplitter(orientation)
    split.setObjectName(name)
    split.addWidget(first)
    split.addWidget(second)
    split.setStretchFactor(0, stretch[0])
    split.setStretchFactor(1, stretch[1])
    split.setChildrenCollapsible(False)
    split.setSizes(sizes)
    return split


def _table(model: SortProxy, name: str) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setAccessibleName(name)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setSortingEnabled(True)
    view.setAlternatingRowColors(True)
    view.setShowGrid(False)
    view.setWordWrap(False)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.verticalHeader().hide()
    view.verticalHeader().setDefaultSectionSize(max(26, view.fontMetrics().height() + 10))
    view.horizontalHeader().setHighlightSections(False)
    view.horizontalHeader().setStretchLastSection(False)
    view.setFrameShape(QFrame.Shape.NoFrame)
    view.setTabKeyNavigation(False)
    return view

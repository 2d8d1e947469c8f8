"""The results pane: a title and notes over the Results and Rejected tables, and below them the
selected chunk's passage and score breakdown.

:class:`ResultsPane` renders one :class:`~amicus_desktop.session.ResultView` (or the empty
state) and keeps the selection across re-ranks. It composes the parts of this package: the item
models (``models.py``), the tables' set-up and width fitting (``tables.py``), the detail panes under
them (``detail.py``, filled one event-loop turn after the tables), the bundle bar (``bundle_bar.py``),
the splitters (``splitter.py``) and the chapter toggle (``toggle.py``).

Over the tabs: the header (the question; at the tab bar's right end the toggle that ranks it for the
open chapter or the whole library) and *How this was searched* (:class:`~..bundle_views.SearchedPanel`).
The answer's warnings (:class:`~..bundle_views.WarningStrip`) and the re-rank note are inside the Results
tab, over its table: they come and go without moving the tab bar (a click meant for *Verses* never lands on
*Rejected*) and are never shown over the Verses tab, whose verses have their own states. Under the tables,
*Copy as Amicus context* with its token budget and *Export results…* (the window does both). Ctrl+C on a
result copies its text and citation; its context menu is built by :meth:`ResultsPane.result_menu`, which other code
extends by appending to :attr:`ResultsPane.menu_extenders`.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QLabel,
    QSplitter,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...core.names import DEFAULT_NAMES, Names, NamesSource
from ...core.results import RetrievedChunk
from ...present import describe, states
from ...session import ResultView
from .. import shortcuts
from ..bundle_views import SearchedPanel, WarningStrip
from ..chips import ReferenceChips
from ..theme import scaled_font
from ..verses import VersesView
from .bundle_bar import BundleBar
from .detail import DetailArea
from .menu import ResultMenu
from .models import ChunkRole, RejectedModel, ResultsModel, SortProxy
from .splitter import ResultsSplitter, splitter
from .tables import fit_columns, fit_move_column, rejected_table, results_table
from .toggle import ChapterToggle


class ResultsPane(QWidget):
    """Results, rejected candidates, passage and breakdown for the session's current answer.

    ``names`` answers with the session's library's names (as the database spells them).
    """

    RESULTS_TAB, REJECTED_TAB, VERSES_TAB = 0, 1, 2

    #: The window copies the results as Amicus context / exports them / saves a new context budget.
    copyContextRequested = Signal()
    exportRequested = Signal()
    budgetChanged = Signal(int)
    #: A status-bar sentence (what was copied).
    message = Signal(str)

    #: the user asked to pin or unpin this chunk id (context menu)
    pinRequested = Signal(str)
    #: the user asked to pin this chunk id for a scope (``question``, ``passage``, ``always``: context menu)
    pinScopeRequested = Signal(str, str)
    #: the reader turned the open chapter off (``True``: rank for the whole library) or on again
    wholeLibraryRequested = Signal(bool)

    def __init__(self, names: NamesSource = lambda: DEFAULT_NAMES, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._narrow_hidden: set[int] = set()
        self._names = names
        self._online = True
        self.menu = ResultMenu(self)
        #: Called in order to add entries to a result's context menu (the pin entry, for one).
        self.menu_extenders = self.menu.extenders
        #: The context menu of a result (``menu.py``).
        self.result_menu = self.menu.build
        #: The name of the workspace an answer was asked in, for the header (from its context's id).
        self.workspace_name: Callable[[str | None], str] = lambda wid: wid or ""
        #: The name of the chapter open in the reader ("Romans 8"; ``None``: none), for the toggle.
        self.open_chapter: Callable[[], str | None] = lambda: None

        self._build_tables()
        self.title = QLabel()
        self.title.setFont(scaled_font(self.font(), 1.0, bold=True))
        self.title.setWordWrap(True)  # a long question must not widen the window past 1000 px
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.hide()
        self.warnings = WarningStrip()
        self.searched = SearchedPanel()
        self.searched.hide()
        self.chips = ReferenceChips()
        #: whether a chunk id is pinned now (the session's answer; set by the window)
        self.is_pinned: Callable[[str], bool] = lambda _chunk_id: False

        self.chapter_toggle = ChapterToggle()
        self.chapter_toggle.clicked.connect(lambda checked: self.wholeLibraryRequested.emit(not checked))

        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        #: the Results tab's page: the warnings and the re-rank note over the results table
        self.results_page = results_page = QWidget()
        self._page_layout = pl = QVBoxLayout(results_page)
        pl.setContentsMargins(0, 0, 0, 0)
        pl.setSpacing(4)
        pl.addWidget(self.warnings)
        pl.addWidget(self.note)
        pl.addWidget(self.results_view, 1)
        self.tabs.addTab(results_page, "Results")
        # the toggle sits at the tab bar's right end: part of the header, and it costs the tables no height
        self.tabs.setCornerWidget(self.chapter_toggle, Qt.Corner.TopRightCorner)
        self.tabs.addTab(self.rejected_view, "Rejected")
        #: the Bible verses matching the question (``ui/verses.py``), with their own "why this rank"
        self.verses = VersesView()
        self.tabs.addTab(self.verses, "Verses")
        self.tabs.setAccessibleName("Results, rejected candidates and matching verses")
        self.tabs.installEventFilter(self)
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
        rl.addWidget(self.chips)
        rl.addWidget(self.searched)
        rl.addWidget(self.stack, 1)
        self.bundle_bar = BundleBar()
        self.copy_context_button, self.budget = self.bundle_bar.copy_context_button, self.bundle_bar.budget
        self.export_button = self.bundle_bar.export_button
        self.copy_context_button.clicked.connect(self.copyContextRequested.emit)
        self.budget.editingFinished.connect(lambda: self.budgetChanged.emit(self.budget.value()))
        self.export_button.clicked.connect(self.exportRequested.emit)
        rl.addLayout(self.bundle_bar)

        self.detail_area = DetailArea(names, lambda: self.results_model.view, self.rejected_model.reason)
        self.passage, self.breakdown = self.detail_area.passage, self.detail_area.breakdown
        self.compare, self.stale_note = self.detail_area.compare, self.detail_area.stale_note
        self.detail_split, self.detail_stack = self.detail_area.detail_split, self.detail_area.detail_stack
        # "rightSplit": the name window.ini has stored this splitter's state under since the first release.
        self.split = splitter(Qt.Orientation.Vertical, "rightSplit", results_box, self.detail_area,
                              stretch=(5, 4), sizes=[385, 435], kind=ResultsSplitter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.split)

        self.results_view.selectionModel().currentRowChanged.connect(self._row_changed)
        self.rejected_view.selectionModel().currentRowChanged.connect(self._row_changed)
        self.results_view.selectionModel().selectionChanged.connect(self._selection_changed)
        self.results_view.activated.connect(self._activated)
        self.rejected_view.activated.connect(self._activated)
        self.tabs.currentChanged.connect(self._tab_changed)
        self.results_view.customContextMenuRequested.connect(self.menu.popup)
        self.menu_extenders.append(self.menu.pin_entries)
        self.show_view(None)

    def _build_tables(self) -> None:
        self.results_model = ResultsModel(self._names, self)
        self.results_proxy = SortProxy(self)
        self.results_proxy.setSourceModel(self.results_model)
        self.results_view = results_table(self.results_proxy)
        self.results_view.viewport().installEventFilter(self)
        self.rejected_model = RejectedModel(self._names, self)
        self.rejected_proxy = SortProxy(self)
        self.rejected_proxy.setSourceModel(self.rejected_model)
        self.rejected_view = rejected_table(self.rejected_proxy)

    def set_budget(self, tokens: int) -> None:
        """Show the saved context budget (without announcing a change)."""
        self.bundle_bar.set_budget(tokens)

    # -- input -----------------------------------------------------------------------------
    def show_view(self, view: ResultView | None) -> None:
        """Render ``view`` (``None``: the empty state), keeping the selected result if it is still there."""
        selected = self._selected_chunk_id()
        self.results_model.set_view(view)
        self.rejected_model.set_view(view)
        self.results_view.sortByColumn(ResultsModel.RANK, Qt.SortOrder.AscendingOrder)
        for tab, title in enumerate(describe.tab_titles(view)):
            self.tabs.setTabText(tab, title)
        self.warnings.show_warnings(view.shown_warnings if view is not None else [])
        self.searched.show_result(view.result if view is not None else None, self._names())
        self.bundle_bar.set_enabled(view is not None)
        if view is None:
            self.stack.setCurrentWidget(self.empty)
            self.detail_area.hide()
            self.title.setText("")
            self.chapter_toggle.hide()
            self.chips.set_references((), self._names())
            self.note.hide()
            self.stale_note.clear()
            self.detail_area.clear()
            return
        self.stack.setCurrentWidget(self.tabs)
        self.detail_area.setVisible(self.tabs.currentIndex() != self.VERSES_TAB)
        ctx = view.result.context
        self.title.setText(describe.results_title(view, self._names(),
                                                  self.workspace_name(ctx.workspace if ctx else None)))
        self.title.setToolTip(view.result.query)
        self.chips.set_references(view.result.trace.references, self._names())
        self.chapter_toggle.show_answer(view, self._names(), self.open_chapter())
        pinned = any(r.pinned for r in view.result.results)
        self.results_view.setColumnHidden(ResultsModel.MOVE, view.previous_ranks is None and not pinned)
        fit_move_column(self.results_view, self.results_model)
        self._fit_columns()
        note = describe.rerank_note(view, self._names(), shortcuts.keys_of("undo_rerank").split(", ")[0])
        self.note.setText(note or "")
        self.note.setVisible(note is not None)
        # the note and the warnings are inside the Results tab: coming, they resize no tab, so look again here
        QTimer.singleShot(0, self, self._keep_rows_visible)
        self._render_stale()
        self._reselect(selected)

    def pin_choices(self) -> list[tuple[str, str]]:
        """The scopes a result can be pinned for now, each with its menu words (the narrow one first)."""
        view = self.results_model.view
        question = view.result.query if view is not None else ""
        chapter = self.open_chapter()
        return describe.pin_choices(question, chapter)

    def set_online(self, online: bool) -> None:
        """The proxy's reachability: the stale note's wording follows it."""
        if online != self._online:
            self._online = online
            self._render_stale()

    def _render_stale(self) -> None:
        view = self.results_model.view
        if view is not None and view.stale:
            title, body = states.stale_text(describe.asked_time(view), self._online, shortcuts.keys_of("ask_again"))
            self.stale_note.show_message("info", title, body, compact=True)
        else:
            self.stale_note.clear()

    # -- the selected result ----------------------------------------------------------------
    def names(self) -> Names:
        """How the open database names books and scholars."""
        return self._names()

    def current_result(self) -> RetrievedChunk | None:
        index = self.results_view.currentIndex()
        item = index.data(ChunkRole) if index.isValid() else None
        return item if isinstance(item, RetrievedChunk) else None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and watched is self.results_view.viewport():
            self._fit_columns()
        if event.type() == QEvent.Type.Resize and watched is self.tabs:
            QTimer.singleShot(0, self, self._keep_rows_visible)
        return super().eventFilter(watched, event)

    def _keep_rows_visible(self) -> None:
        """Give the tables the height their six rows need, out of the detail panes below them, when a
        short window or a two-line note over the tables left them less (the splitter shares a smaller
        height out in proportion, not by need)."""
        deficit = max(self.tabs.minimumSizeHint().height(), self._results_tab_needs()) - self.tabs.height()
        if deficit <= 0 or not self.tabs.isVisible():
            return
        top, bottom = self.split.sizes()
        spare = bottom - self.detail_area.minimumSizeHint().height()
        move = min(deficit, spare)
        if move > 0:
            self.split.setSizes([top + move, bottom - move])

    def _results_tab_needs(self) -> int:
        """The Results tab's height for its table's six rows under the warnings and the note shown now, at
        the width they have (a wrapped note's minimum size does not count its second line)."""
        width, layout = self.results_page.width(), self._page_layout
        above = [w for w in (self.warnings, self.note) if w.isVisibleTo(self.results_page)]
        heights = [w.heightForWidth(width) if w.hasHeightForWidth() else w.sizeHint().height() for w in above]
        margins = layout.contentsMargins()
        return (self.tabs.tabBar().sizeHint().height() + margins.top() + margins.bottom() + sum(heights)
                + layout.spacing() * len(above) + self.results_view.minimumHeight())

    def _fit_columns(self) -> None:
        fit_columns(self.results_view, self.results_model, self._narrow_hidden)

    def focus_results(self) -> None:
        self.tabs.setCurrentIndex(self.RESULTS_TAB)
        self.results_view.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def selected_results(self) -> list[RetrievedChunk]:
        """The results selected in the table, best rank first."""
        rows = self.results_view.selectionModel().selectedRows()
        items = [r.data(ChunkRole) for r in rows]
        return sorted((i for i in items if isinstance(i, RetrievedChunk)), key=lambda r: r.rank)

    def compare_next(self) -> None:
        """Ctrl+D: compare the current result with the next one (the previous one for the last);
        when two are already compared, go back to the current one alone."""
        view, sel = self.results_view, self.results_view.selectionModel()
        current = view.currentIndex()
        rows = self.results_proxy.rowCount()
        if rows < 2:
            return
        self.tabs.setCurrentIndex(self.RESULTS_TAB)
        flags = QItemSelectionModel.SelectionFlag
        if len(self.selected_results()) == 2:
            sel.select(current, flags.ClearAndSelect | flags.Rows)
            return
        row = current.row() if current.isValid() else 0
        other = row + 1 if row + 1 < rows else row - 1
        sel.select(self.results_proxy.index(row, 0), flags.ClearAndSelect | flags.Rows)
        sel.select(self.results_proxy.index(other, 0), flags.Select | flags.Rows)
        view.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _selection_changed(self, *_args: object) -> None:
        pair = self.selected_results()
        view = self.results_model.view
        if len(pair) == 2 and view is not None:
            self.detail_area.show_pair(pair[0], pair[1], view)
        else:
            self.detail_area.show_single()

    def focus_breakdown(self) -> None:
        """Keyboard focus on "Why this rank" (the arrow keys scroll it)."""
        self.breakdown.scroll_area.setFocus(Qt.FocusReason.ShortcutFocusReason)

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
        self.detail_area.stop()
        self.tabs.currentChanged.disconnect(self._tab_changed)
        self.results_view.selectionModel().currentRowChanged.disconnect(self._row_changed)
        self.results_view.selectionModel().selectionChanged.disconnect(self._selection_changed)
        self.rejected_view.selectionModel().currentRowChanged.disconnect(self._row_changed)

    # -- selection and the detail panes ----------------------------------------------------
    def _selected_chunk_id(self) -> str | None:
        index = self.results_view.currentIndex()
        item = index.data(ChunkRole) if index.isValid() else None
        return item.chunk_id if item is not None else None

    def _reselect(self, chunk_id: str | None) -> None:
        if self.results_proxy.rowCount() == 0:
            self.detail_area.clear(states.NOTHING_PASSED)
            return
        row = self.results_model.row_of(chunk_id) if chunk_id else -1
        index = self.results_proxy.mapFromSource(self.results_model.index(max(row, 0), 0))
        self.results_view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        )
        self.detail_area.show_item(index.data(ChunkRole))  # also when the current row did not change

    def _row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self.detail_area.show_item(current.data(ChunkRole))

    def _activated(self, _index: QModelIndex) -> None:
        self.passage.open_link()

    def _tab_changed(self, tab: int) -> None:
        # the verses explain themselves inside their tab: the chunk's passage and breakdown make way
        self.detail_area.setVisible(tab != self.VERSES_TAB and self.results_model.view is not None)
        if tab == self.VERSES_TAB:
            return
        view = self.results_view if tab == self.RESULTS_TAB else self.rejected_view
        current = view.currentIndex()
        if current.isValid():
            self.detail_area.show_item(current.data(ChunkRole))
        elif tab == self.REJECTED_TAB and self.rejected_proxy.rowCount():
            view.selectRow(0)

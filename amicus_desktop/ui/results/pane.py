"""The results pane: a title and notes over the Results and Rejected tables, and below them the
selected chunk's passage and score breakdown.

:class:`ResultsPane` renders one :class:`~amicus_desktop.session.ResultView` (or the empty
state) and keeps the selection across re-ranks. The detail panes are filled one event-loop turn
after the tables, so a new result set costs two short UI-thread slices instead of one long one
(``tests/ui/test_stall.py``); repeated selections coalesce.

Over the tables: the answer's warnings (:class:`~.bundle_views.WarningStrip`) and *How this was
searched* (:class:`~.bundle_views.SearchedPanel`); under them, *Copy as Amicus context* with its token
budget and *Export results…* (the window does both). Ctrl+C on a result copies its text and citation;
its context menu is built by :meth:`ResultsPane.result_menu`, which other code extends by appending
to :attr:`ResultsPane.menu_extenders`.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QGuiApplication, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QPushButton,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ..bundle.export import clip_text
from ..core.references import ChapterRef
from ..core.results import RejectedChunk, RetrievedChunk
from ..present import describe, states
from ..present.titles import DEFAULT_NAMES, Names, citation
from ..session import ResultView
from ..settings import MAX_CONTEXT_BUDGET, MIN_CONTEXT_BUDGET
from .banner import Banner
from .breakdown import BreakdownPanel
from .bundle_views import SearchedPanel, WarningStrip
from .chips import ReferenceChips
from .compare import ComparePanel
from .passage import PassagePanel
from .results import ChunkRole, RejectedModel, ResultsModel, ScoreBarDelegate, SortProxy
from .theme import scaled_font

Item = RetrievedChunk | RejectedChunk

#: Adds entries to a result's context menu (``menu``, the result it is for).
MenuExtender = Callable[[QMenu, RetrievedChunk], None]

#: The title column never gets narrower than this; columns the title repeats give way first.
TITLE_MIN = 220
#: Results columns hidden, in this order, when the table is too narrow for them and the title.
NARROW_DROPS = (ResultsModel.TRADITION, ResultsModel.SIMILARITY, ResultsModel.SCHOLAR)


class ResultsPane(QWidget):
    """Results, rejected candidates, passage and breakdown for the session's current answer.

    ``book_name``, ``chapter_label`` and ``names`` come from the session's library (names as the
    database spells them). The tables never scroll sideways: the title column stretches and elides,
    and when even that is too tight the columns the title repeats (tradition, similarity,
    scholar) are hidden until there is room again.
    """

    RESULTS_TAB, REJECTED_TAB = 0, 1

    #: The window copies the results as Amicus context / exports them / saves a new context budget.
    copyContextRequested = Signal()
    exportRequested = Signal()
    budgetChanged = Signal(int)
    #: A status-bar sentence (what was copied).
    message = Signal(str)

    #: the user asked to pin or unpin this chunk id (context menu)
    pinRequested = Signal(str)

    def __init__(self, book_name: describe.BookName, chapter_label: Callable[[ChapterRef | None], str],
                 parent: QWidget | None = None, *, names: Callable[[], Names] = lambda: DEFAULT_NAMES) -> None:
        super().__init__(parent)
        self._book_name = book_name
        self._names = names
        self._narrow_hidden: set[int] = set()
        self._chapter_label = chapter_label
        self._names = names
        self._online = True
        #: Called in order to add entries to a result's context menu (the pin entry, for one).
        self.menu_extenders: list[MenuExtender] = []
        self._pending: Item | None = None
        self._shown: tuple[Item, ResultView] | None = None  # what the detail panes hold
        self._detail_timer = QTimer(self)
        self._detail_timer.setSingleShot(True)
        self._detail_timer.setInterval(0)
        self._detail_timer.timeout.connect(self._render_detail)

        self._build_tables()
        self.title = QLabel()
        self.title.setFont(scaled_font(self.font(), 1.0, bold=True))
        self.title.setWordWrap(True)  # a long question must not widen the window past 1000 px
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.hide()
        self.stale_note = Banner()
        self.warnings = WarningStrip()
        self.searched = SearchedPanel()
        self.searched.hide()
        self.chips = ReferenceChips()
        #: whether a chunk id is pinned now (the session's answer; set by the window)
        self.is_pinned: Callable[[str], bool] = lambda _chunk_id: False

        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.results_view, "Results")
        self.tabs.addTab(self.rejected_view, "Rejected")
        self.tabs.setAccessibleName("Results and rejected candidates")
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
        rl.addWidget(self.warnings)
        rl.addWidget(self.note)
        rl.addWidget(self.searched)
        rl.addWidget(self.stack, 1)
        rl.addLayout(self._build_bundle_bar())

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
        self.compare = ComparePanel()
        # They scroll, so a short window with a banner under the pane may leave them two lines.
        for area in (self.passage.view, self.breakdown.scroll_area, self.compare.left.scroll_area,
                     self.compare.right.scroll_area):
            area.setMinimumHeight(self.fontMetrics().lineSpacing() * 2)
        self.detail_stack = QStackedWidget()  # the selected result's detail, or two results compared
        self.detail_stack.addWidget(self.detail_split)
        self.detail_stack.addWidget(self.compare)
        # Under the results: the note that they are from before the proxy went away, then the detail.
        # The note is here, not over the table, so it appearing or going never moves the results.
        self.detail_area = QWidget()
        low = QVBoxLayout(self.detail_area)
        low.setContentsMargins(0, 0, 0, 0)
        low.setSpacing(0)
        note_row = QHBoxLayout()  # (empty, and so without its margins, while the note is hidden)
        note_row.setContentsMargins(12, 2, 12, 0)
        note_row.addWidget(self.stale_note)
        low.addLayout(note_row)
        low.addWidget(self.detail_stack, 1)
        # "rightSplit": the name window.ini has stored this splitter's state under since the first release.
        self.split = _splitter(Qt.Orientation.Vertical, "rightSplit", results_box, self.detail_area,
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
        self.results_view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.results_view.customContextMenuRequested.connect(self._context_menu)
        self.menu_extenders.append(self.pin_entries)
        self.show_view(None)

    def _build_bundle_bar(self) -> QHBoxLayout:
        """Under the results: *Copy as Amicus context*, its budget, and *Export results…*."""
        self.copy_context_button = QPushButton("Copy as Amicus context")
        self.copy_context_button.setToolTip("Copy the results as a prompt-ready block with citations, "
                                            "within the token budget")
        self.copy_context_button.clicked.connect(self.copyContextRequested.emit)
        self.budget = QSpinBox()
        self.budget.setRange(MIN_CONTEXT_BUDGET, MAX_CONTEXT_BUDGET)
        self.budget.setSingleStep(500)
        self.budget.setGroupSeparatorShown(True)
        self.budget.setSuffix(" tokens")
        self.budget.setAccessibleName("Context budget in tokens")
        self.budget.setToolTip("The most tokens the copied context may use (counted with the model's tokenizer)")
        self.budget.editingFinished.connect(lambda: self.budgetChanged.emit(self.budget.value()))
        budget_label = QLabel("Budget:")
        budget_label.setBuddy(self.budget)
        self.export_button = QPushButton("Export results…")
        self.export_button.clicked.connect(self.exportRequested.emit)
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 4, 0, 4)
        bar.setSpacing(6)
        bar.addWidget(self.copy_context_button)
        bar.addWidget(budget_label)
        bar.addWidget(self.budget)
        bar.addStretch(1)
        bar.addWidget(self.export_button)
        return bar

    def set_budget(self, tokens: int) -> None:
        """Show the saved context budget (without announcing a change)."""
        if not self.budget.hasFocus():
            self.budget.blockSignals(True)
            self.budget.setValue(tokens)
            self.budget.blockSignals(False)

    def _build_tables(self) -> None:
        self.results_model = ResultsModel(self._book_name, self, names=self._names)
        self.results_proxy = SortProxy(self)
        self.results_proxy.setSourceModel(self.results_model)
        self.results_view = _table(self.results_proxy, "Results")
        self.results_view.setItemDelegateForColumn(ResultsModel.FINAL, ScoreBarDelegate(self.results_view))
        self.results_view.sortByColumn(ResultsModel.RANK, Qt.SortOrder.AscendingOrder)
        for col, width in ((ResultsModel.RANK, 34), (ResultsModel.MOVE, 56), (ResultsModel.SCHOLAR, 118),
                           (ResultsModel.TRADITION, 96), (ResultsModel.SIMILARITY, 100), (ResultsModel.BOOSTS, 150),
                           (ResultsModel.FINAL, 118)):
            self.results_view.setColumnWidth(col, width)
        header = self.results_view.horizontalHeader()
        header.setSectionResizeMode(ResultsModel.TITLE, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(ResultsModel.BOOSTS, QHeaderView.ResizeMode.ResizeToContents)
        self.results_view.setColumnHidden(ResultsModel.MOVE, True)
        self.results_view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.results_view.customContextMenuRequested.connect(self._context_menu)
        # The title says the reference and the kind; their own columns stay in the model for sorting.
        for col in (ResultsModel.REFERENCE, ResultsModel.SOURCE):
            self.results_view.setColumnHidden(col, True)
        self.results_view.viewport().installEventFilter(self)
        # Room for six rows however the splitter is dragged or the window sized (1000 × 650 included).
        rows = self.results_view.verticalHeader().defaultSectionSize() * 6
        self.results_view.setMinimumHeight(rows + self.results_view.horizontalHeader().sizeHint().height() + 4)
        # Ctrl+click (or Shift+arrow) a second result to compare the two.
        self.results_view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)

        self.rejected_model = RejectedModel(self._book_name, self, names=self._names)
        self.rejected_proxy = SortProxy(self)
        self.rejected_proxy.setSourceModel(self.rejected_model)
        self.rejected_view = _table(self.rejected_proxy, "Rejected candidates")
        for col, width in ((RejectedModel.TITLE, 260), (RejectedModel.SCHOLAR, 112),
                           (RejectedModel.SIMILARITY, 74), (RejectedModel.SCORE, 74)):
            self.rejected_view.setColumnWidth(col, width)
        for col in (RejectedModel.REFERENCE, RejectedModel.SOURCE):
            self.rejected_view.setColumnHidden(col, True)
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
        self.warnings.show_warnings(view.result.warnings if view is not None else [])
        self.searched.show_result(view.result if view is not None else None, self._book_name)
        self.copy_context_button.setEnabled(view is not None)
        self.export_button.setEnabled(view is not None)
        if view is None:
            self.stack.setCurrentWidget(self.empty)
            self.detail_area.hide()
            self.title.setText("")
            self.chips.set_references((), self._book_name)
            self.note.hide()
            self.stale_note.clear()
            self._clear_detail()
            return
        self.stack.setCurrentWidget(self.tabs)
        self.detail_area.show()
        self.title.setText(describe.results_title(view))
        self.title.setToolTip(view.result.query)
        self.chips.set_references(view.result.trace.references, self._book_name)
        pinned = any(r.pinned for r in view.result.results)
        self.results_view.setColumnHidden(ResultsModel.MOVE, view.previous_ranks is None and not pinned)
        self._fit_columns()
        note = describe.rerank_note(view, self._chapter_label)
        self.note.setText(note or "")
        self.note.setVisible(note is not None)
        self._render_stale()
        self._reselect(selected)

    def set_online(self, online: bool) -> None:
        """The proxy's reachability: the stale note's wording follows it."""
        if online != self._online:
            self._online = online
            self._render_stale()

    def _render_stale(self) -> None:
        view = self.results_model.view
        if view is not None and view.stale:
            title, body = states.stale_text(describe.asked_time(view), self._online)
            self.stale_note.show_message("info", title, body, compact=True)
        else:
            self.stale_note.clear()

    # -- copying a result --------------------------------------------------------------------
    def current_result(self) -> RetrievedChunk | None:
        index = self.results_view.currentIndex()
        item = index.data(ChunkRole) if index.isValid() else None
        return item if isinstance(item, RetrievedChunk) else None

    def use_copy_action(self, action: QAction) -> None:
        """Ctrl+C (``action``, from the shortcut table) copies the selected result while the results
        table has the focus, and nowhere else: text fields keep their own copy."""
        action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.results_view.addAction(action)

    def copy_current(self) -> None:
        """Ctrl+C on a result: its text and a citation line."""
        r = self.current_result()
        if r is not None:
            self._copy(clip_text(r.candidate, self._names()), f"Copied result {r.rank} with its citation")

    def _copy(self, text: str, message: str) -> None:
        QGuiApplication.clipboard().setText(text)
        self.message.emit(message)

    def result_menu(self, r: RetrievedChunk) -> QMenu:
        """The context menu of result ``r``: copy text / citation / chunk id, open in the reader, then
        whatever :attr:`menu_extenders` add."""
        menu = QMenu(self)
        names = self._names()
        menu.addAction("Copy text", lambda: self._copy(clip_text(r.candidate, names),
                                                       f"Copied result {r.rank} with its citation"))
        menu.addAction("Copy citation", lambda: self._copy(citation(r.candidate, names),
                                                           f"Copied the citation of result {r.rank}"))
        menu.addAction("Copy chunk id", lambda: self._copy(r.chunk_id, f"Copied the chunk id {r.chunk_id}"))
        m = r.candidate.metadata
        open_action = menu.addAction("Open in reader", lambda: self.passage.passageRequested.emit(
            m.book_id or "", m.chapter_num or 1, m.verse_start or 0, m.verse_end or m.verse_start or 0))
        open_action.setEnabled(bool(m.book_id))
        for extend in self.menu_extenders:
            extend(menu, r)
        return menu

    def _context_menu(self, pos: QPoint) -> None:
        index = self.results_view.indexAt(pos)
        r = index.data(ChunkRole) if index.isValid() else None
        if isinstance(r, RetrievedChunk):
            self.result_menu(r).popup(self.results_view.viewport().mapToGlobal(pos))

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
        deficit = self.tabs.minimumSizeHint().height() - self.tabs.height()
        if deficit <= 0 or not self.tabs.isVisible():
            return
        top, bottom = self.split.sizes()
        spare = bottom - self.detail_area.minimumSizeHint().height()
        move = min(deficit, spare)
        if move > 0:
            self.split.setSizes([top + move, bottom - move])

    def _fit_columns(self) -> None:
        """Hide the columns the title repeats while the title would get less than :data:`TITLE_MIN`."""
        view = self.results_view
        for col in self._narrow_hidden:
            view.setColumnHidden(col, False)
        self._narrow_hidden.clear()
        available = view.viewport().width()
        fixed = [c for c in range(self.results_model.columnCount())
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
                self._narrow_hidden.add(col)
                used -= width(col)

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
            names = self._current_names() or Names()
            self.compare.show_pair(pair[0], pair[1], view.result.context, self._book_name, names,
                                   len(view.result.results))
            self.detail_stack.setCurrentWidget(self.compare)
        else:
            self.detail_stack.setCurrentWidget(self.detail_split)

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
        self._detail_timer.stop()
        self.tabs.currentChanged.disconnect(self._tab_changed)
        self.results_view.selectionModel().currentRowChanged.disconnect(self._row_changed)
        self.results_view.selectionModel().selectionChanged.disconnect(self._selection_changed)
        self.rejected_view.selectionModel().currentRowChanged.disconnect(self._row_changed)

    def pin_entries(self, menu: QMenu, r: RetrievedChunk) -> None:
        """The pin entry of a result's context menu (a :attr:`menu_extenders` hook)."""
        menu.addSeparator()
        pinned = self.is_pinned(r.chunk_id)
        action = menu.addAction("Unpin this result" if pinned else "Pin this result to the top")
        action.setShortcut("Ctrl+B")
        action.triggered.connect(lambda: self.pinRequested.emit(r.chunk_id))

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
            self.passage.show_candidate(item.candidate, self._book_name, names=self._current_names())
            self.breakdown.show_chunk(item, ctx, self._book_name, total=len(view.result.results),
                                      references=view.result.trace.references)
        else:
            reason = self.rejected_model.reason(item)
            self.passage.show_candidate(item.candidate, self._book_name, note=describe.not_shown(reason),
                                        names=self._current_names())
            self.breakdown.show_chunk(item, ctx, self._book_name, reason=reason,
                                      references=view.result.trace.references)


    def _current_names(self) -> Names | None:
        return self._names() if self._names is not None else None


class ResultsSplitter(QSplitter):
    """The results over the detail panes, where the results never move for something inside the window.

    When the splitter's height changes while the window's does not (a banner under the results
    pane appeared or went), the results keep their height and the detail panes below, which
    scroll, take the whole change. A change of the window's own height is shared out by the
    stretch factors, as in any splitter.
    """

    def __init__(self, orientation: Qt.Orientation, parent: QWidget | None = None) -> None:
        super().__init__(orientation, parent)
        self._window_height: int | None = None

    def resizeEvent(self, event: QResizeEvent) -> None:
        top, bottom = self.widget(0), self.widget(1)
        first = self.sizes()[0] if self.count() else 0  # before the splitter shares the change out
        window = self.window().height()
        inside = (self._window_height == window and event.oldSize().height() > 0
                  and event.size().height() != event.oldSize().height())
        self._window_height = window
        super().resizeEvent(event)
        if inside and top is not None and bottom is not None and bottom.isVisibleTo(self):
            total = sum(self.sizes())
            keep = max(top.minimumSizeHint().height(), min(first, total - bottom.minimumSizeHint().height()))
            if keep != self.sizes()[0]:
                self.setSizes([keep, total - keep])


def _splitter(orientation: Qt.Orientation, name: str, first: QWidget, second: QWidget, *,
              stretch: tuple[int, int], sizes: list[int], kind: type[QSplitter] = QSplitter) -> QSplitter:
    split = kind(orientation)
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

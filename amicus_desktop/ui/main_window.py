"""The main window: reader on the left; question, results, breakdown and rejections on the right.

The window is composition, menus and actions: it lays out the panes, forwards user intent to the
:class:`~amicus_desktop.session.Session` and renders its state, which arrives through
:class:`~.session_signals.SessionSignals`. The results and their detail panes are
:class:`~.results_pane.ResultsPane`; every sentence shown comes from ``states.py`` or
``describe.py``. Window geometry, dock and splitter positions live in QSettings
(``config_dir()/window.ini``); everything else the user chooses is in the typed settings file.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QGuiApplication, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QFrame,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from .. import __version__, paths, resources
from ..bundle.export import ExportError, ExportFormat, export_result
from ..connectivity import Connectivity, ProxyState
from ..context import Context, WordPieceCounter, assemble
from ..core.errors import AmicusError, ErrorCode
from ..core.query import Filters, Profile, SearchMode
from ..core.references import ChapterRef, PassageRef
from ..core.results import RetrievalResult
from ..present import bounds, citation, describe, states
from ..session import (
    DB_CODES,
    MODES,
    AskFailure,
    ChapterNotes,
    ChapterText,
    DbState,
    DbStatus,
    ResultView,
    Session,
)
from ..session.workbench import Workbench
from ..settings import Settings
from ..understand import PassageError
from . import shortcuts, theme
from .ask import AskBar
from .banner import Banner
from .commentary import CommentaryPane
from .elided import ElidedLabel
from .filter_bar import FilterBar
from .profile import ProfilePanel
from .reader import ReaderPane
from .results_pane import ResultsPane
from .session_signals import SessionSignals
from .settings_dialog import SettingsDialog, choose_database
from .start_page import StartPage
from .workbench import WorkbenchPanel

log = logging.getLogger("amicus.ui")

DEFAULT_SIZE = (1480, 920)


def window_settings() -> QSettings:
    """QSettings for geometry and splitters, beside the settings file (``AMICUS_HOME`` aware)."""
    return QSettings(str(paths.config_dir() / "window.ini"), QSettings.Format.IniFormat)


class MainWindow(QMainWindow):
    """One window over one :class:`~amicus_desktop.session.Session`."""

    closed = Signal()

    def __init__(self, session: Session, *, qsettings: QSettings | None = None, restore: bool = True) -> None:
        super().__init__()
        self.session = session
        self.signals = SessionSignals(session, self)
        self.qsettings = qsettings
        self._is_closed = False
        self.setWindowTitle("Amicus Desktop")
        self.setObjectName("mainWindow")
        self.setDockOptions(QMainWindow.DockOption.AnimatedDocks | QMainWindow.DockOption.AllowTabbedDocks)

        self._build_widgets()
        self._build_actions()
        self._build_menus()
        self._build_status_bar()
        self._connect()

        # The offline banner counts down to the next check.
        self.countdown = QTimer(self)
        self.countdown.setInterval(500)
        self.countdown.timeout.connect(self._tick)
        self.countdown.start()

        self.resize(*DEFAULT_SIZE)
        if restore and qsettings is not None:
            self._restore_layout()
        self._render_result(session.question.view)
        self._render_db(session.library.state)
        self._render_connectivity(session.connection.state)
        self.ask.set_profile(session.prefs.profile)
        self.profile_panel.set_weights(session.prefs.settings.weights)
        self._focus_ask_when_ready = False
        self._shown_once = False
        self._appearance: tuple[int | None, str] | None = None
        self._render_appearance(session.prefs.settings)
        self._render_mode(session.search.mode)
        self._render_pins(session.search.pins)
        self._render_filters(session.search.filters)

    # -- construction ----------------------------------------------------------------------
    def _build_widgets(self) -> None:
        library = self.session.library
        self.reader = ReaderPane()
        self.banner = Banner()
        self.notice_banner = Banner()
        self.ask = AskBar()
        self.results = ResultsPane(library.book_name, library.chapter_label, names=lambda: library.names)
        self._bundle_tasks: set[asyncio.Future[Any]] = set()
        self.results.is_pinned = self.session.search.is_pinned
        self.filter_bar = FilterBar()

        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rv.setSpacing(0)
        rv.addWidget(self.ask)
        rv.addWidget(self.filter_bar)
        rv.addWidget(_hline())
        rv.addWidget(self.results, 1)
        # The banners sit under the results, above the status bar: one appearing or going takes its
        # height from the passage pane (the results splitter gives it there), never moves the question
        # box or the results table. In the layout, not floating, so they stay in the Tab order.
        rv.addWidget(self.notice_banner)
        rv.addWidget(self.banner)
        self.banner.countdown_samples = states.COUNTDOWN_SAMPLES

        self.commentary = CommentaryPane(lambda: library.names)
        self.left_split = QSplitter(Qt.Orientation.Vertical)
        self.left_split.setObjectName("leftSplit")
        self.left_split.addWidget(self.reader)
        self.left_split.addWidget(self.commentary)
        self.left_split.setStretchFactor(0, 3)
        self.left_split.setStretchFactor(1, 2)
        self.left_split.setSizes([540, 300])
        self.left_split.setChildrenCollapsible(False)

        self.main_split = QSplitter(Qt.Orientation.Horizontal)
        self.main_split.setObjectName("mainSplit")
        self.main_split.addWidget(self.left_split)
        self.main_split.addWidget(right)
        self.main_split.setStretchFactor(0, 2)
        self.main_split.setStretchFactor(1, 3)
        self.main_split.setSizes([520, 960])
        self.main_split.setChildrenCollapsible(False)

        self.start_page = StartPage({
            states.BUILD_DEMO: self.build_demo,
            states.OPEN_DB: self.open_database,
            states.RELOAD: self.session.reload,
            states.SETTINGS: self.open_settings,
        })
        self.stack = QStackedWidget()
        self.stack.addWidget(self.main_split)
        self.stack.addWidget(self.start_page)
        self.setCentralWidget(self.stack)

        self.profile_panel = ProfilePanel()
        self.profile_dock = QDockWidget("Profile", self)
        self.profile_dock.setObjectName("profileDock")
        self.profile_dock.setWidget(self.profile_panel)
        self.profile_dock.setAllowedAreas(Qt.DockWidgetArea.LeftDockWidgetArea | Qt.DockWidgetArea.RightDockWidgetArea)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.profile_dock)
        self.profile_dock.hide()
        self._sizes_before_dock: list[int] | None = None
        self.profile_dock.visibilityChanged.connect(self._dock_visibility)

        self.workbench = Workbench(self.session)
        self.workbench_panel = WorkbenchPanel(self.workbench)
        self.workbench_dock = QDockWidget("Curator workbench", self)
        self.workbench_dock.setObjectName("workbenchDock")
        self.workbench_dock.setWidget(self.workbench_panel)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.workbench_dock)
        self.workbench_dock.hide()
        self.workbench_dock.visibilityChanged.connect(self._workbench_visibility)

    def _build_actions(self) -> None:
        handlers = {
            "focus_ask": self.focus_ask,
            "goto": self.reader.focus_goto,
            "prev_chapter": lambda: self.session.step_chapter(-1),
            "next_chapter": lambda: self.session.step_chapter(1),
            "focus_results": self.results.focus_results,
            "focus_reader": lambda: self.reader.text.setFocus(Qt.FocusReason.ShortcutFocusReason),
            "show_rejected": self.results.focus_rejected,
            "focus_breakdown": self.results.focus_breakdown,
            "commentary": self.toggle_commentary,
            "compare": self.results.compare_next,
            "zoom_in": lambda: self.step_font_size(1),
            "zoom_out": lambda: self.step_font_size(-1),
            "zoom_reset": lambda: self.session.prefs.set_font_size(None),
            "profile": self.toggle_profile,
            "workbench": self.toggle_workbench,
            "retry": self.retry_now,
            "history_prev": lambda: self.walk_history(-1),
            "history_next": lambda: self.walk_history(1),
            "ask_again": self.ask_again,
            "copy_result": self.results.copy_current,
            "copy_context": self.copy_context,
            "searched": self.toggle_searched,
            "export": self.export_results,
            "open_db": self.open_database,
            "settings": self.open_settings,
            "help": self.show_shortcuts,
            "quit": self.close,
            "cycle_mode": self.session.cycle_mode,
            "filters": self.toggle_filters,
            "toggle_pin": self.toggle_pin,
        }
        self.actions_by_id = shortcuts.make_actions(self, handlers)
        self.removeAction(self.actions_by_id["copy_result"])  # the results table's own, not window-wide
        self.results.use_copy_action(self.actions_by_id["copy_result"])
        self.build_action = QAction("Build the demo database…", self)
        self.build_action.triggered.connect(self.build_demo)
        self.about_action = QAction("About Amicus Desktop", self)
        self.about_action.triggered.connect(self.show_about)
        self.new_golden_action = QAction("&New golden set…", self)
        self.new_golden_action.triggered.connect(lambda: self.new_golden_set())
        self.open_golden_action = QAction("Open &golden set…", self)
        self.open_golden_action.triggered.connect(lambda: self.open_golden_set())
    def _build_menus(self) -> None:
        a = self.actions_by_id
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addAction(a["open_db"])
        file_menu.addAction(self.build_action)
        file_menu.addSeparator()
        file_menu.addAction(a["export"])
        file_menu.addAction(self.new_golden_action)
        file_menu.addAction(self.open_golden_action)
        file_menu.addSeparator()
        file_menu.addAction(a["settings"])
        file_menu.addSeparator()
        file_menu.addAction(a["quit"])
        self.edit_menu = bar.addMenu("&Edit")
        self.edit_menu.addAction(a["copy_context"])
        go = bar.addMenu("&Go")
        for key in ("focus_ask", "goto", "prev_chapter", "next_chapter"):
            go.addAction(a[key])
        view = bar.addMenu("&View")
        for key in ("focus_reader", "focus_results", "show_rejected", "searched", "focus_breakdown", "compare",
                    "commentary", "profile", "workbench"):
            view.addAction(a[key])
        a["commentary"].setCheckable(True)
        a["commentary"].setChecked(True)
        view.addSeparator()
        for key in ("zoom_in", "zoom_out", "zoom_reset"):
            view.addAction(a[key])
        scheme_menu = view.addMenu("Colour &scheme")
        group = QActionGroup(self)
        self.scheme_actions: dict[str, QAction] = {}
        for scheme, label in (("system", "Follow the &system"), ("light", "&Light"), ("dark", "&Dark")):
            action = QAction(label, self)
            action.setCheckable(True)
            action.setChecked(self.session.prefs.settings.color_scheme == scheme)
            action.triggered.connect(lambda _checked=False, choice=scheme: self.session.prefs.set_color_scheme(choice))
            group.addAction(action)
            scheme_menu.addAction(action)
            self.scheme_actions[scheme] = action
        self._build_search_menu()
        conn = bar.addMenu("&Connection")
        conn.addAction(a["retry"])
        help_menu = bar.addMenu("&Help")
        help_menu.addAction(a["help"])
        help_menu.addAction(self.about_action)

    def _build_search_menu(self) -> None:
        """Search: the three modes (one checked), the filters, and the pins with *Unpin all*."""
        a = self.actions_by_id
        menu = self.menuBar().addMenu("&Search")
        self.mode_group = QActionGroup(self)
        self.mode_actions: dict[SearchMode, QAction] = {}
        for mode in MODES:
            action = QAction(describe.mode_title(mode), self.mode_group)
            action.setCheckable(True)
            action.setToolTip(describe.MODE_HELP[mode])
            action.triggered.connect(lambda _checked=False, m=mode: self.session.set_mode(m))
            menu.addAction(action)
            self.mode_actions[mode] = action
        menu.addAction(a["cycle_mode"])
        menu.addSeparator()
        menu.addAction(a["filters"])
        self.clear_filters_action = menu.addAction("Clear filters")
        self.clear_filters_action.triggered.connect(lambda: self.session.set_filters(Filters()))
        menu.addSeparator()
        menu.addAction(a["toggle_pin"])
        self.pins_menu = menu.addMenu("Pins")
        self.pins_menu.aboutToShow.connect(self._fill_pins_menu)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.proxy_status = QLabel()
        self.proxy_status.setAccessibleName("Proxy state")
        # The model's name is long: it elides (whole in its tooltip) before the timings are cut.
        self.model_status = ElidedLabel()
        self.model_status.setAccessibleName("Model")
        self.chunks_status = QLabel()
        self.chunks_status.setAccessibleName("Chunks")
        self.timing_status = QLabel(states.NO_SEARCH_YET)
        self.timing_status.setAccessibleName("Last timings")
        for w in (self.timing_status, self.chunks_status, self.model_status, self.proxy_status):
            w.setContentsMargins(8, 0, 8, 0)
        bar.addWidget(self.proxy_status)
        bar.addPermanentWidget(self.model_status)
        bar.addPermanentWidget(self.chunks_status)
        bar.addPermanentWidget(self.timing_status)

    def _connect(self) -> None:
        s, sig = self.session, self.signals
        sig.dbStateChanged.connect(self._render_db)
        sig.connectivityChanged.connect(self._render_connectivity)
        sig.busyChanged.connect(self._render_busy)
        sig.resultChanged.connect(self._render_result)
        sig.askFailed.connect(self._render_ask_error)
        sig.chapterChanged.connect(self._render_chapter)
        sig.chapterLoaded.connect(self._render_chapter_text)
        sig.focusChanged.connect(self.reader.set_focus)
        sig.booksLoaded.connect(self.reader.set_books)
        sig.facetsLoaded.connect(self._render_facets)
        sig.profileChanged.connect(self._render_profile)
        sig.settingsChanged.connect(self._render_settings)
        sig.settingsNotice.connect(self.show_notice)
        sig.modeChanged.connect(self._render_mode)
        sig.filtersChanged.connect(self._render_filters)
        sig.pinsChanged.connect(self._render_pins)
        self.ask.mode_switch.modeChosen.connect(s.set_mode)
        self.filter_bar.filtersChanged.connect(s.set_filters)
        self.results.pinRequested.connect(s.toggle_pin)
        self.results.chips.passageRequested.connect(self.open_passage)
        self.reader.chapterRequested.connect(s.set_chapter)
        self.reader.stepRequested.connect(s.step_chapter)
        self.reader.referenceEntered.connect(self.goto_reference)
        self.ask.askRequested.connect(self._ask)
        self.ask.profileClicked.connect(self.toggle_profile)
        self.profile_panel.profileEdited.connect(s.set_profile)
        self.results.passage.passageRequested.connect(self.open_passage)
        self.results.warnings.suggestionChosen.connect(self.ask_suggestion)
        self.results.copyContextRequested.connect(self.copy_context)
        self.results.exportRequested.connect(self.export_results)
        self.results.budgetChanged.connect(self.session.prefs.set_context_budget)
        self.results.message.connect(self.show_status)
        self.results.set_budget(self.session.prefs.settings.context_budget)
        self.results.passage.versesWanted.connect(s.read_passage)
        self.commentary.passageRequested.connect(self.open_passage)
        sig.notesLoaded.connect(self._render_notes)
        sig.passageLoaded.connect(self.results.passage.show_verses)

    # -- user intents ----------------------------------------------------------------------
    def _ask(self, text: str) -> None:
        self.ask.clear_error()
        self.session.ask(text)

    def focus_ask(self) -> None:
        self.ask.focus()

    def show_status(self, text: str) -> None:
        """A passing sentence in the status bar (what was copied or exported)."""
        self.statusBar().showMessage(text, 8000)

    # -- history and asking again ----------------------------------------------------------
    def walk_history(self, step: int) -> None:
        """Alt+Up / Alt+Down: an earlier or later question of this session into the question box."""
        history = self.session.question.history
        text = history.older(self.ask.edit.text()) if step < 0 else history.newer()
        if text is not None:
            self.ask.edit.setText(text)
            self.ask.focus()

    def ask_again(self) -> None:
        """Ctrl+R: ask the question that failed, else the one on screen (a stale answer refreshes)."""
        q = self.session.question
        text = q.failed_text or (q.view.result.query if q.view is not None else self.ask.edit.text())
        if text.strip() and self.session.can_ask:
            self.ask.edit.setText(text)
            self._ask(text)

    def ask_suggestion(self, text: str) -> None:
        """The warning strip's *Did you mean …?*: ask the re-spelt question."""
        self.ask.edit.setText(text)
        self._ask(text)

    def toggle_searched(self) -> None:
        panel = self.results.searched
        if panel.isVisible():
            panel.set_expanded(not panel.expanded)
            if panel.expanded:
                panel.toggle.setFocus(Qt.FocusReason.ShortcutFocusReason)

    # -- copy as context and export ------------------------------------------------------------
    def _in_background(self, work: asyncio.Future[Any]) -> None:
        self._bundle_tasks.add(work)
        work.add_done_callback(self._bundle_tasks.discard)

    def copy_context(self) -> None:
        """*Copy as Amicus context*: the results assembled within the budget (off the UI thread: the
        tokenizer loads and counts there), then put on the clipboard."""
        view = self.session.question.view
        if view is None:
            self.show_status(states.COPY_NOTHING)
            return
        budget = self.session.prefs.settings.context_budget
        names = self.session.library.names
        results = view.result.results

        def build() -> Context:
            return assemble(results, budget=budget, count=WordPieceCounter(), cite=lambda r: citation(r, names))

        work = asyncio.ensure_future(asyncio.to_thread(build))
        work.add_done_callback(self._context_built)
        self._in_background(work)

    def _context_built(self, work: asyncio.Future[Context]) -> None:
        if self._is_closed or work.cancelled():
            return
        exc = work.exception()
        if exc is not None:
            log.error("context assembly failed", exc_info=exc)
            self.show_status(f"Could not assemble the context ({type(exc).__name__}); see the log.")
            return
        ctx = work.result()
        QGuiApplication.clipboard().setText(ctx.text)
        self.show_status(describe.context_copied(ctx))

    def export_results(self) -> None:
        """File ▸ Export results…: a save dialog for JSON or CSV; the file is written off the UI thread."""
        view = self.session.question.view
        if view is None:
            self.show_status(states.EXPORT_NOTHING)
            return
        dialog = QFileDialog(self, "Export results", str(Path.home() / "amicus-results.json"))
        dialog.setObjectName("exportDialog")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setFileMode(QFileDialog.FileMode.AnyFile)
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        dialog.setNameFilters(list(states.EXPORT_FILTERS.values()))
        dialog.setDefaultSuffix("json")
        dialog.filterSelected.connect(lambda f: dialog.setDefaultSuffix(
            "csv" if f == states.EXPORT_FILTERS["csv"] else "json"))
        result = view.result

        def chosen(path: str) -> None:
            fmt = ExportFormat.for_path(Path(path))
            if fmt is None:
                csv = dialog.selectedNameFilter() == states.EXPORT_FILTERS["csv"]
                fmt = ExportFormat.CSV if csv else ExportFormat.JSON
            self.export_to(result, Path(path), fmt)

        dialog.fileSelected.connect(chosen)
        self.export_dialog = dialog
        dialog.open()

    def _export_failed(self, message: str) -> None:
        box = QMessageBox(QMessageBox.Icon.Warning, "Export failed", message, QMessageBox.StandardButton.Ok, self)
        box.setObjectName("exportFailed")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.show_status(message)
        box.open()

    def export_to(self, result: RetrievalResult, path: Path, fmt: ExportFormat) -> asyncio.Future[int]:
        """Write ``result`` to ``path`` off the UI thread; the status bar or a message box says how it went."""
        names = self.session.library.names
        protected = [self.session.prefs.endpoints.db_path]
        work = asyncio.ensure_future(asyncio.to_thread(export_result, result, path, fmt, names, protected))

        def done(w: asyncio.Future[int]) -> None:
            if self._is_closed or w.cancelled():
                return
            exc = w.exception()
            if isinstance(exc, ExportError):
                self._export_failed(exc.message)
            elif exc is not None:
                log.error("export crashed", exc_info=exc)
                self._export_failed(f"Export failed ({type(exc).__name__}); see the log.")
            else:
                self.show_status(states.exported(w.result(), str(path)))

        work.add_done_callback(done)
        self._in_background(work)
        return work

    def toggle_commentary(self) -> None:
        """Show or hide the chapter's commentary under the reader (Ctrl+Shift+N)."""
        visible = self.commentary.isHidden()
        self.commentary.setVisible(visible)
        self.actions_by_id["commentary"].setChecked(visible)
        if visible:
            self.commentary.list.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def search_by_words(self) -> None:
        """The offline banner's *Search by words instead*: switch to keyword mode, visibly."""
        self.session.set_mode(SearchMode.KEYWORD)

    def toggle_filters(self) -> None:
        opened = not self.filter_bar.toggle.isChecked()
        self.filter_bar.set_open(opened)
        if opened:
            self.filter_bar.buttons["source_types"].setFocus(Qt.FocusReason.ShortcutFocusReason)

    def toggle_pin(self) -> None:
        """Pin or unpin the selected result (Ctrl+B)."""
        r = self.results.current_result()
        if r is not None:
            self.session.toggle_pin(r.chunk_id)

    def _fill_pins_menu(self) -> None:
        """The pins, by title where the results on screen name them, and *Unpin all*."""
        self.pins_menu.clear()
        pins = self.session.search.pins
        view = self.session.question.view
        shown = {r.chunk_id: r for r in view.result.results} if view is not None else {}
        for chunk_id in pins[: bounds.MAX_PIN_ITEMS]:
            r = shown.get(chunk_id)
            label = (describe.reference(r.candidate, self.session.library.book_name) or chunk_id) if r else chunk_id
            action = self.pins_menu.addAction(f"Unpin {label}")
            action.setToolTip(chunk_id)
            action.triggered.connect(lambda _checked=False, c=chunk_id: self.session.toggle_pin(c))
        if len(pins) > bounds.MAX_PIN_ITEMS:  # a menu of ten thousand items is no menu
            self.pins_menu.addAction(bounds.more(len(pins) - bounds.MAX_PIN_ITEMS, "pins")).setEnabled(False)
        if not pins:
            self.pins_menu.addAction("No pins: right-click a result to pin it").setEnabled(False)
        self.pins_menu.addSeparator()
        clear = self.pins_menu.addAction("Unpin all")
        clear.setEnabled(bool(pins))
        clear.triggered.connect(self.session.clear_pins)

    def toggle_profile(self) -> None:
        visible = not self.profile_dock.isVisible()
        if visible:
            self._sizes_before_dock = self.main_split.sizes()
            results_width = self._sizes_before_dock[1]
            self.profile_dock.setVisible(True)
            self.resizeDocks([self.profile_dock], [250], Qt.Orientation.Horizontal)
            # The dock's width comes out of the reader, not the results table.
            QTimer.singleShot(0, self, lambda: self._keep_results_width(results_width))
            self.profile_panel.scholars.setFocus(Qt.FocusReason.ShortcutFocusReason)
        else:
            self.profile_dock.setVisible(False)

    def _dock_visibility(self, visible: bool) -> None:
        if not visible and self._sizes_before_dock is not None:
            sizes, self._sizes_before_dock = self._sizes_before_dock, None
            QTimer.singleShot(0, self, lambda: self.main_split.setSizes(sizes))

    def _keep_results_width(self, width: int) -> None:
        total = sum(self.main_split.sizes())
        reader = max(280, total - width)
        self.main_split.setSizes([reader, max(0, total - reader)])

    def toggle_workbench(self) -> None:
        """Show the curator workbench with the focus on its ranking, or hide it."""
        if self.workbench_dock.isVisible():
            self.workbench_dock.setVisible(False)
            return
        # In a narrow window (1000 px) the reader and the workbench cannot both fit beside the results:
        # the reader steps aside while the workbench is open (a curator works on the ranking) and
        # comes back when it closes. The window never grows past the screen.
        needed = (self.main_split.minimumSizeHint().width() + self.workbench_panel.minimumSizeHint().width()
                  + 24)
        width = self.width()
        self.left_split.setVisible(width >= needed)
        self.workbench_dock.setVisible(True)
        self.resizeDocks([self.workbench_dock], [560], Qt.Orientation.Horizontal)
        if self.left_split.isHidden():  # showing the dock grew the window before the layout caught up
            QTimer.singleShot(50, self, lambda: self._shrink_to(width))
        self.workbench_panel.focus_ranking()
        QTimer.singleShot(0, self, self.workbench_panel.focus_ranking)  # once the re-shown dock can take it

    def _shrink_to(self, width: int) -> None:
        layout = self.layout()
        if layout is not None:
            layout.activate()  # the minimum without the reader
        self.resize(width, self.height())

    def _workbench_visibility(self, visible: bool) -> None:
        if not visible:
            self.left_split.setVisible(True)

    def new_golden_set(self, name: str | None = None) -> None:
        if name is None:
            name, ok = QInputDialog.getText(self, "New golden set", "Name of the golden set:")
            if not ok:
                return
        if self.workbench.new_golden(name) is not None and not self.workbench_dock.isVisible():
            self.toggle_workbench()

    def open_golden_set(self, path: str | None = None) -> None:
        if path is None:
            folder = paths.golden_dir()  # the curator's own sets; until there are some, the shipped one's folder
            start = folder if folder.is_dir() else resources.resource_path("golden")
            path, _ = QFileDialog.getOpenFileName(self, "Open a golden set", str(start),
                                                  "Golden sets (*.json);;All files (*)")
            if not path:
                return
        self.workbench.open_golden(path)
        if not self.workbench_dock.isVisible():
            self.toggle_workbench()

    def retry_now(self) -> None:
        """The banner's *Retry now* (F5): after a failed answer ask again; otherwise probe the proxy."""
        s = self.session
        text = s.question.failed_text or self.ask.edit.text()
        state = s.connection.state.state
        failed_online = state is ProxyState.ONLINE and s.question.failed_text is not None
        if (state is ProxyState.EMBED_FAILED or failed_online) and text.strip() and not s.question.busy:
            self.ask.edit.setText(text)
            self._ask(text)
            return
        s.connection.retry_now()
        self._render_connectivity(s.connection.state)

    def goto_reference(self, text: str) -> None:
        try:
            passage = self.session.reader.resolve(text)
        except PassageError as err:
            self.reader.show_goto_error(states.unknown_reference(text, str(err)))
            return
        self.session.open_passage(passage)
        self.reader.goto_edit.clear()
        self.reader.text.setFocus(Qt.FocusReason.OtherFocusReason)

    def open_passage(self, book: str, chapter: int, start: int, end: int) -> None:
        self.session.open_passage(PassageRef(book, chapter, start or None, (end or start) or None))

    def open_database(self) -> None:
        path = choose_database(self, str(self.session.prefs.endpoints.db_path.parent))
        if path:
            self.session.open_database(path)

    def open_settings(self) -> None:
        prefs = self.session.prefs
        writable = prefs.store.writable
        dialog = SettingsDialog(prefs.settings, writable=writable, notice=None if writable else prefs.store.notice,
                                parent=self, in_use=prefs.in_use())
        if dialog.exec() == SettingsDialog.DialogCode.Accepted:
            self.session.apply_settings(dialog.result_settings())

    def build_demo(self) -> None:
        from .build_dialog import BuildDialog

        out = paths.default_db_path()
        dialog = BuildDialog(out, parent=self)
        dialog.finishedOk.connect(lambda _report: self.session.open_database(out))
        dialog.failed.connect(lambda msg: log.warning("demo build failed", extra={"reason": msg[:200]}))
        dialog.show()
        self._build_task = dialog.start()

    def show_shortcuts(self) -> None:
        dialog = shortcuts.ShortcutsDialog(self)
        dialog.exec()

    def show_about(self) -> None:
        QMessageBox.about(self, "About Amicus Desktop",
                          states.about_html(__version__, paths.config_dir(), paths.log_dir()))

    def show_notice(self, text: str) -> None:
        """A note about the settings file, with *Settings…* to correct what it names."""
        notice = states.notice_text(text)
        self.notice_banner.show_message(notice.kind, notice.title, notice.body,
                                        [("Settings…", self.open_settings), ("Dismiss", self.notice_banner.clear)])

    def _show_notice(self, text: states.StateText) -> None:
        self.notice_banner.show_message(text.kind, text.title, text.body, [("Dismiss", self.notice_banner.clear)],
                                        detail=text.advice)

    # -- rendering ---------------------------------------------------------------------------
    def _render_db(self, db: DbState) -> None:
        self.model_status.setText(states.model_status(db))
        self.chunks_status.setText(states.chunks_status(db))
        self.chunks_status.setToolTip(str(db.info.path) if db.info is not None else "")
        if db.status is DbStatus.READY:
            self.stack.setCurrentWidget(self.main_split)
        elif db.status is DbStatus.MISSING:
            self.start_page.show_state(states.welcome_text(str(db.path)), "WELCOME")
            self.stack.setCurrentWidget(self.start_page)
        elif db.status is DbStatus.ERROR and db.error is not None:
            self.start_page.show_state(states.db_text(db.error, str(db.path)), db.error.code.value)
            self.stack.setCurrentWidget(self.start_page)
        self._update_ask_availability()

    def _render_connectivity(self, c: Connectivity) -> None:
        self.proxy_status.setText(states.proxy_status(c))
        self.proxy_status.setToolTip(states.proxy_tooltip(c))
        self._render_banner()
        self._update_ask_availability()
        self.results.set_online(c.state is ProxyState.ONLINE)
        failed = self.session.question.failed_text
        if failed is not None and c.state is ProxyState.ONLINE and not self.session.question.busy:
            self.ask.set_status(states.ask_again_hint(failed))

    def _render_banner(self) -> None:
        c = self.session.connection.state
        text = states.proxy_text(c, c.seconds_to_next_check(), self.session.search.mode)
        if text is None:
            self.banner.clear()
            return
        handlers = {states.RETRY: self.retry_now, states.SETTINGS: self.open_settings,
                    states.OPEN_DB: self.open_database,
                    states.KEYWORD: self.search_by_words}
        actions = [(states.ACTION_LABELS[a], handlers[a]) for a in text.actions if a in handlers]
        self.banner.show_message(text.kind, text.title, text.body, actions, detail=text.advice,
                                 countdown=text.countdown)

    def _tick(self) -> None:
        c = self.session.connection.state
        if c.state is ProxyState.OFFLINE and self.banner.isVisible():
            text = states.proxy_text(c, c.seconds_to_next_check(), self.session.search.mode)
            if text is not None:
                self.banner.set_countdown(text.countdown)

    def _update_ask_availability(self) -> None:
        s = self.session
        ok = s.can_ask
        self.ask.set_available(ok, "" if ok else states.ask_disabled_reason(s.connection.state, s.library.ready))
        if ok and self._focus_ask_when_ready:
            self._focus_ask_when_ready = False
            held = self.focusWidget()
            if held is None or (held is self.reader.goto_edit and not self.reader.goto_edit.text()):
                self.ask.focus()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._shown_once:
            self._shown_once = True
            self._initial_focus()

    def _initial_focus(self) -> None:
        """Start in the question box; while asking is not yet possible (the proxy is being checked),
        in the go-to box, moving to the question box once it is (unless the user went elsewhere)."""
        if self.ask.edit.isEnabled():
            self.ask.focus()
        else:
            self.reader.goto_edit.setFocus(Qt.FocusReason.OtherFocusReason)
            self._focus_ask_when_ready = True

    def _render_busy(self, busy: bool) -> None:
        self.ask.set_busy(busy, states.BUSY if self.session.search.mode.embeds else states.BUSY_KEYWORD)

    def _render_chapter(self, ref: ChapterRef | None) -> None:
        label = self.session.library.chapter_label(ref)
        self.setWindowTitle(f"{label} — Amicus Desktop" if label else "Amicus Desktop")
        self.ask.set_context(label)
        self.reader.set_chapter(ref, label)
        if ref is not None and not self.session.library.ready:
            self.reader.show_message(label, states.READ_NEEDS_DB)

    def _render_chapter_text(self, text: ChapterText) -> None:
        label = self.session.library.chapter_label(text.ref)
        self.reader.show_text(text.ref, label, list(text.verses), "" if text.verses else states.NO_CHAPTER_TEXT)

    def _render_notes(self, notes: ChapterNotes) -> None:
        self.commentary.set_notes(notes, self.session.library.chapter_label(notes.ref))

    def _render_facets(self, facets: dict[str, list[tuple[str, int]]]) -> None:
        self.profile_panel.set_facets(facets, self.session.prefs.profile)
        library = self.session.library
        self.filter_bar.set_choices(facets, library.books, library.names)

    def _render_mode(self, mode: SearchMode) -> None:
        self.ask.mode_switch.set_mode(mode)
        self.mode_actions[mode].setChecked(True)
        self._render_banner()
        self._update_ask_availability()

    def _render_filters(self, filters: Filters) -> None:
        self.filter_bar.set_filters(filters)
        self.clear_filters_action.setEnabled(filters.active)

    def _render_pins(self, pins: tuple[str, ...]) -> None:
        self.pins_menu.setTitle(f"Pins ({len(pins)})")

    def _render_settings(self, settings: Settings) -> None:
        self.profile_panel.set_weights(settings.weights)
        self.results.set_budget(settings.context_budget)
        self._render_appearance(settings)

    def _render_appearance(self, settings: Settings) -> None:
        """Reading text size and colour scheme, from the settings (applied only when they change).

        The scheme goes first: a new application style sheet resets the fonts widgets were given,
        so the reading size is applied after it (and after a scheme change the system makes).
        """
        appearance = (settings.font_size, settings.color_scheme)
        if appearance == self._appearance:
            return
        old, self._appearance = self._appearance, appearance
        if old is None or old[1] != settings.color_scheme:
            app = QApplication.instance()
            if isinstance(app, QApplication):
                theme.apply_scheme(app, settings.color_scheme)
                if old is None:
                    app.styleHints().colorSchemeChanged.connect(self._apply_reading_size)
            for scheme, action in getattr(self, "scheme_actions", {}).items():
                action.setChecked(scheme == settings.color_scheme)
        self._apply_reading_size()

    def _apply_reading_size(self, *_args: object) -> None:
        size = theme.reading_size(self.session.prefs.settings.font_size, self.font())
        self.reader.set_text_size(size)
        self.results.passage.set_text_size(size)
        self.commentary.set_text_size(size)

    def step_font_size(self, delta: int) -> None:
        """Ctrl+= / Ctrl+-: the reading text one point larger or smaller (saved)."""
        current = theme.reading_size(self.session.prefs.settings.font_size, self.font())
        self.session.prefs.set_font_size(round(current) + delta)

    def _render_profile(self, profile: Profile) -> None:
        self.ask.set_profile(profile)
        self.profile_panel.set_profile(profile)

    def _render_ask_error(self, err: AskFailure) -> None:
        if not isinstance(err, AmicusError):
            self._show_notice(states.internal_error_text(err))
            self.ask.set_status(states.ASK_FAILED)
        elif err.code is ErrorCode.QUERY_INVALID:
            self.ask.show_error(states.query_error_text(err))
        elif err.code not in DB_CODES:  # the start page shows a database's failure
            self.ask.set_status(states.ASK_FAILED)

    def _render_result(self, view: ResultView | None) -> None:
        self.results.show_view(view)
        if view is not None:
            self.timing_status.setText(describe.timings_text(view))
            self.ask.set_status(describe.ask_status(view))
            if view.cause == "ask" and view.result.trace.embedding_cached:
                self.show_status(f"Asked again: {describe.VECTOR_REUSED}")

    # -- layout persistence ------------------------------------------------------------------
    def _splitters(self) -> tuple[QSplitter, ...]:
        return (self.main_split, self.left_split, self.commentary.split, *self.results.splitters)

    def _restore_layout(self) -> None:
        qs = self.qsettings
        assert qs is not None
        geometry = qs.value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        state = qs.value("window/state")
        if state is not None:
            self.restoreState(state)
        for split in self._splitters():
            value = qs.value(f"splitters/{split.objectName()}")
            if value is not None:
                split.restoreState(value)
        if str(qs.value("window/commentary", "true")).lower() == "false":
            self.toggle_commentary()

    def save_layout(self) -> None:
        qs = self.qsettings
        if qs is None:
            return
        qs.setValue("window/geometry", self.saveGeometry())
        qs.setValue("window/state", self.saveState())
        for split in self._splitters():
            qs.setValue(f"splitters/{split.objectName()}", split.saveState())
        qs.setValue("window/commentary", "true" if self.commentary.isVisibleTo(self) else "false")
        qs.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._is_closed:
            self._is_closed = True
            self.countdown.stop()
            for work in list(self._bundle_tasks):
                work.cancel()
            self.signals.detach()  # the session goes on emitting while it closes; the widgets don't listen
            self.save_layout()
            # Children emit while Qt destroys them (the dock reports its visibility, the tabs their
            # current tab); slots of a half-destroyed window must not run then.
            self.profile_dock.visibilityChanged.disconnect(self._dock_visibility)
            self.results.shutdown()
            self.workbench_panel.detach()
            self.workbench.close()
            self.closed.emit()
        event.accept()


def _hline() -> QFrame:
    line = QFrame()
    line.setFrameShape(QFrame.Shape.HLine)
    line.setFrameShadow(QFrame.Shadow.Sunken)
    return line

"""The main window: reader on the left; question, results, breakdown and rejections on the right.

The window only renders :class:`~amicus_desktop.ui.session.Session` state and forwards user
intent to it. Window geometry, dock and splitter positions live in QSettings
(``config_dir()/window.ini``); everything else the user chooses is in the typed settings file.
"""

from __future__ import annotations

import logging
import time

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QFrame,
    QHeaderView,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QStackedWidget,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from .. import __version__, paths
from ..connectivity import Connectivity, ProxyState
from ..core.errors import AmicusError, ErrorCode
from ..core.types import ChapterRef, Profile, RejectedChunk, RetrievedChunk
from ..settings import Settings
from . import gcguard, shortcuts, states
from .ask import AskBar
from .banner import Banner
from .breakdown import BreakdownPanel
from .passage import PassagePanel
from .profile import ProfilePanel
from .reader import ReaderPane
from .results import ChunkRole, RejectedModel, ResultsModel, ScoreBarDelegate, SortProxy
from .session import DB_CODES, DbState, DbStatus, ResultView, Session
from .settings_dialog import SettingsDialog, choose_database
from .start_page import StartPage
from .theme import scaled_font

log = logging.getLogger("amicus.ui")

DEFAULT_SIZE = (1480, 920)


def window_settings() -> QSettings:
    """QSettings for geometry and splitters, beside the settings file (``AMICUS_HOME`` aware)."""
    return QSettings(str(paths.config_dir() / "window.ini"), QSettings.Format.IniFormat)


class MainWindow(QMainWindow):
    """One window over one :class:`Session`."""

    closed = Signal()

    def __init__(self, session: Session, *, qsettings: QSettings | None = None, restore: bool = True) -> None:
        super().__init__()
        gcguard.ensure_started()  # before any of this window's QObjects can end up in a cycle
        self.session = session
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

        self._pending_item: RetrievedChunk | RejectedChunk | None = None
        self.shown: tuple[object, object] | None = None  # (item, view) in the detail panes
        self._detail_timer = QTimer(self)
        self._detail_timer.setSingleShot(True)
        self._detail_timer.setInterval(0)
        self._detail_timer.timeout.connect(self._render_detail)

        self.countdown = QTimer(self)
        self.countdown.setInterval(500)
        self.countdown.timeout.connect(self._tick)
        self.countdown.start()

        self.resize(*DEFAULT_SIZE)
        if restore and qsettings is not None:
            self._restore_layout()
        self._render_result(None)
        self._render_db(session.db)
        self._render_connectivity(session.connectivity)
        self.ask.set_profile(session.profile)
        self.profile_panel.set_weights(session.settings.weights)

    # -- construction ----------------------------------------------------------------------
    def _build_widgets(self) -> None:
        s = self.session
        self.reader = ReaderPane()
        self.banner = Banner()
        self.notice_banner = Banner()
        self.ask = AskBar()

        # results
        self.results_model = ResultsModel(s.book_name, self)
        self.results_proxy = SortProxy(self)
        self.results_proxy.setSourceModel(self.results_model)
        self.results_view = _table(self.results_proxy, "Results")
        self.results_view.setItemDelegateForColumn(ResultsModel.FINAL, ScoreBarDelegate(self.results_view))
        self.results_view.sortByColumn(ResultsModel.RANK, Qt.SortOrder.AscendingOrder)
        header = self.results_view.horizontalHeader()
        for col, width in ((ResultsModel.RANK, 34), (ResultsModel.MOVE, 56), (ResultsModel.REFERENCE, 128),
                           (ResultsModel.SOURCE, 112), (ResultsModel.SCHOLAR, 118), (ResultsModel.TRADITION, 96),
                           (ResultsModel.SIMILARITY, 78), (ResultsModel.FINAL, 118)):
            self.results_view.setColumnWidth(col, width)
        header.setSectionResizeMode(ResultsModel.BOOSTS, QHeaderView.ResizeMode.Stretch)
        self.results_view.setColumnHidden(ResultsModel.MOVE, True)

        self.rejected_model = RejectedModel(s.book_name, self)
        self.rejected_proxy = SortProxy(self)
        self.rejected_proxy.setSourceModel(self.rejected_model)
        self.rejected_view = _table(self.rejected_proxy, "Rejected candidates")
        rh = self.rejected_view.horizontalHeader()
        for col, width in ((RejectedModel.REFERENCE, 124), (RejectedModel.SOURCE, 108), (RejectedModel.SCHOLAR, 112),
                           (RejectedModel.SIMILARITY, 74), (RejectedModel.SCORE, 74)):
            self.rejected_view.setColumnWidth(col, width)
        rh.setSectionResizeMode(RejectedModel.REASON, QHeaderView.ResizeMode.Stretch)
        # Nearest misses first: what a curator looks for.
        self.rejected_view.sortByColumn(RejectedModel.SCORE, Qt.SortOrder.DescendingOrder)

        self.results_title = QLabel()
        self.results_title.setFont(scaled_font(self.font(), 1.0, bold=True))
        self.results_note = QLabel()
        self.results_note.setWordWrap(True)
        self.results_note.hide()
        self.stale_note = Banner()

        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.results_view, "Results")
        self.tabs.addTab(self.rejected_view, "Rejected")
        self.tabs.setAccessibleName("Results and rejected candidates")

        self.empty_results = QLabel(
            "Ask a question to see the passages that answer it.\n\n"
            "Each result shows its similarity, every boost it received (chapter, scholar, tradition) and its "
            "final score; the Rejected tab lists the candidates that were found but left out, and why."
        )
        self.empty_results.setWordWrap(True)
        self.empty_results.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_results.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.empty_results.setMargin(40)
        self.results_stack = QStackedWidget()
        self.results_stack.addWidget(self.empty_results)
        self.results_stack.addWidget(self.tabs)

        results_box = QWidget()
        rl = QVBoxLayout(results_box)
        rl.setContentsMargins(12, 6, 12, 0)
        rl.setSpacing(6)
        rl.addWidget(self.results_title)
        rl.addWidget(self.stale_note)
        rl.addWidget(self.results_note)
        rl.addWidget(self.results_stack, 1)

        self.passage = PassagePanel()
        self.breakdown = BreakdownPanel()
        passage_box = QWidget()
        pl = QVBoxLayout(passage_box)
        pl.setContentsMargins(12, 6, 0, 6)
        pl.setSpacing(4)
        ptitle = QLabel("Passage")
        ptitle.setFont(scaled_font(self.font(), 1.0, bold=True))
        pl.addWidget(ptitle)
        pl.addWidget(self.passage, 1)
        self.detail_split = QSplitter(Qt.Orientation.Horizontal)
        self.detail_split.setObjectName("detailSplit")
        self.detail_split.addWidget(passage_box)
        self.detail_split.addWidget(self.breakdown)
        self.detail_split.setStretchFactor(0, 3)
        self.detail_split.setStretchFactor(1, 2)
        self.detail_split.setChildrenCollapsible(False)

        self.right_split = QSplitter(Qt.Orientation.Vertical)
        self.right_split.setObjectName("rightSplit")
        self.right_split.addWidget(results_box)
        self.right_split.addWidget(self.detail_split)
        self.right_split.setStretchFactor(0, 5)
        self.right_split.setStretchFactor(1, 4)
        self.right_split.setChildrenCollapsible(False)

        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rv.setSpacing(0)
        rv.addWidget(self.banner)
        rv.addWidget(self.notice_banner)
        rv.addWidget(self.ask)
        rv.addWidget(_hline())
        rv.addWidget(self.right_split, 1)

        self.main_split = QSplitter(Qt.Orientation.Horizontal)
        self.main_split.setObjectName("mainSplit")
        self.main_split.addWidget(self.reader)
        self.main_split.addWidget(right)
        self.main_split.setStretchFactor(0, 2)
        self.main_split.setStretchFactor(1, 3)
        self.main_split.setSizes([520, 960])
        self.main_split.setChildrenCollapsible(False)
        self.right_split.setSizes([385, 435])
        self.detail_split.setSizes([540, 420])

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

    def _build_actions(self) -> None:
        handlers = {
            "focus_ask": self.focus_ask,
            "goto": self.reader.focus_goto,
            "prev_chapter": lambda: self.session.step_chapter(-1),
            "next_chapter": lambda: self.session.step_chapter(1),
            "focus_results": self.focus_results,
            "focus_reader": lambda: self.reader.text.setFocus(Qt.FocusReason.ShortcutFocusReason),
            "show_rejected": self.show_rejected,
            "profile": self.toggle_profile,
            "retry": self.retry_now,
            "open_db": self.open_database,
            "settings": self.open_settings,
            "help": self.show_shortcuts,
            "quit": self.close,
        }
        self.actions_by_id = shortcuts.make_actions(self, handlers)
        self.build_action = QAction("Build the demo database…", self)
        self.build_action.triggered.connect(self.build_demo)
        self.about_action = QAction("About Amicus Desktop", self)
        self.about_action.triggered.connect(self.show_about)

    def _build_menus(self) -> None:
        a = self.actions_by_id
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        file_menu.addAction(a["open_db"])
        file_menu.addAction(self.build_action)
        file_menu.addSeparator()
        file_menu.addAction(a["settings"])
        file_menu.addSeparator()
        file_menu.addAction(a["quit"])
        go = bar.addMenu("&Go")
        for key in ("focus_ask", "goto", "prev_chapter", "next_chapter"):
            go.addAction(a[key])
        view = bar.addMenu("&View")
        for key in ("focus_reader", "focus_results", "show_rejected", "profile"):
            view.addAction(a[key])
        conn = bar.addMenu("&Connection")
        conn.addAction(a["retry"])
        help_menu = bar.addMenu("&Help")
        help_menu.addAction(a["help"])
        help_menu.addAction(self.about_action)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.proxy_status = QLabel()
        self.proxy_status.setAccessibleName("Proxy state")
        self.model_status = QLabel()
        self.model_status.setAccessibleName("Model")
        self.chunks_status = QLabel()
        self.chunks_status.setAccessibleName("Chunks")
        self.timing_status = QLabel("No search yet")
        self.timing_status.setAccessibleName("Last timings")
        for w in (self.timing_status, self.chunks_status, self.model_status, self.proxy_status):
            w.setContentsMargins(8, 0, 8, 0)
        bar.addWidget(self.proxy_status)
        bar.addPermanentWidget(self.model_status)
        bar.addPermanentWidget(self.chunks_status)
        bar.addPermanentWidget(self.timing_status)

    def _connect(self) -> None:
        s = self.session
        s.dbStateChanged.connect(self._render_db)
        s.connectivityChanged.connect(self._render_connectivity)
        s.busyChanged.connect(self._render_busy)
        s.resultChanged.connect(self._render_result)
        s.askFailed.connect(self._render_ask_error)
        s.chapterChanged.connect(self._render_chapter)
        s.chapterLoaded.connect(self._render_chapter_text)
        s.booksLoaded.connect(self.reader.set_books)
        s.facetsLoaded.connect(self._render_facets)
        s.profileChanged.connect(self._render_profile)
        s.settingsChanged.connect(self._render_settings)
        s.settingsNotice.connect(self.show_notice)
        # Bound methods (not lambdas) so Qt drops these connections when the window is destroyed.
        self.reader.chapterRequested.connect(s.set_chapter)
        self.reader.stepRequested.connect(s.step_chapter)
        self.reader.referenceEntered.connect(self.goto_reference)
        self.ask.askRequested.connect(self._ask)
        self.ask.profileClicked.connect(self.toggle_profile)
        self.profile_panel.profileEdited.connect(s.set_profile)
        self.results_view.selectionModel().currentRowChanged.connect(self._result_selected)
        self.results_view.activated.connect(lambda _i: self.passage.open_link())
        self.rejected_view.selectionModel().currentRowChanged.connect(self._rejected_selected)
        self.rejected_view.activated.connect(lambda _i: self.passage.open_link())
        self.tabs.currentChanged.connect(self._tab_changed)
        self.passage.passageRequested.connect(self.open_passage)

    # -- user intents ----------------------------------------------------------------------
    def _ask(self, text: str) -> None:
        self.ask.clear_error()
        self.session.ask(text)

    def focus_ask(self) -> None:
        self.ask.focus()

    def focus_results(self) -> None:
        self.tabs.setCurrentIndex(0)
        self.results_view.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def show_rejected(self) -> None:
        self.tabs.setCurrentIndex(1)
        self.rejected_view.setFocus(Qt.FocusReason.ShortcutFocusReason)

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

    def retry_now(self) -> None:
        """The banner's *Retry now* (F5): after a failed answer ask again; otherwise probe the proxy."""
        c = self.session.connectivity
        text = self.ask.edit.text()
        if c.state is ProxyState.EMBED_FAILED and text.strip() and not self.session.busy:
            self._ask(text)
            return
        self.session.retry_now()
        self._render_connectivity(self.session.connectivity)

    def goto_reference(self, text: str) -> None:
        found = self.session.resolve_reference(text)
        if found is None:
            self.reader.show_goto_error(f"“{text}” is not a reference I know. Try “Rom 9” or “John 3:16”.")
            return
        ref, verse = found
        self.session.set_chapter(ref)
        self.reader.goto_edit.clear()
        self.reader.highlight(verse, verse)
        self.reader.text.setFocus(Qt.FocusReason.OtherFocusReason)

    def open_passage(self, book: str, chapter: int, start: int, end: int) -> None:
        self.session.set_chapter(ChapterRef(book, chapter))
        self.reader.highlight(start or None, end or None)

    def open_database(self) -> None:
        path = choose_database(self, str(self.session.db_path.parent))
        if path:
            self.session.open_database(path)

    def open_settings(self) -> None:
        dialog = SettingsDialog(self.session.settings, writable=self.session.store.writable,
                                notice=None if self.session.store.writable else self.session.store.notice, parent=self)
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
        QMessageBox.about(
            self, "About Amicus Desktop",
            f"<b>Amicus Desktop {__version__}</b><p>A reading companion with retrieval you can see into.</p>"
            f"<p>Settings: {paths.config_dir()}<br>Logs: {paths.log_dir()}</p>",
        )

    def show_notice(self, text: str) -> None:
        self.notice_banner.show_message("info", "Settings", text, [("Dismiss", self.notice_banner.clear)])

    # -- rendering ---------------------------------------------------------------------------
    def _render_db(self, db: DbState) -> None:
        if db.status is DbStatus.READY:
            self.stack.setCurrentWidget(self.main_split)
            info = db.info
            assert info is not None
            self.model_status.setText(f"Model: {info.model_id} · {info.dims} dims")
            self.chunks_status.setText(f"{info.chunk_count:,} chunks")
            self.chunks_status.setToolTip(str(info.path))
        elif db.status is DbStatus.LOADING:
            self.model_status.setText("Opening database…")
            self.chunks_status.setText("")
        else:
            self.model_status.setText("No database")
            self.chunks_status.setText("")
            if db.status is DbStatus.MISSING:
                self.start_page.show_state(states.welcome_text(str(db.path)), "WELCOME")
            else:
                assert db.error is not None
                self.start_page.show_state(states.db_text(db.error, str(db.path)), db.error.code.value)
            self.stack.setCurrentWidget(self.start_page)
        self._update_ask_availability()

    def _render_connectivity(self, c: Connectivity) -> None:
        self.proxy_status.setText(states.proxy_status(c))
        self.proxy_status.setToolTip(c.error.message if c.error else (f"Model {c.model.id}, {c.model.dims} dims" if c.model else ""))
        self._render_banner()
        self._update_ask_availability()

    def _render_banner(self) -> None:
        c = self.session.connectivity
        text = states.proxy_text(c, c.seconds_to_next_check())
        if text is None:
            self.banner.clear()
            return
        handlers = {states.RETRY: self.retry_now, states.SETTINGS: self.open_settings,
                    states.OPEN_DB: self.open_database}
        actions = [(states.ACTION_LABELS[a], handlers[a]) for a in text.actions if a in handlers]
        self.banner.show_message(text.kind, text.title, text.body, actions, detail=text.advice)

    def _tick(self) -> None:
        c = self.session.connectivity
        if c.state is ProxyState.OFFLINE and self.banner.isVisible():
            text = states.proxy_text(c, c.seconds_to_next_check())
            if text is not None:
                self.banner.set_detail(text.advice)

    def _update_ask_availability(self) -> None:
        s = self.session
        ok = s.can_ask
        self.ask.set_available(ok, "" if ok else states.ask_disabled_reason(s.connectivity, s.db.ready))

    def _render_busy(self, busy: bool) -> None:
        self.ask.set_busy(busy, "Embedding the question and searching…")

    def _render_chapter(self, ref: ChapterRef | None) -> None:
        label = self.session.chapter_label(ref)
        self.setWindowTitle(f"{label} — Amicus Desktop" if label else "Amicus Desktop")
        self.ask.set_context(label)
        self.reader.set_chapter(ref, label)
        if ref is not None and not self.session.db.ready:
            self.reader.show_message(label, "Open a database to read the text.")

    def _render_chapter_text(self, ref: ChapterRef, verses: list[tuple[int, str]]) -> None:
        label = self.session.chapter_label(ref)
        note = "" if verses else (
            "This database has no text for this chapter (it holds no verses table, or not this book). "
            "The chapter still sets the context for ranking."
        )
        self.reader.show_text(ref, label, verses, note)

    def _render_facets(self, facets: dict[str, list[tuple[str, int]]]) -> None:
        self.profile_panel.set_facets(facets, self.session.profile)

    def _render_settings(self, settings: Settings) -> None:
        self.profile_panel.set_weights(settings.weights)

    def _render_profile(self, profile: Profile) -> None:
        self.ask.set_profile(profile)
        self.profile_panel.set_profile(profile)

    def _render_ask_error(self, err: AmicusError) -> None:
        if err.code is ErrorCode.QUERY_INVALID:
            self.ask.show_error(states.query_error_text(err))
        elif err.code in DB_CODES:
            pass  # the start page shows it
        else:
            self.ask.set_status("The last question failed — see the message above.")

    def _render_result(self, view: ResultView | None) -> None:
        selected = self._selected_chunk_id()
        self.results_model.set_view(view)
        self.rejected_model.set_view(view)
        self.results_view.sortByColumn(ResultsModel.RANK, Qt.SortOrder.AscendingOrder)
        if view is None:
            self.results_stack.setCurrentWidget(self.empty_results)
            self.detail_split.hide()
            self.results_title.setText("")
            self.results_note.hide()
            self.stale_note.clear()
            self.passage.clear()
            self.breakdown.clear()
            self.shown = None
            self.tabs.setTabText(0, "Results")
            self.tabs.setTabText(1, "Rejected")
            return
        r = view.result
        self.results_stack.setCurrentWidget(self.tabs)
        self.detail_split.show()
        self.tabs.setTabText(0, f"Results ({len(r.results)})")
        self.tabs.setTabText(1, f"Rejected ({len(r.rejected)})")
        asked = time.strftime("%H:%M:%S", time.localtime(view.asked_at))
        self.results_title.setText(
            f"{len(r.results)} results from {len(r.candidates)} candidates · asked {asked}"
        )
        self.results_view.setColumnHidden(ResultsModel.MOVE, view.previous_ranks is None)
        if view.previous_ranks is not None and view.cause in ("chapter", "profile", "settings"):
            ctx = r.context
            what = {
                "chapter": f"for {self.session.chapter_label(ctx.chapter) if ctx and ctx.chapter else 'no chapter'}",
                "profile": "for your new profile",
                "settings": "with the new ranking settings",
            }[view.cause]
            moved = sum(1 for x in r.results if view.previous_ranks.get(x.chunk_id) != x.rank)
            self.results_note.setText(
                f"Re-ranked {what} from the same {len(r.candidates)} candidates (no new search): "
                f"{moved} of {len(r.results)} ranks changed. The Move column shows how (▲ up, ▼ down)."
            )
            self.results_note.show()
        else:
            self.results_note.hide()
        if view.stale:
            self.stale_note.show_message(
                "info", f"These results are from before the proxy went away (asked {asked}).",
                "Changing the chapter or profile still re-ranks them; a new question needs the proxy.",
                compact=True,
            )
        else:
            self.stale_note.clear()
        t = r.timings
        if view.cause == "ask":
            self.timing_status.setText(
                f"embed {t.embed:.0f} ms · search {t.search:.0f} ms · rerank {t.rerank:.1f} ms · total {t.total:.0f} ms"
            )
        else:
            self.timing_status.setText(f"re-rank {t.rerank:.2f} ms (no embed, no search)")
        self.ask.set_status(f"{len(r.results)} results · {t.total:.0f} ms" if view.cause == "ask" else "")
        self._reselect(selected)

    def _selected_chunk_id(self) -> str | None:
        index = self.results_view.currentIndex()
        if index.isValid():
            item = index.data(ChunkRole)
            if item is not None:
                return item.chunk_id
        return None

    def _reselect(self, chunk_id: str | None) -> None:
        if self.results_proxy.rowCount() == 0:
            self.passage.clear("No result passed the ranking. See the Rejected tab for why.")
            self.breakdown.clear("")
            self.shown = None
            return
        row = self.results_model.row_of(chunk_id) if chunk_id else -1
        source = self.results_model.index(max(row, 0), 0)
        index = self.results_proxy.mapFromSource(source)
        self.results_view.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        )
        self._show_item(index.data(ChunkRole))  # also when the current row did not change

    def _result_selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self._show_item(current.data(ChunkRole))

    def _rejected_selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():
            self._show_item(current.data(ChunkRole))

    def _tab_changed(self, index: int) -> None:
        view = self.results_view if index == 0 else self.rejected_view
        current = view.currentIndex()
        if current.isValid():
            self._show_item(current.data(ChunkRole))
        elif index == 1 and self.rejected_proxy.rowCount():
            view.selectRow(0)

    def _show_item(self, item: RetrievedChunk | RejectedChunk | None) -> None:
        """Show ``item`` in the passage and breakdown panes, on the next turn of the event loop.

        Deferring lets the new table paint first, so a new result set costs two short UI-thread
        slices instead of one long one (see the stall test), and repeated calls coalesce.
        """
        self._pending_item = item
        self._detail_timer.start()

    def _render_detail(self) -> None:
        item, self._pending_item = self._pending_item, None
        view = self.results_model.view
        if item is None or view is None:
            return
        if self.shown is not None and self.shown[0] is item and self.shown[1] is view:
            return
        self.shown = (item, view)
        ctx = view.result.context
        book_name = self.session.book_name
        if isinstance(item, RetrievedChunk):
            self.passage.show_candidate(item.candidate, book_name)
            self.breakdown.show_chunk(item, ctx, book_name, total=len(view.result.results))
        else:
            reason = self.rejected_model.reason(item)
            self.passage.show_candidate(item.candidate, book_name, note=f"Not shown: {reason}.")
            self.breakdown.show_chunk(item, ctx, book_name, reason=reason)

    # -- layout persistence ------------------------------------------------------------------
    def _restore_layout(self) -> None:
        qs = self.qsettings
        assert qs is not None
        geometry = qs.value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        state = qs.value("window/state")
        if state is not None:
            self.restoreState(state)
        for split in (self.main_split, self.right_split, self.detail_split):
            value = qs.value(f"splitters/{split.objectName()}")
            if value is not None:
                split.restoreState(value)

    def save_layout(self) -> None:
        qs = self.qsettings
        if qs is None:
            return
        qs.setValue("window/geometry", self.saveGeometry())
        qs.setValue("window/state", self.saveState())
        for split in (self.main_split, self.right_split, self.detail_split):
            qs.setValue(f"splitters/{split.objectName()}", split.saveState())
        qs.sync()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        if not self._is_closed:
            self._is_closed = True
            self.countdown.stop()
            self._detail_timer.stop()
            self.save_layout()
            self._disconnect_internal()
            self.closed.emit()
        event.accept()

    def _disconnect_internal(self) -> None:
        """Children emit signals while Qt destroys them (a tab widget reports its current tab
        changing, a dock its visibility); slots of a half-destroyed window must not run then."""
        for signal, slot in (
            (self.tabs.currentChanged, self._tab_changed),
            (self.profile_dock.visibilityChanged, self._dock_visibility),
            (self.results_view.selectionModel().currentRowChanged, self._result_selected),
            (self.rejected_view.selectionModel().currentRowChanged, self._rejected_selected),
        ):
            signal.disconnect(slot)


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


def _hline() -> QFrame:
    line = QFrame()
    line.setFrameShape(QFrame.Shape.HLine)
    line.setFrameShadow(QFrame.Shadow.Sunken)
    return line


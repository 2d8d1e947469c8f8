"""The main window: the Bible text on the left, the study panes in a drawer under it; question, results,
breakdown and rejections on the right (the layout and reading mode: ``layout.py``).

The window is composition: it lays out the panes, forwards user intent to the
:class:`~amicus_desktop.session.Session` and renders its state, which arrives through
:class:`~.session_signals.SessionSignals`. Its parts live beside it, one module each: the menus and
actions (``menus.py``), the status bar (``status_bar.py``), the banners (``banners.py``), the docks
(``docks/``), what the question box does (``ask_control.py``), export and copy as context
(``export.py``), the dialogs (``dialogs.py``), the appearance (``appearance.py``) and the saved
layout (``layout.py``); the results and their detail panes are :class:`~.results.ResultsPane`. Every
sentence shown comes from ``present/states.py`` or ``present/describe.py``; which question is asked
again, and when, from ``session/retry.py``. Background work (export, copy as context) runs in
:attr:`MainWindow.tasks`, cancelled when the window closes.
"""

from __future__ import annotations

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QShowEvent
from PySide6.QtWidgets import QFrame, QMainWindow, QStackedWidget, QVBoxLayout, QWidget

from ..connectivity import Connectivity, ProxyState
from ..core.query import Filters, Profile, SearchMode
from ..core.references import ChapterRef, PassageRef
from ..overlays import Overlay
from ..present import describe, states
from ..session import ChapterNotes, ChapterText, DbState, DbStatus, ResultView, Session
from ..session.background import Tasks
from ..session.workbench import Workbench
from ..settings import Settings
from ..understand import PassageError
from .appearance import Appearance
from .ask import AskBar
from .ask_control import AskControl
from .banner import Banner
from .banners import WindowBanners
from .commentary import CommentaryPane
from .dialogs import WindowDialogs
from .docks import ProfileDock, WorkbenchDock
from .export import Exporter
from .filter_bar import FilterBar
from .growth import LibraryGrowth
from .layout import ReadingLayout, restore_layout, save_layout
from .menus import WindowMenus
from .notes import NotesControl
from .reader import ReaderPane
from .reader_control import ReaderControl
from .results import ResultsPane
from .results.splitter import splitter
from .session_signals import SessionSignals
from .start_page import StartPage
from .status_bar import StatusBar
from .study import StudyControl
from .study_drawer import StudyDrawer

DEFAULT_SIZE = (1480, 920)


class MainWindow(QMainWindow):
    """One window over one :class:`~amicus_desktop.session.Session`."""

    closed = Signal()

    def __init__(self, session: Session, *, qsettings: QSettings | None = None, restore: bool = True) -> None:
        super().__init__()
        self.session = session
        self.signals = SessionSignals(session, self)
        self.qsettings = qsettings
        #: the window's background work (export, copy as context): cancelled when it closes
        self.tasks = Tasks("window")
        self._is_closed = False
        self._shown_once = False
        self.setObjectName("mainWindow")
        self.setDockOptions(QMainWindow.DockOption.AnimatedDocks | QMainWindow.DockOption.AllowTabbedDocks)

        self.dialogs = WindowDialogs(self)
        self.ask_control = AskControl(self)
        self.notes_control = NotesControl(self)
        self.reader_control = ReaderControl(self)
        self.workspace_switcher = self.notes_control.switcher
        self._build_widgets()
        self.banners = WindowBanners(self)
        self.profile_dock = ProfileDock(self)
        self.workbench = Workbench(session)
        self.workbench_dock = WorkbenchDock(self, self.workbench)
        self.exporter = Exporter(self)
        self.appearance = Appearance(self)
        self.menus = WindowMenus(self)
        self.actions_by_id = self.menus.actions_by_id
        self.reading_layout = ReadingLayout(self, self.right)
        self.status_bar = StatusBar()
        self.status_bar.add_first_permanent(self.workspace_switcher)  # never hidden by a passing sentence
        self.growth = LibraryGrowth(session, qsettings, self)  # the app's own library, grown in the background
        self.status_bar.add_first_permanent(self.growth.widget)
        self.setStatusBar(self.status_bar)
        self._connect()
        self.notes_control.connect()
        self.reader_control.connect()
        self.study_control = StudyControl(self)  # cross-references, Strong's, bookmarks (ui/study/)
        self.study_control.connect()

        self.resize(*DEFAULT_SIZE)
        if restore and qsettings is not None:
            restore_layout(self, qsettings)
        self._render_result(session.question.view)
        self._render_db(session.library.state)
        self.render_connectivity(session.connection.state)
        self.ask.set_profile(session.prefs.profile, session.prefs.overlay)
        self.ask.set_chapter_boost(session.prefs.settings.chapter_boost)
        self.appearance.apply(session.prefs.settings)
        self._render_mode(session.search.mode)
        self.menus.render_pins(session.search.pins)
        self._render_filters(session.search.filters)
        self.notes_control.show_workspace()

    # -- construction ----------------------------------------------------------------------
    def _build_widgets(self) -> None:
        library = self.session.library
        self.reader = ReaderPane()
        self.banner = Banner()
        self.notice_banner = Banner()
        self.ask = AskBar()
        self.results = ResultsPane(lambda: library.names)
        self.results.is_pinned = self.session.search.is_pinned
        self.results.results_model.pin_scope = self.session.search.scope_of
        self.results.open_chapter = lambda: library.names.chapter(self.session.reader.chapter) \
            if self.session.reader.chapter is not None else None
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

        self.commentary = CommentaryPane(lambda: library.names)
        # the text over the study drawer (closed until asked for: the text gets the room)
        self.drawer = StudyDrawer()
        self.drawer.add_pane(self.commentary, "Commentary", "Show or hide the commentary on the verse and chapter")
        self.notes_control.place(self.drawer, self.results)  # the reader's own notes, beside the commentary
        self.left_split = splitter(Qt.Orientation.Vertical, "leftSplit", self.reader, self.drawer,
                                   stretch=(1, 0), sizes=[840, 30])
        self.right = right
        self.main_split = splitter(Qt.Orientation.Horizontal, "mainSplit", self.left_split, right,
                                   stretch=(1, 1), sizes=[640, 840])

        self.start_page = StartPage({
            states.BUILD_DEMO: self.dialogs.build_demo,
            states.OPEN_DB: self.dialogs.open_database,
            states.RELOAD: self.session.reload,
            states.SETTINGS: self.dialogs.open_settings,
        })
        self.stack = QStackedWidget()
        self.stack.addWidget(self.main_split)
        self.stack.addWidget(self.start_page)
        self.setCentralWidget(self.stack)

    def _connect(self) -> None:
        s, sig = self.session, self.signals
        sig.dbStateChanged.connect(self._render_db)
        sig.connectivityChanged.connect(self.render_connectivity)
        sig.busyChanged.connect(self.ask_control.render_busy)
        sig.resultChanged.connect(self._render_result)
        sig.askFailed.connect(self.ask_control.render_error)
        sig.notesFailed.connect(self.banners.show_notes_unavailable)
        sig.chapterChanged.connect(self._render_chapter)
        sig.chapterLoaded.connect(self._render_chapter_text)
        sig.focusChanged.connect(self.reader.set_focus)
        sig.booksLoaded.connect(self.reader.set_books)
        sig.facetsLoaded.connect(self._render_facets)
        sig.profileChanged.connect(self._render_profile)
        sig.overlayChanged.connect(self._render_overlay)
        sig.settingsChanged.connect(self._render_settings)
        sig.settingsNotice.connect(self.show_notice)
        sig.modeChanged.connect(self._render_mode)
        sig.filtersChanged.connect(self._render_filters)
        sig.pinsChanged.connect(self.menus.render_pins)
        self.ask.mode_switch.modeChosen.connect(s.set_mode)
        self.filter_bar.filtersChanged.connect(s.set_filters)
        self.results.pinRequested.connect(s.toggle_pin)
        self.results.wholeLibraryRequested.connect(s.set_whole_library)
        self.results.pinScopeRequested.connect(s.pin)
        self.results.chips.passageRequested.connect(self.open_passage)
        self.reader.nav.chapterRequested.connect(s.set_chapter)
        self.reader.nav.stepRequested.connect(s.step_chapter)
        self.reader.nav.referenceEntered.connect(self.goto_reference)
        self.ask.askRequested.connect(self.ask_control.ask)
        self.ask.profileClicked.connect(self.profile_dock.toggle)
        self.results.passage.passageRequested.connect(self.peek_passage)
        self.results.warnings.suggestionChosen.connect(self.ask_control.ask_suggestion)
        self.results.copyContextRequested.connect(self.exporter.copy_context)
        self.results.exportRequested.connect(self.exporter.export_results)
        self.results.budgetChanged.connect(self.session.prefs.set_context_budget)
        self.results.message.connect(self.show_status)
        self.results.set_budget(self.session.prefs.settings.context_budget)
        self.results.passage.versesWanted.connect(s.read_passage)
        self.commentary.passageRequested.connect(self.open_passage)
        sig.notesLoaded.connect(self._render_notes)
        sig.passageLoaded.connect(self.results.passage.show_verses)
        self._connect_verses()

    def _connect_verses(self) -> None:
        """Verse search beside the results, the reader's translation, copying scripture with its reference."""
        s, sig, verses = self.session, self.signals, self.results.verses
        sig.versesChanged.connect(verses.show_view)
        sig.versesBusy.connect(verses.show_busy)
        sig.versesFailed.connect(verses.show_failure)
        sig.translationsLoaded.connect(lambda ts: self.reader.set_translations(ts, s.verses.translation))
        sig.translationChanged.connect(lambda t: self.reader.set_translations(s.verses.translations, t))
        self.reader.nav.translationChosen.connect(s.set_translation)
        verses.verseOpened.connect(lambda passage: s.open_passage(passage, peek=True))  # the results stay
        verses.message.connect(self.show_status)
        self.reader.message.connect(self.show_status)
        self.reader.topicRequested.connect(self.ask_control.ask_text)

    # -- user intents ----------------------------------------------------------------------
    def show_status(self, text: str) -> None:
        """A passing sentence in the status bar (what was copied or exported)."""
        self.status_bar.show_status(text)

    def show_notice(self, text: str) -> None:
        """A notice (the settings could not be saved…) under the results, with *Settings…* and *Dismiss*."""
        self.banners.show_notice(states.notice_text(text))

    def toggle_commentary(self) -> None:
        """Open or close the commentary under the reader (Ctrl+Shift+N)."""
        if self.drawer.current is self.commentary:
            self.drawer.close_drawer()
        else:
            self.reading_layout.open_pane(self.commentary)
            self.commentary.list.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def search_by_words(self) -> None:
        """The offline banner's *Search by words instead*: switch to keyword mode, visibly."""
        self.session.set_mode(SearchMode.KEYWORD)

    def toggle_pin(self) -> None:
        """Pin or unpin the selected result (the ``toggle_pin`` shortcut)."""
        r = self.results.current_result()
        if r is not None:
            self.session.toggle_pin(r.chunk_id)

    def goto_reference(self, text: str) -> None:
        try:
            passage = self.session.reader.resolve(text)
        except PassageError as err:
            self.reader.show_goto_error(states.unknown_reference(text, str(err)))
            return
        self.session.open_passage(passage)
        self.reader.goto_edit.clear()
        self.reader.text.setFocus(Qt.FocusReason.OtherFocusReason)

    def open_passage(self, book: str, chapter: int, start: int, end: int, *, peek: bool = False) -> None:
        """Go to a passage (a reference chip, a commentary note): the results are re-ranked for its chapter —
        or, to ``peek`` (Enter on a result, its link), open it to read and leave the results as they are."""
        self.session.open_passage(PassageRef(book, chapter, start or None, (end or start) or None), peek=peek)

    def peek_passage(self, book: str, chapter: int, start: int, end: int) -> None:
        self.open_passage(book, chapter, start, end, peek=True)

    def undo_rerank(self) -> None:
        """Back to the ranking before the last re-rank (a chapter move, a profile or settings change) — or,
        in the notes pane, the note just deleted back."""
        if self.notes_control.pane.isAncestorOf(self.focusWidget()) and self.notes_control.undo_delete():
            self.show_status("The deleted note is back.")
        elif self.session.question.undo():
            self.show_status("Back to the ranking before the last re-rank.")
        else:
            self.show_status("There is no re-rank to undo.")

    # -- rendering ---------------------------------------------------------------------------
    def _render_db(self, db: DbState) -> None:
        self.status_bar.render_db(db)
        self.growth.on_db(db)
        if db.status is DbStatus.READY:
            self.stack.setCurrentWidget(self.main_split)
        elif db.status is DbStatus.MISSING:
            self.start_page.show_state(states.welcome_text(str(db.path)), "WELCOME")
            self.stack.setCurrentWidget(self.start_page)
        elif db.status is DbStatus.ERROR and db.error is not None:
            self.start_page.show_state(states.db_text(db.error, str(db.path)), db.error.code.value)
            self.stack.setCurrentWidget(self.start_page)
        self.ask_control.update_availability()

    def render_connectivity(self, c: Connectivity) -> None:
        self.status_bar.render_connectivity(c)
        self.banners.render_proxy()
        self.ask_control.update_availability()
        self.results.set_online(c.state is ProxyState.ONLINE)
        self.ask_control.offer_again()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._shown_once:
            self._shown_once = True
            self.ask_control.initial_focus()
            QTimer.singleShot(0, self, self.reading_layout.size_drawer)  # once laid out at its restored size

    def _render_chapter(self, ref: ChapterRef | None) -> None:
        label = self.session.library.names.chapter(ref)
        self.notes_control.update_title()
        self.ask.set_context(label)
        self.reader.set_chapter(ref, label)
        if ref is not None and not self.session.library.ready:
            self.reader.show_message(label, states.READ_NEEDS_DB)

    def _render_chapter_text(self, text: ChapterText) -> None:
        label = self.session.library.names.chapter(text.ref)
        self.reader.show_text(text.ref, label, list(text.verses), "" if text.verses else states.NO_CHAPTER_TEXT,
                              translation=text.translation, beside=list(text.beside),
                              beside_translation=text.beside_translation)

    def _render_notes(self, notes: ChapterNotes) -> None:
        self.commentary.set_notes(notes, self.session.library.names.chapter(notes.ref))
        self.drawer.set_count(self.commentary, len(notes.chunks))
        self.commentary.follow_verse(self.reader.current_verse)

    def _render_facets(self, facets: dict[str, list[tuple[str, int]]]) -> None:
        self.profile_dock.set_facets(facets, self.session.prefs.profile)
        library = self.session.library
        self.filter_bar.set_choices(facets, library.books, library.names, self.session.notebook.desk.count)

    def _render_mode(self, mode: SearchMode) -> None:
        self.ask.mode_switch.set_mode(mode)
        self.menus.render_mode(mode)
        self.banners.render_proxy()
        self.ask_control.update_availability()

    def _render_filters(self, filters: Filters) -> None:
        self.filter_bar.set_filters(filters)
        self.menus.render_filters(filters)

    def _render_settings(self, settings: Settings) -> None:
        self.profile_dock.set_weights(settings.weights)
        self.ask.set_chapter_boost(settings.chapter_boost)
        self.results.set_budget(settings.context_budget)
        self.appearance.apply(settings)

    def _render_profile(self, profile: Profile) -> None:
        self.ask.set_profile(profile, self.session.prefs.overlay)
        self.profile_dock.set_profile(profile)

    def _render_overlay(self, overlay: Overlay | None) -> None:
        self.ask.set_profile(self.session.prefs.profile, overlay)
        self.profile_dock.set_overlay(overlay)

    def _render_result(self, view: ResultView | None) -> None:
        self.results.show_view(view)
        whole = view is not None and view.whole_library
        self.ask.set_context(describe.WHOLE_LIBRARY_CONTEXT if whole
                             else self.session.library.names.chapter(self.session.reader.chapter))
        if view is not None:
            self.status_bar.render_result(view)
            self.ask.set_status(describe.ask_status(view))
            if view.cause == "ask" and view.result.trace.embedding_cached:
                self.show_status(f"Asked again: {describe.VECTOR_REUSED}")

    # -- closing -----------------------------------------------------------------------------
    def save_layout(self) -> None:
        if self.qsettings is not None:
            save_layout(self, self.qsettings)

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self._is_closed:
            self._is_closed = True
            self.banners.stop()
            self.growth.shutdown()
            self.tasks.shutdown()
            self.signals.detach()  # the session goes on emitting while it closes; the widgets don't listen
            self.save_layout()
            # Children emit while Qt destroys them (the dock reports its visibility, the tabs their
            # current tab); slots of a half-destroyed window must not run then.
            self.profile_dock.detach()
            self.results.shutdown()
            self.workbench_dock.detach()
            self.closed.emit()
        event.accept()


def _hline() -> QFrame:
    line = QFrame()
    line.setFrameShape(QFrame.Shape.HLine)
    line.setFrameShadow(QFrame.Shadow.Sunken)
    return line

"""The thin Qt side of the session: its events re-emitted as Qt signals for the widgets.

:class:`~amicus_desktop.session.Session` and its parts know nothing of Qt; they call plain
listeners. :class:`SessionSignals` is the only listener the window connects: it re-emits each event
as a signal, so widgets use ordinary Qt connections (dropped by Qt when a widget is destroyed).
Everything runs on the Qt thread (the session runs on qasync's loop), so each signal is delivered
directly, before the session's method returns.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from ..session import Session


class SessionSignals(QObject):
    """One signal per session event; :meth:`detach` before the receivers go away."""

    dbStateChanged = Signal(object)  # DbState
    booksLoaded = Signal(object)  # list[BookRow]
    facetsLoaded = Signal(object)  # Facets
    connectivityChanged = Signal(object)  # Connectivity
    chapterChanged = Signal(object)  # ChapterRef | None
    chapterLoaded = Signal(object)  # ChapterText
    focusChanged = Signal(object)  # PassageRef | None
    passageLoaded = Signal(object)  # PassageText
    notesLoaded = Signal(object)  # ChapterNotes
    busyChanged = Signal(bool)
    resultChanged = Signal(object)  # ResultView | None
    askFailed = Signal(object)  # AmicusError | InternalError
    notesFailed = Signal(object)  # AmicusError (NotesError): answered from the library without the notes
    settingsChanged = Signal(object)  # Settings
    profileChanged = Signal(object)  # Profile
    overlayChanged = Signal(object)  # Overlay | None
    settingsNotice = Signal(str)
    modeChanged = Signal(object)  # SearchMode
    filtersChanged = Signal(object)  # Filters
    pinsChanged = Signal(object)  # tuple[str, ...]
    versesChanged = Signal(object)  # VerseView | None
    versesBusy = Signal(bool)
    versesFailed = Signal(object)  # AmicusError | InternalError
    translationsLoaded = Signal(object)  # tuple[Translation, ...]
    translationChanged = Signal(object)  # str | None
    workspaceChanged = Signal(object)  # WorkspaceInfo
    myNotesLoaded = Signal(object)  # NotesOnChapter
    myNotesListed = Signal(object)  # NoteListing
    myNotesPending = Signal(int)
    myNoteRemoved = Signal(object)  # Note | None
    noteEditorChanged = Signal(object)  # EditorStatus
    notesNotice = Signal(str)

    def __init__(self, session: Session, parent: QObject | None = None) -> None:
        super().__init__(parent)
        s = session
        self._disconnects: list[Callable[[], None]] = [
            s.library.changed.connect(self.dbStateChanged.emit),
            s.library.books_loaded.connect(self.booksLoaded.emit),
            s.library.facets_loaded.connect(self.facetsLoaded.emit),
            s.connection.changed.connect(self.connectivityChanged.emit),
            s.reader.chapter_changed.connect(self.chapterChanged.emit),
            s.reader.text_loaded.connect(self.chapterLoaded.emit),
            s.reader.focus_changed.connect(self.focusChanged.emit),
            s.reader.passage_loaded.connect(self.passageLoaded.emit),
            s.commentary.loaded.connect(self.notesLoaded.emit),
            s.question.busy_changed.connect(self.busyChanged.emit),
            s.question.result_changed.connect(self.resultChanged.emit),
            s.question.failed.connect(self.askFailed.emit),
            s.question.notes_failed.connect(self.notesFailed.emit),
            s.prefs.changed.connect(self.settingsChanged.emit),
            s.prefs.profile_changed.connect(self.profileChanged.emit),
            s.prefs.overlay_changed.connect(self.overlayChanged.emit),
            s.prefs.notice.connect(self.settingsNotice.emit),
            s.search.mode_changed.connect(self.modeChanged.emit),
            s.search.filters_changed.connect(self.filtersChanged.emit),
            s.search.pins_changed.connect(self.pinsChanged.emit),
            s.verses.result_changed.connect(self.versesChanged.emit),
            s.verses.busy_changed.connect(self.versesBusy.emit),
            s.verses.failed.connect(self.versesFailed.emit),
            s.verses.translations_loaded.connect(self.translationsLoaded.emit),
            s.verses.translation_changed.connect(self.translationChanged.emit),
            *self._notebook(session),
        ]

    def _notebook(self, session: Session) -> list[Callable[[], None]]:
        nb = session.notebook
        return [
            nb.workspaces.changed.connect(self.workspaceChanged.emit),
            nb.workspaces.notice.connect(self.notesNotice.emit),
            nb.desk.chapter_loaded.connect(self.myNotesLoaded.emit),
            nb.desk.listing_changed.connect(self.myNotesListed.emit),
            nb.desk.pending_changed.connect(self.myNotesPending.emit),
            nb.desk.removed.connect(self.myNoteRemoved.emit),
            nb.desk.problem.connect(self.notesNotice.emit),
            nb.editor.changed.connect(self.noteEditorChanged.emit),
        ]

    def detach(self) -> None:
        """Stop relaying: the session may outlive the window (it still emits while it closes)."""
        for disconnect in self._disconnects:
            disconnect()
        self._disconnects = []

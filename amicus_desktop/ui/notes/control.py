"""What the window does with the reader's notes: the notes pane, the reader's margin marks and context
menu, and the workspace switch — connected to the session's notebook (``session/notes/``).

:class:`NotesControl` renders the notebook's events (through :class:`~..session_signals.SessionSignals`)
and forwards what the reader does: writing a note on the selected verses, editing, deleting and undoing,
searching the list, clicking a margin mark, choosing another workspace. The workspace shows in the window
too: in its title (with the chapter), the status bar's switcher (:attr:`NotesControl.switcher`) and the
filter bar's *My notes* count. It holds no state of its own but which note the pane's editor was last
filled with.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMenu, QSplitter

from ...connectivity import ProxyState
from ...core.references import ChapterRef, PassageRef
from ...notes import Note
from ...present import notes as words
from ...present import states
from ...session.notes import EditorState, EditorStatus, NoteListing, NotesOnChapter
from ...session.workspaces import WorkspaceInfo
from .models import NotesModel
from .pane import ALL, CHAPTER, NotesPane
from .workspaces import WorkspaceSwitcher

if TYPE_CHECKING:
    from ..main_window import MainWindow
    from ..results import ResultsPane


class NotesControl:
    """The notes pane (:attr:`pane`) and the rules between it, the reader and the session."""

    def __init__(self, window: MainWindow) -> None:
        self._w = window
        session = window.session
        self.notebook = session.notebook
        names = lambda: session.library.names  # noqa: E731
        self.model = NotesModel(names)
        self.pane = NotesPane(self.model, names)
        #: The workspace switcher, for the status bar.
        self.switcher = WorkspaceSwitcher(session.notebook.switch)
        self._filled = 0  # the editor's ``opened`` count the pane's text was filled for

    def place(self, left_split: QSplitter, results: ResultsPane) -> None:
        """The notes pane last in the window's left column (under the reader and its commentary), and the
        workspace's name for the results header."""
        left_split.addWidget(self.pane)
        left_split.setStretchFactor(2, 1)  # it gives up height too in a small window: the reader first
        left_split.setSizes([440, 220, 220])
        results.workspace_name = self.notebook.workspaces.name_of

    def connect(self) -> None:
        w, sig, pane, nb = self._w, self._w.signals, self.pane, self.notebook
        sig.myNotesLoaded.connect(self._chapter_loaded)
        sig.myNotesListed.connect(self._listed)
        sig.myNotesPending.connect(pane.show_pending)
        sig.connectivityChanged.connect(lambda c: pane.set_online(c.state is ProxyState.ONLINE))
        sig.myNoteRemoved.connect(self._removed)
        sig.noteEditorChanged.connect(self._editor_changed)
        sig.notesNotice.connect(lambda text: w.banners.show_notice(states.notes_notice_text(text)))
        sig.workspaceChanged.connect(self._workspace_changed)
        pane.scopeChanged.connect(self._scope_changed)
        pane.searchChanged.connect(nb.desk.search)
        pane.addRequested.connect(self.add_note)
        pane.editRequested.connect(self.edit)
        pane.deleteRequested.connect(nb.desk.remove)
        pane.undoRequested.connect(self.undo_delete)
        pane.draftChanged.connect(nb.editor.type)
        pane.doneRequested.connect(self.done)
        pane.keepMineRequested.connect(lambda: nb.editor.tasks.spawn(nb.editor.keep_mine()))
        pane.takeTheirsRequested.connect(lambda: nb.editor.tasks.spawn(nb.editor.take_theirs()))
        pane.passageRequested.connect(w.open_passage)
        w.reader.noteMarkClicked.connect(self.show_mark)
        w.reader.menu_extenders.append(self._reader_menu)
        self._editor_changed(nb.editor.status)
        pane.set_online(self._w.session.connection.state.state is ProxyState.ONLINE)
        pane.show_pending(nb.desk.pending)

    # -- what the reader does ------------------------------------------------------------------------
    def add_note(self) -> None:
        """Write a note on the verses selected in the reader (or the verse at its cursor when it has the
        focus), else on the chapter on screen."""
        reader, chapter = self._w.reader, self._w.session.reader.chapter
        if chapter is None:
            self._w.show_status("Open a chapter first: a note is written on a passage.")
            return
        text = reader.text
        verses = reader.selected_verses() if text.textCursor().hasSelection() or text.hasFocus() else []
        self.write_on(chapter, verses)

    def write_on(self, chapter: ChapterRef, verses: list[int]) -> None:
        ref = PassageRef(chapter.book_id, chapter.chapter, min(verses), max(verses)) if verses else \
            PassageRef(chapter.book_id, chapter.chapter)
        self.notebook.editor.tasks.spawn(self._start(lambda: self.notebook.editor.new(ref)))

    def edit(self, note: Note) -> None:
        self.notebook.editor.tasks.spawn(self._start(lambda: self.notebook.editor.open(note)))

    async def _start(self, begin: object) -> None:
        await self.notebook.editor.close()  # the note being written is saved first
        if callable(begin):
            begin()
        note = self.notebook.editor.status.note
        if note is not None:
            self.pane.select(note.id)
        self.show()
        self.pane.editor.setFocus(Qt.FocusReason.OtherFocusReason)

    def done(self) -> None:
        async def finish() -> None:
            await self.notebook.editor.close()
            self.pane.list.setFocus(Qt.FocusReason.OtherFocusReason)

        self.notebook.editor.tasks.spawn(finish())

    def undo_delete(self) -> bool:
        """Bring the last deleted note back; ``False`` when there is none."""
        return self.notebook.desk.undo_remove() is not None

    def show_mark(self, verse: int) -> None:
        """A margin mark was clicked: the chapter's notes, the first one at that verse selected."""
        chapter = self.notebook.desk.chapter
        marks = chapter.marks() if chapter is not None else {}
        self.pane.set_scope(CHAPTER, emit=True)
        self.show()
        if verse in marks:
            self.pane.select(marks[verse][0].id)
        self.pane.list.setFocus(Qt.FocusReason.OtherFocusReason)

    def focus(self) -> None:
        """Ctrl+5: the notes of this chapter, the focus in their list."""
        self.pane.set_scope(CHAPTER, emit=True)
        self.show()
        self.pane.list.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def find(self) -> None:
        """Ctrl+Shift+L: every note of the workspace, the focus in the search box."""
        self.pane.set_scope(ALL, emit=True)
        self.show()
        self.pane.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.pane.search.selectAll()

    def show(self) -> None:
        if self.pane.isHidden():
            self.pane.show()

    def _reader_menu(self, menu: QMenu, verses: list[int]) -> None:
        chapter = self._w.session.reader.chapter
        if chapter is None:
            return
        menu.addSeparator()
        label = self._w.session.library.names.chapter(chapter)
        where = f"{label}:{verses[0]}" + (f"–{verses[-1]}" if len(verses) > 1 else "") if verses else label
        menu.addAction(f"Write a note on {where}…", lambda: self.write_on(chapter, verses))
        marks = self.notebook.desk.chapter.marks() if self.notebook.desk.chapter is not None else {}
        if verses and verses[0] in marks:
            menu.addAction(f"Show my notes on v. {verses[0]}", lambda: self.show_mark(verses[0]))

    # -- the session's state -------------------------------------------------------------------------
    def _scope_changed(self, scope: str) -> None:
        desk = self.notebook.desk
        if scope == ALL:
            self._listed(desk.listing)
        elif desk.chapter is not None:
            self._chapter_loaded(desk.chapter)

    def _chapter_loaded(self, notes: NotesOnChapter) -> None:
        names = self._w.session.library.names
        self._w.reader.set_note_marks({v: words.mark_tooltip(ns, names) for v, ns in notes.marks().items()})
        if self.pane.scope == CHAPTER:
            label = names.chapter(notes.ref)
            self.pane.show_notes(notes.notes, words.chapter_heading(label, len(notes.notes)),
                                 words.empty_chapter(label), words.chapter_heading("", len(notes.notes)))

    def _listed(self, listing: NoteListing) -> None:
        if self.pane.scope == ALL:
            self.pane.show_notes(listing.notes, words.list_heading(listing.total, len(listing.notes), listing.query),
                                 "No note matches." if listing.query.strip() else "No notes in this workspace yet.",
                                 words.short_list_heading(listing.total, listing.query))
        self._render_note_count()

    def _removed(self, note: Note | None) -> None:
        self.pane.show_removed(words.removed_text(note, self._w.session.library.names) if note is not None else "")

    def _editor_changed(self, status: EditorStatus) -> None:
        editor = self.notebook.editor
        fresh = status.state is not EditorState.CLOSED and editor.opened != self._filled
        if fresh:
            self._filled = editor.opened
        names = self._w.session.library.names
        where = words.where_ref(status.ref, names)
        title = f"Your note on {where}" if status.note is not None else words.new_note_title(where)
        self.pane.show_editor(status, title, editor.draft if fresh else None)

    def _render_note_count(self) -> None:
        """The filter bar's "My notes" entry with the workspace's count."""
        library = self._w.session.library
        if library.ready:
            self._w.filter_bar.set_choices(library.facets, library.books, library.names, self.notebook.desk.count)

    def _workspace_changed(self, info: WorkspaceInfo) -> None:
        """The workspace changed: the title, the switcher, the results header (an answer is asked anew)."""
        self.pane.show_removed("")
        self.show_workspace()
        self._w.show_status(f"Workspace: {info.name} — its notes, pins, profile and overlay.")

    def show_workspace(self) -> None:
        """The current workspace in the switcher and the window's title."""
        self.switcher.show_workspaces(self.notebook.workspaces)
        self.update_title()

    def update_title(self) -> None:
        """``Romans 9 — Personal — Amicus Desktop``: the chapter and the workspace, in every window list."""
        session = self._w.session
        parts = [session.library.names.chapter(session.reader.chapter), self.notebook.workspaces.current.name,
                 "Amicus Desktop"]
        self._w.setWindowTitle(" — ".join(p for p in parts if p))

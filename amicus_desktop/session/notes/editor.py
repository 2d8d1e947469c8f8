"""Writing a note: the draft and its autosave. No Qt.

:class:`NoteEditor` holds the note being written (a new one on a passage, or one opened to edit) and
its draft. Every change of the draft (:meth:`NoteEditor.type`) makes sure a save is due within
:data:`AUTOSAVE_SECONDS` — a throttle, not a debounce: typing without a pause still saves every few
seconds — and the save is the store's autosave (``Workspace.save``: nothing written when nothing
changed; one atomic, durable transaction when something did). So a crash, even a ``SIGKILL``, loses at
most what was typed in the last few seconds (``tests/session/test_note_autosave.py`` kills a process
that types). :meth:`flush` saves at once (before a question is asked, a workspace switched, the window
closed).

A save names the version the editor started from (``expected_updated``): a note changed elsewhere
meanwhile (the command line, another window) is never overwritten — the editor says so
(:attr:`EditorState.CONFLICT`) and the reader chooses: keep their text (:meth:`keep_mine`) or take the
other (:meth:`take_theirs`). An empty draft is never saved (a note needs text); deleting is a separate,
undoable act.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from dataclasses import dataclass

from ...core.references import PassageRef
from ...notes import Note, NotesCode, NotesError
from ..background import Tasks
from ..events import Event
from .desk import NotesDesk

log = logging.getLogger("amicus.session")

#: At most this long between a keystroke and the save that holds it (seconds).
AUTOSAVE_SECONDS = 2.0


class EditorState(enum.StrEnum):
    CLOSED = "closed"
    #: a new note with no text yet: nothing is saved until there is some
    EMPTY = "empty"
    UNSAVED = "unsaved"
    SAVING = "saving"
    SAVED = "saved"
    #: the note was changed (or deleted) elsewhere since it was opened: nothing was overwritten
    CONFLICT = "conflict"
    FAILED = "failed"


@dataclass(frozen=True)
class EditorStatus:
    """What the editor shows about the note: its state, the version saved (``None``: not saved yet), the
    passage it is on, and a sentence for a conflict or a failure."""

    state: EditorState
    note: Note | None = None
    ref: PassageRef | None = None
    workspace: str | None = None
    message: str = ""


class NoteEditor:
    """One note being written at a time. Events: :attr:`changed` (an :class:`EditorStatus`), :attr:`saved`
    (the note as saved, after every save that wrote)."""

    def __init__(self, desk: NotesDesk, *, delay: float = AUTOSAVE_SECONDS) -> None:
        self._desk = desk
        self._delay = delay
        self.tasks = Tasks("note editor")
        self.status = EditorStatus(EditorState.CLOSED)
        self.draft = ""
        self._saved_text = ""
        self._due: asyncio.TimerHandle | None = None
        self._lock = asyncio.Lock()
        #: counts the notes opened (:meth:`new`, :meth:`open`): a view refills its text when it changes
        self.opened = 0
        self.changed: Event[EditorStatus] = Event("note editor")
        self.saved: Event[Note] = Event("note saved")

    @property
    def is_open(self) -> bool:
        return self.status.state is not EditorState.CLOSED

    @property
    def dirty(self) -> bool:
        """Whether the draft holds text the store does not have yet."""
        return self.is_open and self.draft != self._saved_text

    # -- starting ------------------------------------------------------------------------------------
    def new(self, ref: PassageRef | None) -> None:
        """Start a new note on ``ref`` in the current workspace (saved once it has text)."""
        self._begin(None, ref, "")

    def open(self, note: Note) -> None:
        """Edit ``note`` (of the current workspace)."""
        self._begin(note, note.ref, note.text)

    def _begin(self, note: Note | None, ref: PassageRef | None, text: str) -> None:
        self._cancel_due()
        self.draft = self._saved_text = text
        self.opened += 1
        state = EditorState.SAVED if note is not None else EditorState.EMPTY
        self._set(EditorStatus(state, note, ref, self._desk.workspace_id))

    # -- typing ----------------------------------------------------------------------------------------
    def type(self, text: str) -> None:
        """The draft is now ``text``: a save is due within :data:`AUTOSAVE_SECONDS`."""
        if not self.is_open or text == self.draft:
            return
        self.draft = text
        if self.status.state in (EditorState.CONFLICT, EditorState.SAVING):
            return  # the reader decides first / the save under way schedules the next
        self._set_state(EditorState.UNSAVED if self.dirty else EditorState.SAVED)
        if self.dirty and self._due is None:
            self._due = asyncio.get_running_loop().call_later(self._delay, self._autosave)

    def _autosave(self) -> None:
        self._due = None
        self.tasks.spawn(self._save())

    def _cancel_due(self) -> None:
        if self._due is not None:
            self._due.cancel()
            self._due = None

    async def flush(self) -> None:
        """Save the draft now if the store does not have it yet (and it can be saved)."""
        self._cancel_due()
        if self.dirty and self.status.state is not EditorState.CONFLICT:
            await self._save()

    async def _save(self, *, force: bool = False) -> None:
        async with self._lock:
            text, status = self.draft, self.status
            if not self.is_open or text == self._saved_text or status.workspace is None:
                return
            if not text.strip():
                self._set_state(EditorState.UNSAVED, "An empty note is not saved; delete the note instead.")
                return
            note = status.note
            self._set_state(EditorState.SAVING)
            try:
                saved = await self._desk.save(
                    text, status.ref, note.id if note is not None else None,
                    None if force or note is None else note.updated, status.workspace)
            except NotesError as err:
                log.warning("note not saved", extra={"code": err.code.value})
                state = EditorState.CONFLICT if err.code in (NotesCode.NOTE_CONFLICT, NotesCode.NOTE_NOT_FOUND) \
                    else EditorState.FAILED
                if err.code is NotesCode.NOTE_NOT_FOUND:
                    message = "This note was deleted elsewhere. Keep your text as a new note, or discard it."
                elif err.code is NotesCode.NOTE_CONFLICT:
                    message = "This note was changed elsewhere since you opened it; nothing was overwritten."
                else:
                    message = err.message
                self._set_state(state, message)
                return
            if self.status.workspace != status.workspace or not self.is_open:
                return  # closed meanwhile (its text is saved all the same)
            self._saved_text = saved.text
            self.status = EditorStatus(EditorState.SAVED, saved, saved.ref, status.workspace)
            self._set_state(EditorState.UNSAVED if self.dirty else EditorState.SAVED)
            self.saved.emit(saved)
        if self.dirty and self._due is None:  # typed while saving
            self._due = asyncio.get_running_loop().call_later(self._delay, self._autosave)

    # -- a conflict ----------------------------------------------------------------------------------
    async def keep_mine(self) -> None:
        """After a conflict: save the draft over the other version (as a new note if it was deleted)."""
        if self.status.state is not EditorState.CONFLICT:
            return
        status = self.status
        if status.note is not None and "deleted" in status.message:
            self.status = EditorStatus(EditorState.UNSAVED, None, status.ref, status.workspace)
            self._saved_text = ""
        else:
            self._set_state(EditorState.UNSAVED)
        await self._save(force=True)

    async def take_theirs(self) -> None:
        """After a conflict: drop the draft and edit the version saved elsewhere (closed if it was deleted)."""
        note, wid = self.status.note, self.status.workspace
        if note is None or wid is None:
            self.close_now()
            return
        current = await self._desk.on_workspace(lambda ws: ws.find(note.id), wid)
        if current is None:
            self.close_now()
        else:
            self.open(current)

    # -- closing -------------------------------------------------------------------------------------
    async def close(self) -> None:
        """Save what is unsaved, then stop editing."""
        await self.flush()
        self.close_now()

    def close_now(self) -> None:
        """Stop editing without saving (the draft was saved, or the reader discarded it)."""
        self._cancel_due()
        self.draft = self._saved_text = ""
        self._set(EditorStatus(EditorState.CLOSED))

    async def aclose(self) -> None:
        """The session closes: save the draft, then end the editor's tasks."""
        try:
            await self.flush()
        finally:
            self._cancel_due()
            await self.tasks.aclose()

    def _set_state(self, state: EditorState, message: str = "") -> None:
        s = self.status
        self._set(EditorStatus(state, s.note, s.ref, s.workspace, message))

    def _set(self, status: EditorStatus) -> None:
        self.status = status
        self.changed.emit(status)

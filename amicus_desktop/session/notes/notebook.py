"""The reader's notes in the session: the workspaces, the notes desk, the editor, and their rules. No Qt.

:class:`Notebook` composes the three parts of the reader's own material —
:class:`~..workspaces.Workspaces` (which study is open), :class:`~.desk.NotesDesk` (its notes on their
thread) and :class:`~.editor.NoteEditor` (the note being written) — and holds the rules that tie them to
the rest of the session:

* the workspace is in every question's context (:meth:`Session.context <..controller.Session.context>`
  reads :attr:`workspace_id`), so its notes join every question and no other workspace's ever do;
* a draft is saved before a question is asked (:meth:`before_asking`): what was just typed is found;
* the chapter in the reader is the chapter whose notes are listed and marked;
* notes are embedded with the library's model when the proxy comes back online, and a few seconds after
  a note was written — on the notes thread and the loop, never the UI thread;
* switching workspace (:meth:`switch`) saves the draft, puts the profile, overlay and pins away with the
  workspace left and takes the new one's, drops the answer on screen (it may hold the old workspace's notes:
  re-ranking it would show them under the new one) and asks its question again in the new workspace.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ...connectivity import Connectivity, ProxyState
from ...core.results import ModelInfo
from ...notes import Note
from ...states import DbState, DbStatus
from ..events import Event
from ..workspaces import Held, Workspaces
from .desk import POLL_SECONDS, NotesDesk
from .editor import AUTOSAVE_SECONDS, NoteEditor

if TYPE_CHECKING:
    from ...embedding import EmbedClient
    from ..connection import Connection
    from ..library import Library
    from ..preferences import Preferences
    from ..question import Question
    from ..search import Search

log = logging.getLogger("amicus.session")

#: Seconds after the last save before the notes written are embedded (typing goes on saving meanwhile).
EMBED_AFTER_SECONDS = 3.0


@dataclass(frozen=True)
class NotebookParts:
    """What the notebook uses of its session: the preferences (the profile and overlay a workspace keeps, the
    notices), the library and the connection (when notes can be embedded), the search (the pins a workspace
    keeps), the question (dropped on a switch), how to ask again, and the embedder of the engine open now."""

    prefs: Preferences
    library: Library
    connection: Connection
    search: Search
    question: Question
    ask: Callable[[str], object]
    embedder: Callable[[], EmbedClient | None]


class Notebook:
    """Workspaces, notes and the note editor of one session (see the module docstring)."""

    def __init__(self, parts: NotebookParts, *, poll: float | None = None, autosave: float | None = None) -> None:
        self._parts = parts
        store = parts.prefs.store
        self.workspaces = Workspaces(store.path.with_name("workspaces.json"), read_only=store.read_only)
        self.desk = NotesDesk(self.workspaces.current_id, poll=poll if poll is not None else POLL_SECONDS)
        self.editor = NoteEditor(self.desk, delay=autosave if autosave is not None else AUTOSAVE_SECONDS)
        self._embed_due: asyncio.TimerHandle | None = None
        self._was_online = False
        self._switching: asyncio.Task[None] | None = None
        parts.library.changed.connect(self._library_changed)
        parts.connection.changed.connect(self._connectivity)
        self.editor.saved.connect(self._saved)
        self.desk.removed.connect(self._removed)
        self.desk.pending_changed.connect(self._pending)

    @property
    def events(self) -> list[Event[Any]]:
        """Every event of the notebook's parts (the session's :attr:`changed` follows them)."""
        d = self.desk
        return [self.workspaces.changed, self.workspaces.notice, d.chapter_loaded, d.listing_changed,
                d.pending_changed, d.removed, d.problem, self.editor.changed]

    @property
    def workspace_id(self) -> str:
        return self.workspaces.current_id

    def start(self) -> None:
        if self.workspaces.load_problem:
            self._parts.prefs.notice.emit(self.workspaces.load_problem)
        self.desk.start()

    # -- asking ------------------------------------------------------------------------------------------
    def before_asking(self) -> asyncio.Future[None] | None:
        """The save of an unsaved draft, for a question to await first (``None``: nothing to save)."""
        if not self.editor.dirty:
            return None
        task = self.editor.tasks.spawn(self.editor.flush())
        return asyncio.shield(task) if task is not None else None

    # -- switching ---------------------------------------------------------------------------------------
    def switch(self, workspace_id: str) -> asyncio.Task[None] | None:
        """Make ``workspace_id`` the current workspace (see the module docstring); ``None`` when it already is."""
        if workspace_id == self.workspace_id or self.workspaces.get(workspace_id) is None:
            return None
        self._switching = asyncio.ensure_future(self._switch(workspace_id))
        return self._switching

    async def _switch(self, workspace_id: str) -> None:
        s = self._parts
        await self.editor.close()
        held = self.workspaces.switch(workspace_id, Held(s.prefs.profile, s.search.pins, s.prefs.overlay,
                                                                s.search.scopes))
        if held is None:
            return
        view = s.question.view
        s.question.cancel()
        s.question.clear()  # it may hold the old workspace's notes: never shown under the new one
        self.desk.open(workspace_id)
        s.search.set_pins(held.pins, held.pin_scopes)
        s.prefs.set_profile(held.profile)
        s.prefs.set_overlay(held.overlay)
        if s.search.filters.passages:  # the passages the last workspace marked: never searched under this one
            s.search.set_filters(replace(s.search.filters, passages=()))
        if view is not None:
            s.ask(view.result.query)
        log.info("workspace switched")

    # -- rules -------------------------------------------------------------------------------------------
    def _library_changed(self, state: DbState) -> None:
        if state.status is DbStatus.READY and state.info is not None:
            self.desk.set_model(ModelInfo(state.info.model_id, state.info.dims))

    def _connectivity(self, c: Connectivity) -> None:
        online = c.state is ProxyState.ONLINE
        if online and not self._was_online:
            self.embed_now()  # the proxy is back: the notes written meanwhile are embedded now
        self._was_online = online

    def _pending(self, count: int) -> None:
        if count and self._was_online and self._embed_due is None:  # counted after the proxy came online
            self.embed_now()

    def _saved(self, _note: Note) -> None:
        if self._embed_due is not None:
            self._embed_due.cancel()
        self._embed_due = asyncio.get_running_loop().call_later(EMBED_AFTER_SECONDS, self.embed_now)

    def _removed(self, note: Note | None) -> None:
        status = self.editor.status
        if note is not None and status.note is not None and status.note.id == note.id:
            self.editor.close_now()

    def embed_now(self) -> None:
        """Embed the workspace's pending notes now, if the proxy and the library allow (else later)."""
        self._embed_due = None
        s, model = self._parts, self.desk.model
        embedder = s.embedder()
        if embedder is None or model is None or not s.connection.can_search or not s.library.ready:
            return
        self.desk.embed(embedder, model)

    async def aclose(self) -> None:
        """Save the draft, then close the editor and the desk (the store, on its thread)."""
        if self._embed_due is not None:
            self._embed_due.cancel()
        if self._switching is not None and not self._switching.done():
            await asyncio.wait([self._switching])
        try:
            await self.editor.aclose()
        finally:
            await self.desk.aclose()

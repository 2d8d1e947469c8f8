"""The reader's notes as the window sees them: one workspace's notes, on its own thread. No Qt.

:class:`NotesDesk` holds the :class:`~amicus_desktop.notes.NotesStore` of the app on a dedicated
:class:`~..background.Worker` thread (a store is one SQLite connection for one thread) and everything
the window shows of the current workspace's notes:

* the notes on the chapter in the reader (:attr:`chapter`: the notes pane and the margin marks);
* the workspace's note list, or what a search of it found (:attr:`listing`);
* how many notes wait for a vector of the library's model (:attr:`pending`).

Every read and write runs on the worker, from tasks of the desk's :class:`~..background.Tasks`; the
results come back on the loop. The store is **polled** (:data:`POLL_SECONDS`) through the workspace's
``generation``, one cheap query: a note added, edited or removed by the command line or the service
shows up here within a poll. A removed note is kept for :meth:`undo_remove` (the store's ``restore``:
same id, same times).

Scoping: the desk is always on exactly one workspace (:meth:`open`). Everything it shows is read
through that workspace's :class:`~amicus_desktop.notes.Workspace`, which cannot reach another's notes;
a read that comes back after a switch is dropped, never shown under the new workspace.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ...core.references import ChapterRef, PassageRef
from ...core.results import ModelInfo
from ...embedding.client import EmbedClient
from ...notes import Note, NotesError, NotesStore, Workspace
from ...notes.embedding import EmbedOutcome, embed_pending
from ...notes.store import store_errors
from ..background import Tasks, Worker
from ..events import Event
from .find import find_notes

log = logging.getLogger("amicus.session")

T = TypeVar("T")
F = TypeVar("F")

#: How often the store is asked whether the workspace changed (a note from the command line).
POLL_SECONDS = 2.0
#: At most this many notes in the list (a search narrows it; the rest are counted).
LIST_LIMIT = 500


@dataclass(frozen=True)
class NotesOnChapter:
    """The current workspace's notes on one chapter, in reading order (whole-chapter notes first)."""

    workspace: str
    ref: ChapterRef
    notes: tuple[Note, ...]

    def marks(self) -> dict[int, tuple[Note, ...]]:
        """The margin marks: the notes that start at each verse (a note on the whole chapter: verse 0)."""
        out: dict[int, list[Note]] = {}
        for n in self.notes:
            start = n.ref.verse_start if n.ref is not None and n.ref.verse_start is not None else 0
            out.setdefault(start, []).append(n)
        return {v: tuple(ns) for v, ns in out.items()}


@dataclass(frozen=True)
class NoteListing:
    """The workspace's notes (newest change first) or a search's (best first): at most :data:`LIST_LIMIT`."""

    workspace: str
    query: str
    notes: tuple[Note, ...]
    total: int


class NotesDesk:
    """Events: :attr:`chapter_loaded`, :attr:`listing_changed`, :attr:`pending_changed` (a count),
    :attr:`removed` (a note that :meth:`undo_remove` can bring back, or ``None``), :attr:`problem` (a
    sentence: the store could not be used)."""

    def __init__(self, workspace_id: str, path: Path | None = None, *, poll: float = POLL_SECONDS) -> None:
        self.workspace_id = workspace_id
        self._path = path
        self._poll_seconds = poll
        self._worker = Worker("amicus-notes")
        self._store: NotesStore | None = None
        self.tasks = Tasks("notes")
        self.chapter: NotesOnChapter | None = None
        self.listing = NoteListing(workspace_id, "", (), 0)
        #: the search the list is for: a listing read for another (an earlier search, a poll that started
        #: before the reader typed) is dropped, never shown under the words typed now
        self._query = ""
        self.pending = 0
        #: how many notes the workspace holds (the filter bar's "My notes")
        self.count = 0
        self.last_removed: Note | None = None
        self.model: ModelInfo | None = None  # the library's: what "pending" is counted against
        self._chapter_ref: ChapterRef | None = None
        self._generation: int | None = None
        self._embedding: asyncio.Task[EmbedOutcome | None] | None = None
        self.chapter_loaded: Event[NotesOnChapter] = Event("my notes on the chapter")
        self.listing_changed: Event[NoteListing] = Event("my notes listed")
        self.pending_changed: Event[int] = Event("my notes pending")
        self.removed: Event[Note | None] = Event("my note removed")
        self.problem: Event[str] = Event("my notes problem")
        self._poller: asyncio.Task[None] | None = None

    # -- the worker --------------------------------------------------------------------------------
    def _open(self) -> NotesStore:
        """(worker) The store, opened the first time it is needed."""
        if self._store is None:
            self._store = NotesStore(self._path)
        return self._store

    async def on_workspace(self, fn: Callable[[Workspace], T], workspace_id: str | None = None) -> T:
        """``fn(workspace)`` on the worker, for the current workspace (or ``workspace_id``, the one an
        editor started in); store failures become ``NOTES_STORE_INVALID`` with a sentence."""
        wid = workspace_id or self.workspace_id

        def work() -> T:
            with store_errors():
                return fn(self._open().workspace(wid))

        return await self._worker.run(work)

    def start(self) -> None:
        """Read the workspace and poll it from now on (on the running loop)."""
        if self._poller is None and self.tasks.is_open:
            self._poller = self.tasks.spawn(self._poll())
        self.refresh()

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(self._poll_seconds)
            wid = self.workspace_id
            try:
                generation = await self.on_workspace(lambda ws: ws.generation)
            except NotesError:
                continue
            if wid == self.workspace_id and generation != self._generation:
                await self._reload(wid)

    # -- what is shown -------------------------------------------------------------------------------
    def open(self, workspace_id: str) -> None:
        """Show ``workspace_id``'s notes from now on (a workspace switch): nothing of the one before stays."""
        self.workspace_id = workspace_id
        self.last_removed = None
        self._generation = None
        self.chapter = None
        self.listing = NoteListing(workspace_id, "", (), 0)
        self._query = ""
        self.removed.emit(None)
        self.refresh()

    def show_chapter(self, ref: ChapterRef | None) -> None:
        """The reader is on ``ref``: list the workspace's notes on it."""
        self._chapter_ref = ref
        if ref is not None:
            self.tasks.spawn(self._load_chapter(self.workspace_id, ref))

    def search(self, query: str) -> None:
        """List the notes that match ``query`` (every note, newest change first, when it is blank)."""
        self._query = query
        self.tasks.spawn(self._load_listing(self.workspace_id, query))

    def set_model(self, model: ModelInfo | None) -> None:
        """The library's model (notes without its vector are pending); counted again."""
        self.model = model
        self.tasks.spawn(self._load_pending(self.workspace_id))

    def refresh(self) -> None:
        self.tasks.spawn(self._reload(self.workspace_id))

    async def _reload(self, wid: str) -> None:
        read = await self._guard(self.on_workspace(lambda ws: (ws.generation, ws.count()), wid), None)
        if read is None or wid != self.workspace_id:
            return
        self._generation, self.count = read
        if self._chapter_ref is not None:
            await self._load_chapter(wid, self._chapter_ref)
        await self._load_listing(wid, self._query)
        await self._load_pending(wid)

    async def _load_chapter(self, wid: str, ref: ChapterRef) -> None:
        notes = await self._guard(self.on_workspace(lambda ws: ws.notes(on=PassageRef(ref.book_id, ref.chapter)),
                                                    wid), None)
        if notes is None or wid != self.workspace_id or ref != self._chapter_ref:
            return
        order = sorted(notes, key=lambda n: ((n.ref.verse_start or 0) if n.ref else 0, n.created))
        self.chapter = NotesOnChapter(wid, ref, tuple(order))
        self.chapter_loaded.emit(self.chapter)

    async def _load_listing(self, wid: str, query: str) -> None:
        model_id = self.model.id if self.model is not None else None
        found = await self._guard(self.on_workspace(lambda ws: find_notes(ws, query, LIST_LIMIT, model_id), wid), None)
        if found is None or wid != self.workspace_id or query != self._query:
            return
        notes, total = found
        self.listing = NoteListing(wid, query, tuple(notes), total)
        self.listing_changed.emit(self.listing)

    async def _load_pending(self, wid: str) -> None:
        model = self.model
        if model is None:
            return
        count = await self._guard(self.on_workspace(lambda ws: ws.pending_count(model.id), wid), None)
        if count is not None and wid == self.workspace_id and count != self.pending:
            self.pending = count
            self.pending_changed.emit(count)

    async def _guard(self, work: Awaitable[T], fallback: F) -> T | F:
        """``work``'s value, or ``fallback`` when the store failed (:attr:`problem` says how)."""
        try:
            return await work
        except NotesError as err:
            self.problem.emit(err.message)
            return fallback

    # -- changes -------------------------------------------------------------------------------------
    async def save(self, text: str, ref: PassageRef | None, note_id: str | None, expected_updated: str | None,
                   workspace_id: str) -> Note:
        """Autosave (the store's ``save``) in ``workspace_id``: raises ``NotesError`` (a conflict, an empty
        text) for the editor to say; the lists follow."""
        note = await self.on_workspace(
            lambda ws: ws.save(text, ref, note_id=note_id, expected_updated=expected_updated), workspace_id)
        if workspace_id == self.workspace_id:
            self.refresh()
        return note

    def remove(self, note: Note) -> None:
        """Delete ``note`` (it can be brought back once with :meth:`undo_remove`)."""
        self.tasks.spawn(self._remove(note))

    async def _remove(self, note: Note) -> None:
        wid = note.workspace
        gone = await self._guard(self.on_workspace(lambda ws: ws.remove(note.id), wid), None)
        if gone is not None and wid == self.workspace_id:
            self.last_removed = gone
            self.removed.emit(gone)
            await self._reload(wid)

    def undo_remove(self) -> asyncio.Task[None] | None:
        """Bring back the last note removed (same id and times); ``None`` when there is none."""
        note, self.last_removed = self.last_removed, None
        if note is None or note.workspace != self.workspace_id:
            return None
        self.removed.emit(None)
        return self.tasks.spawn(self._restore(note))

    async def _restore(self, note: Note) -> None:
        if await self._guard(self.on_workspace(lambda ws: ws.restore(note), note.workspace), None) is not None:
            await self._reload(note.workspace)

    # -- embedding -----------------------------------------------------------------------------------
    def embed(self, client: EmbedClient, library: ModelInfo) -> asyncio.Task[EmbedOutcome | None] | None:
        """Embed the workspace's pending notes with ``library``'s model through ``client`` (the proxy is
        back, or a note was written); one run at a time. ``None`` when there is nothing to do."""
        if self.pending == 0 or (self._embedding is not None and not self._embedding.done()):
            return None
        self._embedding = self.tasks.spawn(self._embed(self.workspace_id, client, library))
        return self._embedding

    async def _embed(self, wid: str, client: EmbedClient, library: ModelInfo) -> EmbedOutcome | None:
        async def on_ws(fn: Callable[[Workspace], T], /) -> T:
            return await self.on_workspace(fn, wid)

        outcome = await self._guard(embed_pending(on_ws, client, library), None)
        if wid == self.workspace_id:
            await self._load_pending(wid)
        return outcome

    # -- closing -------------------------------------------------------------------------------------
    async def aclose(self) -> None:
        """Stop polling and reading, then close the store on its thread (queued writes finish first).
        Closing again does nothing."""
        if not self.tasks.is_open:
            return
        await self.tasks.aclose()

        def close() -> None:
            store, self._store = self._store, None
            if store is not None:
                store.close()

        try:
            await self._worker.run(close)
        finally:
            await self._worker.shutdown()

"""The app's state and its asynchronous work, as one QObject the widgets observe.

:class:`Session` owns the :class:`~amicus_desktop.retrieval.Retriever` (its DB thread and its one
HTTP client), the :class:`~amicus_desktop.connectivity.ConnectivityMonitor`, the current chapter,
the profile and the last result. Widgets call its methods and listen to its signals; they never
touch the engine directly.

Threading rule (NOTES.md): the only work that leaves the Qt thread is ``Retriever.run_db`` with a
lambda over plain values (strings, ints); results come back by awaiting on the qasync loop, which
is the Qt thread. No widget, no bound method of a QObject, is ever handed to a worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import time
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from .. import paths
from ..config import resolve_connection
from ..connectivity import Connectivity, ConnectivityMonitor, ProxyState
from ..core.books import BOOKS, BY_ID, parse_reference
from ..core.errors import AmicusError, ErrorCode
from ..core.types import ChapterRef, ModelInfo, Profile, RetrievalContext, RetrievalResult
from ..retrieval import Retriever, rerank_result, validate_query
from ..settings import Settings, SettingsStore
from ..store.scripture import BookRow, StoreInfo

log = logging.getLogger("amicus.ui")

DB_CODES = (ErrorCode.DB_NOT_FOUND, ErrorCode.DB_INVALID, ErrorCode.EXTENSION_NOT_LOADED)


class DbStatus(str, enum.Enum):
    LOADING = "loading"
    READY = "ready"
    MISSING = "missing"  # first run: no database at the default path → welcome
    ERROR = "error"


@dataclass(frozen=True)
class DbState:
    status: DbStatus
    path: Path
    info: StoreInfo | None = None
    error: AmicusError | None = None

    @property
    def ready(self) -> bool:
        return self.status is DbStatus.READY


@dataclass(frozen=True)
class ResultView:
    """What the results pane shows.

    ``previous_ranks`` maps chunk ids to their rank before a re-rank (``None`` after a fresh ask);
    ``cause`` is ``"ask"``, ``"chapter"``, ``"profile"`` or ``"settings"``; ``stale`` marks results
    asked before the proxy went away.
    """

    result: RetrievalResult
    previous_ranks: Mapping[str, int] | None
    cause: str
    asked_at: float
    stale: bool = False


@dataclass(frozen=True)
class Overrides:
    """Connection values given for this run only (command line, environment): never saved."""

    db_path: str | None = None
    proxy_url: str | None = None
    token: str | None = None
    chapter: str | None = None

    @classmethod
    def from_env(cls, db: str | None = None, proxy: str | None = None, chapter: str | None = None) -> Overrides:
        # Flags and the environment only: the saved settings are applied (and changed) by the session.
        c = resolve_connection(db=db, proxy=proxy)
        return cls(
            db_path=str(c.db_path.value) if c.db_path.overridden else None,
            proxy_url=c.proxy_url.value if c.proxy_url.overridden else None,
            token=c.token.value if c.token.overridden else None,
            chapter=chapter,
        )


def canonical_books(ids: set[str] | None = None) -> list[BookRow]:
    """Reader books from the built-in canon (for a DB without a ``books`` table)."""
    return [
        BookRow(b.book_id, b.name, b.ordinal, b.chapters)
        for b in BOOKS
        if ids is None or not ids or b.book_id in ids
    ]


class Session(QObject):
    """State and async work of one window. Create, :meth:`start`, and :meth:`aclose` at the end."""

    dbStateChanged = Signal(object)  # DbState
    connectivityChanged = Signal(object)  # Connectivity
    busyChanged = Signal(bool)
    resultChanged = Signal(object)  # ResultView | None
    askFailed = Signal(object)  # AmicusError
    askStarted = Signal()
    chapterChanged = Signal(object)  # ChapterRef | None
    chapterLoaded = Signal(object, object)  # ChapterRef, list[(verse, text)]
    booksLoaded = Signal(object)  # list[BookRow]
    facetsLoaded = Signal(object)  # {"scholar_id": [(id, n)], "tradition": [...]}
    profileChanged = Signal(object)  # Profile
    settingsChanged = Signal(object)  # Settings
    settingsNotice = Signal(str)

    def __init__(
        self,
        store: SettingsStore | None = None,
        overrides: Overrides | None = None,
        *,
        online_interval: float | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store or SettingsStore()
        self.settings: Settings = self.store.load()
        self.overrides = overrides or Overrides()
        self._online_interval = online_interval
        self.retriever: Retriever | None = None
        self.monitor: ConnectivityMonitor | None = None
        self.db = DbState(DbStatus.LOADING, self.db_path)
        self.connectivity = Connectivity(ProxyState.CHECKING, self.proxy_url)
        self.books: list[BookRow] = []
        self.facets: dict[str, list[tuple[str, int]]] = {"scholar_id": [], "tradition": []}
        self.chapter: ChapterRef | None = None
        self.verses: list[tuple[int, str]] = []
        self.loaded_chapter: ChapterRef | None = None  # the chapter whose text is in ``verses``
        self.view: ResultView | None = None
        self.busy = False
        self.last_error: AmicusError | None = None
        self._ask_task: asyncio.Task[None] | None = None
        self._ask_gen = 0
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing: list[Any] = []  # monitors/retrievers being closed
        self._open_gen = 0
        self._closed = False

    # -- derived connection values --------------------------------------------------------
    @property
    def db_path(self) -> Path:
        if self.overrides.db_path:
            return Path(self.overrides.db_path).expanduser()
        return self.settings.resolved_db_path()

    @property
    def proxy_url(self) -> str:
        return (self.overrides.proxy_url or self.settings.proxy_url).rstrip("/")

    @property
    def token(self) -> str | None:
        return self.overrides.token or self.settings.token

    @property
    def is_default_db(self) -> bool:
        return self.db_path == paths.default_db_path()

    @property
    def profile(self) -> Profile:
        return self.settings.profile

    @property
    def can_ask(self) -> bool:
        return self.db.ready and self.connectivity.can_search and not self._closed

    def context(self, query: str) -> RetrievalContext:
        s = self.settings
        return RetrievalContext(
            query=query, profile=s.profile, chapter=self.chapter, k=s.k,
            candidates=max(s.candidates, s.k), weights=s.weights,
        )

    # -- life cycle ------------------------------------------------------------------------
    def start(self) -> None:
        """Open the database and start watching the proxy (on the running loop)."""
        if self.store.notice:
            self.settingsNotice.emit(self.store.notice)
        self._spawn(self._open())

    async def reopen(self) -> None:
        """Drop the retriever and monitor, and open again with the current settings."""
        await self._teardown()
        await self._open()

    def reload(self) -> None:
        self._spawn(self.reopen())

    async def aclose(self) -> None:
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self._teardown()
        log.info("session closed")

    async def _teardown(self) -> None:
        """Close the monitor and retriever. Each stays in ``_closing`` until it is fully closed, so
        a teardown interrupted by cancellation is finished by the next one (and by :meth:`aclose`)."""
        self._cancel_ask()
        for obj in (self.monitor, self.retriever):
            if obj is not None:
                self._closing.append(obj)
        self.monitor = None
        self.retriever = None
        while self._closing:
            obj = self._closing[0]
            await obj.aclose()
            if self._closing and self._closing[0] is obj:
                self._closing.pop(0)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            log.error("background task failed", exc_info=exc)

    async def _open(self) -> None:
        if self._closed:
            return
        self._open_gen += 1
        gen = self._open_gen
        path = self.db_path
        self._set_db(DbState(DbStatus.LOADING, path))
        retriever = Retriever(path, self.proxy_url, self.token)
        self.retriever = retriever
        kwargs = {} if self._online_interval is None else {"online_interval": self._online_interval}
        monitor = ConnectivityMonitor(retriever.embedder.health, self.proxy_url, **kwargs)
        self.monitor = monitor
        monitor.subscribe(self._on_connectivity)
        self._on_connectivity(monitor.state)
        monitor.start()
        try:
            info = await retriever.open()
        except AmicusError as err:
            if gen == self._open_gen:
                self._db_failed(err)
            return
        except RuntimeError:
            if gen != self._open_gen:  # a newer open already closed this retriever's thread
                return
            raise
        if gen != self._open_gen:
            return
        monitor.set_expected(ModelInfo(info.model_id, info.dims))
        try:
            books, facets, ids = await retriever.run_db(
                lambda store: (store.books(), store.facets(), store.book_ids())
            )
        except AmicusError as err:
            if gen == self._open_gen:
                self._db_failed(err)
            return
        if gen != self._open_gen:
            return
        self.books = books or canonical_books(ids)
        self.facets = facets
        self._set_db(DbState(DbStatus.READY, path, info=info))
        self.booksLoaded.emit(self.books)
        self.facetsLoaded.emit(self.facets)
        self._restore_chapter()

    def _db_failed(self, err: AmicusError) -> None:
        self.last_error = err
        if err.code is ErrorCode.DB_NOT_FOUND and self.is_default_db:
            status = DbStatus.MISSING
        else:
            status = DbStatus.ERROR
        log.warning("database unavailable", extra={"code": err.code.value})
        self.books = canonical_books()
        self._set_db(DbState(status, self.db_path, error=err))
        self.booksLoaded.emit(self.books)

    def _set_db(self, state: DbState) -> None:
        self.db = state
        self.dbStateChanged.emit(state)

    def _restore_chapter(self) -> None:
        candidates = [self.overrides.chapter, self.settings.last_chapter]
        for text in candidates:
            ref = self.resolve_chapter_text(text) if text else None
            if ref is not None:
                self.set_chapter(ref, save=text != self.settings.last_chapter)
                return
        if self.books:
            self.set_chapter(ChapterRef(self.books[0].book_id, 1), save=False)

    def resolve_chapter_text(self, text: str) -> ChapterRef | None:
        found = self.resolve_reference(text)
        return found[0] if found else None

    def resolve_reference(self, text: str) -> tuple[ChapterRef, int | None] | None:
        """``"Rom 9"``, ``"romans:9"``, ``"John 3:16"`` → (chapter, verse), or ``None``."""
        known = frozenset(b.book_id for b in self.books)
        parsed = parse_reference(text or "", known)
        if parsed is None:
            return None
        book, chapter, verse = parsed
        return ChapterRef(book, chapter), verse

    # -- connectivity ----------------------------------------------------------------------
    def _on_connectivity(self, state: Connectivity) -> None:
        previous = self.connectivity
        self.connectivity = state
        if (
            state.state is ProxyState.OFFLINE
            and previous.state is not ProxyState.OFFLINE
            and self.view is not None
            and not self.view.stale
        ):
            self.view = replace(self.view, stale=True)
            self.resultChanged.emit(self.view)
        self.connectivityChanged.emit(state)

    def retry_now(self) -> None:
        if self.monitor is not None:
            self.monitor.retry_now()

    # -- asking ----------------------------------------------------------------------------
    def ask(self, text: str) -> asyncio.Task[None] | None:
        """Ask ``text``; a question in flight is superseded. Returns the task (tests await it)."""
        try:
            validate_query(text)
        except AmicusError as err:
            self.askFailed.emit(err)
            return None
        if not self.can_ask or self.retriever is None:
            return None
        self._cancel_ask()
        self._ask_gen += 1
        task = asyncio.ensure_future(self._ask(self.context(text), self._ask_gen))
        self._ask_task = task
        return task

    def _cancel_ask(self) -> None:
        task, self._ask_task = self._ask_task, None
        if task is not None and not task.done():
            task.cancel()

    async def _ask(self, ctx: RetrievalContext, gen: int) -> None:
        retriever = self.retriever
        monitor = self.monitor
        assert retriever is not None
        self._set_busy(True)
        self.askStarted.emit()
        log.info("ask", extra={"query_chars": len(ctx.query), "k": ctx.k})
        try:
            result = await retriever.retrieve(ctx)
        except asyncio.CancelledError:
            # Superseded by a newer question (or the window closed): nothing to show.
            if gen == self._ask_gen:
                self._set_busy(False)
            return
        except AmicusError as err:
            if gen != self._ask_gen:
                return
            self._set_busy(False)
            self.last_error = err
            log.warning("ask failed", extra={"code": err.code.value})
            if monitor is not None:
                monitor.report_error(err)
            if err.code in DB_CODES:
                self._db_failed(err)
            self.askFailed.emit(err)
            return
        except Exception as exc:  # a bug: say so rather than spin forever
            if gen == self._ask_gen:
                self._set_busy(False)
                log.exception("ask crashed")
                self.askFailed.emit(AmicusError(ErrorCode.EMBED_FAILED, f"Searching failed unexpectedly ({type(exc).__name__}). See the log file."))
            return
        if gen != self._ask_gen:
            return
        self._set_busy(False)
        self.last_error = None
        if monitor is not None:
            monitor.report_success(result.model)
        # The chapter or profile may have changed while the question was in flight.
        current = self.context(ctx.query)
        if current != ctx:
            result = rerank_result(result, current)
        self.view = ResultView(result, None, "ask", time.time())
        self.resultChanged.emit(self.view)

    def _set_busy(self, busy: bool) -> None:
        if busy != self.busy:
            self.busy = busy
            self.busyChanged.emit(busy)

    def clear_result(self) -> None:
        self.view = None
        self.resultChanged.emit(None)

    # -- chapter, profile, settings ---------------------------------------------------------
    def set_chapter(self, ref: ChapterRef | None, *, save: bool = True) -> None:
        """Make ``ref`` the current chapter: load its text and re-rank the results for it."""
        if ref is not None:
            book = self.book(ref.book_id)
            if book is not None and book.chapters:
                ref = ChapterRef(ref.book_id, max(1, min(ref.chapter, book.chapters)))
        changed = ref != self.chapter
        self.chapter = ref
        if changed:
            self.chapterChanged.emit(ref)
            self._rerank("chapter")
            if save and ref is not None:
                self._save(self.settings.replace(last_chapter=str(ref)))
        if ref is not None and self.db.ready:
            self._spawn(self._load_chapter(ref))

    def step_chapter(self, delta: int) -> None:
        """Previous (-1) or next (+1) chapter, crossing into the neighbouring book."""
        if self.chapter is None or not self.books:
            return
        ids = [b.book_id for b in self.books]
        try:
            i = ids.index(self.chapter.book_id)
        except ValueError:
            return
        n = self.chapter.chapter + delta
        book = self.books[i]
        if 1 <= n <= book.chapters:
            self.set_chapter(ChapterRef(book.book_id, n))
        elif n < 1 and i > 0:
            prev = self.books[i - 1]
            self.set_chapter(ChapterRef(prev.book_id, prev.chapters))
        elif n > book.chapters and i + 1 < len(self.books):
            self.set_chapter(ChapterRef(self.books[i + 1].book_id, 1))

    def book(self, book_id: str) -> BookRow | None:
        return next((b for b in self.books if b.book_id == book_id), None)

    def book_name(self, book_id: str | None) -> str:
        if not book_id:
            return ""
        row = self.book(book_id)
        if row is not None:
            return row.name
        canon = BY_ID.get(book_id)
        return canon.name if canon else book_id.replace("-", " ").title()

    def chapter_label(self, ref: ChapterRef | None = None) -> str:
        ref = ref or self.chapter
        return f"{self.book_name(ref.book_id)} {ref.chapter}" if ref else ""

    async def _load_chapter(self, ref: ChapterRef) -> None:
        retriever = self.retriever
        if retriever is None:
            return
        book_id, number = ref.book_id, ref.chapter  # plain values only cross to the DB thread
        try:
            verses = await retriever.run_db(lambda store: store.chapter(book_id, number))
        except AmicusError as err:
            if err.code in DB_CODES:
                self._db_failed(err)
            return
        if ref == self.chapter:
            self.verses = verses
            self.loaded_chapter = ref
            self.chapterLoaded.emit(ref, verses)

    def set_profile(self, profile: Profile) -> None:
        """Save ``profile`` and re-rank the current results with it (no re-embedding)."""
        if profile == self.settings.profile:
            return
        self._save(self.settings.with_profile(profile))
        self.profileChanged.emit(self.settings.profile)
        self._rerank("profile")

    def apply_settings(self, settings: Settings) -> None:
        """Save new settings; reconnect if the DB, proxy or token changed, else re-rank."""
        old = self.settings
        self._save(settings)
        self.settingsChanged.emit(self.settings)
        if settings.profile != old.profile:
            self.profileChanged.emit(settings.profile)
        connection = (old.resolved_db_path(), old.proxy_url, old.token)
        if connection != (settings.resolved_db_path(), settings.proxy_url, settings.token):
            if settings.db_path != old.db_path:
                self.overrides = replace(self.overrides, db_path=None)
            if settings.proxy_url != old.proxy_url:
                self.overrides = replace(self.overrides, proxy_url=None)
            self.clear_result()
            self.reload()
        else:
            self._rerank("settings")

    def open_database(self, path: str | Path) -> None:
        """Use the database at ``path`` from now on (saved) and open it, even if it is the same file."""
        self.overrides = replace(self.overrides, db_path=None)
        self._save(self.settings.replace(db_path=str(path)))
        self.settingsChanged.emit(self.settings)
        self.clear_result()
        self.reload()

    def _save(self, settings: Settings) -> None:
        self.settings = settings
        was_writable = self.store.writable
        self.store.save(settings)
        if was_writable and not self.store.writable and self.store.notice:
            self.settingsNotice.emit(self.store.notice)

    def _rerank(self, cause: str) -> None:
        view = self.view
        if view is None:
            return
        previous = {r.chunk_id: r.rank for r in view.result.results}
        result = rerank_result(view.result, self.context(view.result.query))
        self.view = ResultView(result, previous, cause, view.asked_at, view.stale)
        self.resultChanged.emit(self.view)

"""The engine a service process holds: the same :class:`~amicus_desktop.retrieval.Retriever` as ``query``.

A :class:`Library` keeps a few *lanes* — each one ``Retriever`` with its own database thread and
read-only connection — over one scripture.db, sharing one embed client (one HTTP connection pool and
one cache of question vectors). A request goes to the lane with the least work in flight, so two
searches can run at once on two cores (numpy and SQLite release the GIL while they work) while the
event loop keeps answering. Every lane reopens the library by itself when the file is replaced (the
``Retriever`` checks the file on each call), and never writes to it.

The request → context → result step is :meth:`Library.retrieve`, in the order of CONTRACT sections 5
and 9: the library (404/500), then the parameters that need its book ids (400), the request's scope
(:mod:`.scope`: notes and overlays plug in there), then the retrieval itself (503, 409).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import weakref
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ..core.errors import AmicusError
from ..core.names import Names
from ..core.results import RetrievalResult
from ..embedding.client import EmbedClient
from ..retrieval import Retriever
from ..store.library import LibraryStore, library_location
from ..store.scripture import StoreInfo
from ..verses import VerseSearch, VerseSearchResult
from ..verses.engine import not_indexed
from .errors import ServiceError, bad_request
from .params import RetrieveParams
from .reading import VersesParams
from .scope import Scope, apply

T = TypeVar("T")

#: lanes by default: one per core of the machines the project is measured on (docs/PERFORMANCE.md).
DEFAULT_LANES = 2
#: seconds a proxy health answer is reused (a load balancer may ask ``/health`` every second).
HEALTH_TTL = 2.0
#: seconds ``/health`` waits for the proxy's own ``/health``.
HEALTH_TIMEOUT = 2.0


@dataclass(frozen=True)
class Facts:
    """What a library names: the book ids a ``filter.book`` or ``chapter`` may resolve to, and the
    display names of its books and scholars (for titles and citations)."""

    book_ids: frozenset[str]
    names: Names


@dataclass(frozen=True)
class Answer:
    """A retrieval and the names to present it with."""

    result: RetrievalResult
    names: Names


def read_facts(store: LibraryStore) -> Facts:
    return Facts(frozenset(store.book_ids()), store.names())


class _Lane:
    """One ``Retriever`` and the facts of the store it has open (touched on its DB thread only)."""

    def __init__(self, retriever: Retriever) -> None:
        self.retriever = retriever
        self.busy = 0
        self._facts: tuple[weakref.ref[LibraryStore], Facts] | None = None

    def facts(self, store: LibraryStore) -> Facts:
        """(DB thread) The facts of ``store``, read once per opened file."""
        if self._facts is None or self._facts[0]() is not store:
            self._facts = (weakref.ref(store), read_facts(store))
        return self._facts[1]


class Library:
    """One scripture.db, read through ``lanes`` retrievers that share one embed client."""

    def __init__(self, db_path: str | Path, proxy_url: str, token: str | None = None, *,
                 lanes: int = DEFAULT_LANES, notes_store: str | None = None,
                 embedder: EmbedClient | None = None) -> None:
        self.db_path = library_location(db_path)  # a path, or a postgresql:// URL
        # embedder: the model in this process (serve --embed local), else the proxy at proxy_url
        self.embedder = embedder or EmbedClient(proxy_url, token)
        self.notes_store = notes_store
        # notes_store: a postgresql:// URL or a notes file (None: the data folder's), amicus_desktop.notes
        self._lanes = [_Lane(Retriever(self.db_path, proxy_url, embed_client=self.embedder, notes_path=notes_store))
                       for _ in range(max(1, lanes))]
        self._health: tuple[float, bool] | None = None
        self._health_lock: asyncio.Lock | None = None

    @contextlib.asynccontextmanager
    async def _lane(self) -> AsyncIterator[_Lane]:
        lane = min(self._lanes, key=lambda x: x.busy)
        lane.busy += 1
        try:
            yield lane
        finally:
            lane.busy -= 1

    async def retrieve(self, params: RetrieveParams, scope: Scope, *, inline: bool = False) -> Answer:
        """The retrieval ``params`` ask for under ``scope``; :class:`ServiceError` for every failure the
        contract names (anything else is a bug and propagates). ``inline``: the request is small
        (:func:`~.params.is_small`), so its books are resolved on the event loop instead of a worker thread."""
        async with self._lane() as lane:
            r = lane.retriever
            try:
                facts = await r.run_db(lane.facts)  # opens (or reopens) the library: 404/500 first
                # off the event loop: 1,000 filter values are as many book names to resolve
                ctx = (apply(params, scope, facts.book_ids) if inline
                       else await asyncio.to_thread(apply, params, scope, facts.book_ids))
                return Answer(await r.retrieve(ctx), facts.names)
            except AmicusError as err:  # NotesError too: the workspace's notes store (500 damaged, 503 busy)
                raise ServiceError.of(err) from None

    async def read(self, fn: Callable[[LibraryStore, Facts], T]) -> T:
        """``fn(store, facts)`` on a lane's database thread (``read_passage``, ``/health``)."""
        async with self._lane() as lane:
            try:
                return await lane.retriever.run_db(lambda store: fn(store, lane.facts(store)))
            except AmicusError as err:
                raise ServiceError.of(err) from None

    async def verses(self, ask: VersesParams) -> VerseSearchResult:
        """The verse search ``ask`` describes (``verses --json``'s engine): ``VERSES_NOT_INDEXED`` before its
        books are resolved (a library without verses names none), an unknown translation a 400."""
        async with self._lane() as lane:
            engine = VerseSearch(lane.retriever)
            try:
                await lane.retriever.open()
                library = await engine.library()
                missing = not_indexed(library, ask.mode)
                if missing is not None:
                    raise missing
                return await engine.search(ask.query(library.books))
            except AmicusError as err:
                raise ServiceError.of(err) from None
            except ValueError as exc:  # an unknown translation: the engine's usage error
                raise bad_request(str(exc)) from None

    async def info(self) -> StoreInfo:
        """What the library holds (``DB_NOT_FOUND``/``DB_INVALID``… as :class:`ServiceError`)."""
        return await self.read(lambda store, _facts: store.info)

    async def proxy_online(self) -> bool:
        """Whether the embed proxy answers its ``/health`` (asked at most every :data:`HEALTH_TTL` s)."""
        if self._health_lock is None:
            self._health_lock = asyncio.Lock()
        async with self._health_lock:
            now = time.monotonic()
            if self._health is not None and now - self._health[0] < HEALTH_TTL:
                return self._health[1]
            try:
                await asyncio.wait_for(self.embedder.health(), HEALTH_TIMEOUT)
                online = True
            except (AmicusError, TimeoutError):
                online = False
            self._health = (time.monotonic(), online)
            return online

    async def aclose(self) -> None:
        for lane in self._lanes:
            await lane.retriever.aclose()  # each closes the shared embed client too; closing twice is harmless

"""One opened database and proxy: the retriever and the connectivity monitor, with an explicit life.

An :class:`Engine` is made for one (database path, proxy URL, token) and is never reused: a new
database or proxy means a new engine. Its life is ``open`` → ``closing`` → ``closed``:

* while open, the session's background work for it (loading the library, a chapter's text, a
  question) runs as tasks *the engine owns* (:meth:`Engine.spawn`, a :class:`~.background.Tasks`
  group);
* :meth:`Engine.aclose` first refuses new tasks, then cancels and awaits its own, and only then
  closes the monitor and the retriever (the DB thread and the HTTP client).

So no work is ever submitted to a retriever whose thread has been shut down, and nobody has to
guess from an exception whether that happened. Closing runs in a task of its own that callers
await shielded: a caller cancelled half-way (a superseded re-open) does not leave it half done,
and the next caller awaits the same close.

Threading rule: the only work that leaves the event loop's thread is :meth:`Engine.run_db` with a
function over plain values (strings, ints); results come back by awaiting on the loop.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

from .. import paths
from ..connectivity import ONLINE_INTERVAL, ConnectivityMonitor
from ..retrieval import Retriever
from ..store.library import LibraryStore
from .background import Tasks

log = logging.getLogger("amicus.session")

T = TypeVar("T")


class EngineState(enum.StrEnum):
    """Whether an engine is open, closing or closed."""

    OPEN = "open"
    CLOSING = "closing"
    CLOSED = "closed"


class Engine:
    """The :class:`~amicus_desktop.retrieval.Retriever` and :class:`~amicus_desktop.connectivity.
    ConnectivityMonitor` for one database and proxy, and the tasks working on them."""

    def __init__(self, db_path: Path, proxy_url: str, token: str | None, *,
                 online_interval: float = ONLINE_INTERVAL) -> None:
        self.db_path = db_path
        self.proxy_url = proxy_url
        self.retriever = Retriever(db_path, proxy_url, token)
        self.monitor = ConnectivityMonitor(self.retriever.embedder.health, proxy_url, online_interval=online_interval)
        self.state = EngineState.OPEN
        self.tasks = Tasks("engine")
        self._closing: asyncio.Task[None] | None = None

    @property
    def is_open(self) -> bool:
        return self.state is EngineState.OPEN

    @property
    def is_default_db(self) -> bool:
        """Whether this engine's database is the one the app looks for first (→ welcome when missing)."""
        return self.db_path == paths.default_db_path()

    def spawn(self, coro: Coroutine[Any, Any, T]) -> asyncio.Task[T] | None:
        """Run ``coro`` as a task of this engine; ``None`` (and ``coro`` closed unrun) once it is closing."""
        return self.tasks.spawn(coro)

    async def run_db(self, fn: Callable[[LibraryStore], T]) -> T:
        """``fn(store)`` on the DB thread. Only called from this engine's own tasks, which
        :meth:`aclose` finishes before it closes the retriever."""
        return await self.retriever.run_db(fn)

    def aclose(self) -> asyncio.Future[None]:
        """Close once; every call returns (a shield of) the same close, safe to await from many places."""
        if self._closing is None:
            self.state = EngineState.CLOSING
            self.tasks.close()
            self._closing = asyncio.ensure_future(self._close())
        return asyncio.shield(self._closing)

    async def _close(self) -> None:
        await self.tasks.aclose()
        await self.monitor.aclose()
        await self.retriever.aclose()
        self.state = EngineState.CLOSED
        log.info("engine closed")

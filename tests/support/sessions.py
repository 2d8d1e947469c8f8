"""A session driven from a test: make one, wait for a state, record its events. No Qt.

:func:`make_session` builds a :class:`Session` on a database path and a proxy URL (settings live in
the test's own ``AMICUS_HOME``); :func:`reach` waits for a condition or fails the test;
:class:`Recorder` keeps every event of every part, in order; :func:`run` runs a coroutine on a new
event loop within a deadline, for tests written as plain functions. Async tests in
``tests/session/`` get their sessions from the ``open_session`` fixture instead
(``tests/session/conftest.py``), which closes them when the test ends, passed or failed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from amicus_desktop.session import Event, Overrides, Session
from amicus_desktop.settings import SettingsStore

T = TypeVar("T")

#: ``open_session(db, proxy_url, chapter=None, **session_options)``: the fixture's factory.
OpenSession = Callable[..., Session]


def run(coro: Awaitable[T], timeout: float = 30.0) -> T:
    async def bounded() -> T:
        return await asyncio.wait_for(coro, timeout)

    return asyncio.run(bounded())


def make_session(db: Path | None, proxy: str, chapter: str | None = None, **kw: Any) -> Session:
    return Session(SettingsStore(), Overrides(db_path=str(db) if db else None, proxy_url=proxy, chapter=chapter), **kw)


async def reach(session: Session, condition: Callable[[], bool], timeout: float = 10.0) -> None:
    assert await session.until(condition, timeout), "state not reached"


class Recorder:
    """Every event of every part of a session, in order, as (event name, value)."""

    def __init__(self, session: Session) -> None:
        self.seen: list[tuple[str, Any]] = []
        for part in (session.prefs, session.library, session.connection, session.reader, session.question):
            for event in vars(part).values():
                if isinstance(event, Event):
                    event.connect(lambda value, name=event.name: self.seen.append((name, value)))

    def values(self, name: str) -> list[Any]:
        return [v for n, v in self.seen if n == name]

"""A session driven from a test: make one, wait for a state, record its events. No Qt.

:func:`make_session` builds a :class:`Session` on a database path and a proxy URL (settings live in
the test's own ``AMICUS_HOME``); :func:`reach` waits for a condition or fails the test;
:class:`Recorder` keeps every event of every part, in order. Tests get their sessions from the
``open_session`` fixture (``tests/session/conftest.py``), which closes them when the test ends, passed
or failed.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from amicus_desktop.session import Event, Overrides, Session
from amicus_desktop.settings import SettingsStore

#: ``open_session(db, proxy_url, chapter=None, **session_options)``: the fixture's factory.
OpenSession = Callable[..., Session]


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

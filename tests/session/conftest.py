"""Fixtures for the session's tests: async tests on asyncio (anyio's pytest plugin), a scripted
proxy, and sessions that are closed when the test ends — a failing assertion leaks no engine, no
database thread and no HTTP client into the tests after it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from amicus_desktop.session import Session
from tests.support.scripted_proxy import ScriptedProxy
from tests.support.sessions import OpenSession, make_session


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def proxy() -> Iterator[ScriptedProxy]:
    """A scripted proxy for the 8-dimensional test databases (``small_db``)."""
    with ScriptedProxy(dims=8) as p:
        yield p


@pytest.fixture
async def open_session() -> AsyncIterator[OpenSession]:
    """``open_session(db, proxy_url, chapter=None, **options)``: a new session (not started yet);
    every session it made is closed after the test, in the test's event loop."""
    sessions: list[Session] = []

    def make(db: Path | None, proxy_url: str, chapter: str | None = None, **options: Any) -> Session:
        session = make_session(db, proxy_url, chapter, **options)
        sessions.append(session)
        return session

    yield make
    for session in reversed(sessions):
        await session.aclose()  # closing twice is harmless: a test may close one itself

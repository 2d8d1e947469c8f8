"""An engine's life (``session/engine.py``): re-opening closes every engine but the last, closing while
opening leaves nothing running."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from amicus_desktop.session import EngineState
from amicus_desktop.settings import SettingsStore
from tests.support.dbs import BOOKS, build_db, demo_like_chunks, verses
from tests.support.proxy import free_port
from tests.support.scripted_proxy import ScriptedProxy
from tests.support.sessions import OpenSession, reach

pytestmark = pytest.mark.anyio  # async tests on asyncio; see conftest.py


def db_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name.startswith("amicus-db"))


async def test_reopening_twice_closes_every_engine_but_the_last(
    small_db: Path, tmp_path: Path, open_session: OpenSession
) -> None:
    other = build_db(tmp_path / "other.db", demo_like_chunks(dims=8)[:20], books=BOOKS, verses=verses())
    before = db_threads()
    with ScriptedProxy(dims=8) as proxy:
        session = open_session(small_db, proxy.url)
        ready_on: list[object] = []  # the engine current when the library became ready
        text_on: list[object] = []  # ... and when a chapter's text arrived
        session.library.changed.connect(lambda state: ready_on.append(session.engine) if state.ready else None)
        session.reader.text_loaded.connect(lambda _text: text_on.append(session.engine))
        session.start()
        await reach(session, lambda: session.library.ready)
        engines = [session.engine]
        session.open_database(other)
        for _ in range(3):  # the first re-open gets under way (closing the first engine)
            await asyncio.sleep(0)
        engines.append(session.engine)
        session.open_database(small_db)  # supersedes it
        await reach(session, lambda: session.engine not in (None, *engines) and session.engine in ready_on
                    and session.engine in text_on)
        assert session.library.state.path == small_db
        current = session.engine
        assert current is not None and current.is_open and current not in engines
        assert all(e is None or e.state is EngineState.CLOSED for e in engines)
        assert session.library.state.info is not None and session.library.state.info.chunk_count == 112
        assert db_threads() == before + 1
        assert SettingsStore().load().db_path == str(small_db)
        await session.aclose()
        assert current.state is EngineState.CLOSED and db_threads() == before


async def test_closing_while_opening_leaves_nothing_running(small_db: Path, open_session: OpenSession) -> None:
    before = db_threads()
    session = open_session(small_db, f"http://127.0.0.1:{free_port()}")
    session.start()
    engine = session.engine
    session.reload()
    await asyncio.sleep(0)
    await session.aclose()
    assert engine is not None and engine.state is EngineState.CLOSED
    assert session.engine is None and not session.can_ask and db_threads() == before
    # a closed engine takes no more work (and the coroutine is closed, not left unawaited)
    assert engine.spawn(asyncio.sleep(0)) is None
    session.start()  # a closed session stays closed
    assert session.engine is None

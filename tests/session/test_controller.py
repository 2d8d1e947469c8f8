"""The session as a whole (:class:`~amicus_desktop.session.Session`, ``session/controller.py``): starting
it, a new engine when the proxy changes, waiting for a state, a real question end to end. No Qt:
an asyncio loop, real sqlite-vec files and real HTTP servers (the scripted proxy speaks the embed
contract and fails on cue; the real local proxy answers the question that needs real meaning).
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from amicus_desktop.connectivity import ProxyState
from amicus_desktop.core.references import ChapterRef
from amicus_desktop.session import DbStatus, EngineState
from amicus_desktop.settings import SettingsStore
from amicus_desktop.verses.memory import VerseMemory
from tests.support.dbs import demo_like_chunks
from tests.support.proxy import ProxyProcess, free_port
from tests.support.scripted_proxy import ScriptedProxy
from tests.support.sessions import OpenSession, Recorder, reach

pytestmark = pytest.mark.anyio  # async tests on asyncio; see conftest.py


async def test_start_opens_the_library_follows_the_proxy_and_restores_the_chapter(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    session = open_session(small_db, proxy.url, chapter="rom 9")
    seen = Recorder(session)
    session.start()
    await reach(session, lambda: session.can_ask and session.reader.loaded_chapter is not None)
    assert [s.status for s in seen.values("database state")] == [DbStatus.LOADING, DbStatus.READY]
    states = [c.state for c in seen.values("connectivity")]
    assert states[0] is ProxyState.CHECKING and states[-1] is ProxyState.ONLINE
    assert [b.book_id for b in session.library.books] == ["john", "romans"]
    assert session.library.state.info is not None
    assert session.library.state.info.chunk_count == len(demo_like_chunks()) == 112
    assert dict(session.library.facets["scholar_id"])["spurgeon"] == 32
    assert session.reader.chapter == ChapterRef("romans", 9)
    text = seen.values("chapter text loaded")[-1]
    assert text.ref == ChapterRef("romans", 9) and len(text.verses) == 12
    assert "verse 4 of Romans 9" in text.verses[3][1]
    # --chapter is this run's choice: remembered as the last chapter read
    assert SettingsStore().load().last_chapter == "romans:9"


async def test_a_question_in_flight_is_dropped_when_the_proxy_changes(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    proxy.behaviour = lambda body: (time.sleep(0.5), None)[1] if body.get("input") else None
    session = open_session(small_db, proxy.url)
    seen = Recorder(session)
    session.start()
    await reach(session, lambda: session.can_ask)
    first_engine = session.engine
    task = session.ask("grace")
    await asyncio.sleep(0.05)
    assert session.question.busy
    session.apply_settings(session.prefs.settings.replace(proxy_url=proxy.url + "/"))  # same server, new URL
    assert not session.question.busy and session.question.view is None  # dropped at once
    await reach(session, lambda: session.can_ask and session.engine is not first_engine)
    assert task is not None and task.done()
    assert [v for v in seen.values("result") if v is not None] == []
    assert first_engine is not None and first_engine.state is EngineState.CLOSED


async def test_until_resumes_on_a_change_and_times_out_otherwise(small_db: Path, open_session: OpenSession) -> None:
    session = open_session(small_db, f"http://127.0.0.1:{free_port()}")
    t0 = time.monotonic()
    assert await session.until(lambda: False, 0.05) is False
    assert time.monotonic() - t0 < 1.0
    assert await session.until(lambda: True, 0) is True
    waiter = asyncio.ensure_future(session.until(lambda: session.reader.chapter == ChapterRef("john", 2), 5))
    await asyncio.sleep(0)
    assert not waiter.done()
    session.set_chapter(ChapterRef("john", 2))  # no database yet: the chapter still changes
    assert await waiter is True


# -- with the real local model -----------------------------------------------------------------------
@pytest.mark.slow
async def test_a_real_question_through_the_real_proxy(
    local_proxy: ProxyProcess, study_db: Path, open_session: OpenSession
) -> None:
    """Real Romans 9 commentary embedded by the local model, asked through the real proxy."""
    session = open_session(study_db, local_proxy.url, chapter="romans:9")
    session.start()
    await reach(session, lambda: session.can_ask and session.reader.loaded_chapter is not None, timeout=20)
    assert session.reader.text is not None and "Jacob" in " ".join(t for _n, t in session.reader.text.verses)
    task = session.ask("Why did God choose Jacob and not Esau?")
    assert task is not None
    await task
    view = session.question.view
    assert view is not None and session.connection.state.model == view.result.model
    top = view.result.results[0]
    assert (top.candidate.metadata.book_id, top.candidate.metadata.chapter_num) == ("romans", 9)
    assert top.breakdown.chapter_boost == 1.5
    assert not view.result.trace.embedding_cached
    again = session.ask("Why did God choose Jacob and not Esau?")  # the same words: the vector is kept
    assert again is not None
    await again
    assert session.question.view is not None and session.question.view.result.trace.embedding_cached


async def test_verse_search_memory_is_read_after_the_first_answer_not_before_it(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    """The question asked at launch (``--query``, a quick reader) does not queue behind verse search's memory on
    the database thread: the memory is read once that question has its answer. Here the proxy holds the
    question's embedding until the test has looked."""
    release = threading.Event()
    proxy.behaviour = lambda body: None if body.get("health") else (release.wait(10), None)[1]
    session = open_session(small_db, proxy.url, chapter="rom 9")
    session.start()
    await reach(session, lambda: session.can_ask and session.reader.loaded_chapter is not None)
    engine = session.engine
    assert engine is not None
    try:
        task = session.ask("grace")
        assert task is not None
        await asyncio.sleep(0.5)  # time enough for a warm-up that did not wait
        assert await engine.run_db(VerseMemory.cached) is None
    finally:
        release.set()
    await task
    assert session.question.view is not None
    deadline = time.monotonic() + 10
    while await engine.run_db(VerseMemory.cached) is None:
        assert time.monotonic() < deadline, "verse search's memory was never read"
        await asyncio.sleep(0.05)

"""Asking (``session/question.py``): an answer, re-ranking it without a new embedding, a newer question
superseding one in flight, and every way asking fails: an invalid question, the proxy, a bug."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from pathlib import Path

import pytest

from amicus_desktop import paths
from amicus_desktop.connectivity import ProxyState
from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.core.query import Profile
from amicus_desktop.core.references import ChapterRef, PassageRef
from amicus_desktop.logs import setup_logging, shutdown_logging
from amicus_desktop.session import InternalError
from tests.support.scripted_proxy import ScriptedProxy, reply_json
from tests.support.sessions import OpenSession, Recorder, reach

pytestmark = pytest.mark.anyio  # async tests on asyncio; see conftest.py


async def test_ask_then_rerank_for_chapter_profile_and_settings_without_new_embedding(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    session = open_session(small_db, proxy.url, chapter="romans:9")
    seen = Recorder(session)
    session.start()
    await reach(session, lambda: session.can_ask)
    task = session.ask("grace")
    assert task is not None
    await task
    view = session.question.view
    assert view is not None and view.cause == "ask" and view.previous_ranks is None
    assert len(view.result.results) == 10 and proxy.embed_requests == 1
    assert view.result.context == session.context("grace")
    assert seen.values("busy") == [True, False]

    session.set_chapter(ChapterRef("john", 3))
    moved = session.question.view
    assert moved is not None and moved.cause == "chapter" and moved.asked_at == view.asked_at
    assert moved.previous_ranks == {r.chunk_id: r.rank for r in view.result.results}
    assert moved.result.context is not None and moved.result.context.chapter == ChapterRef("john", 3)
    assert moved.result.candidates == view.result.candidates

    session.set_profile(Profile.of(["spurgeon"], []))
    preferred = session.question.view
    assert preferred is not None and preferred.cause == "profile"
    assert any(r.breakdown.scholar_boost == 1.1 for r in preferred.result.results)

    session.apply_settings(session.prefs.settings.replace(k=5, candidates=3))
    fewer = session.question.view
    assert fewer is not None and fewer.cause == "settings" and len(fewer.result.results) == 5
    assert session.context("x").candidates == 5  # never fewer candidates than k
    assert proxy.embed_requests == 1  # none of the re-ranks embedded again
    saved = json.loads((paths.config_dir() / "settings.json").read_text())
    assert saved["preferred_scholars"] == ["spurgeon"] and saved["k"] == 5
    assert saved["last_chapter"] == "john:3"


async def test_a_newer_question_supersedes_the_one_in_flight(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    arrived = threading.Event()

    def behaviour(body: dict[str, object]) -> None:
        if body.get("input") == "slow one":
            arrived.set()
            time.sleep(0.6)

    proxy.behaviour = behaviour
    session = open_session(small_db, proxy.url)
    seen = Recorder(session)
    session.start()
    await reach(session, lambda: session.can_ask)
    first = session.ask("slow one")
    assert await asyncio.to_thread(arrived.wait, 30)  # in flight: the proxy holds it
    second = session.ask("quick one")
    assert first is not None and second is not None
    await asyncio.wait([first, second])
    shown = [v.result.query for v in seen.values("result") if v is not None]
    assert shown == ["quick one"]
    assert seen.values("busy") == [True, False] and not session.question.busy


async def test_an_invalid_question_is_said_at_once_without_io(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    session = open_session(small_db, proxy.url)
    seen = Recorder(session)
    session.start()
    await reach(session, lambda: session.can_ask)
    assert session.ask("x" * 2500) is None
    [failure] = seen.values("ask failed")
    assert isinstance(failure, AmicusError) and failure.code is ErrorCode.QUERY_INVALID
    assert "2,500 characters" in failure.message
    assert proxy.embed_requests == 0 and session.connection.state.state is ProxyState.ONLINE


async def test_a_proxy_failure_is_embed_failed(small_db: Path, proxy: ScriptedProxy, open_session: OpenSession) -> None:
    session = open_session(small_db, proxy.url)
    seen = Recorder(session)
    session.start()
    await reach(session, lambda: session.can_ask)
    proxy.behaviour = lambda body: None if body.get("health") else reply_json(
        500, {"error": {"code": "UPSTREAM", "message": "boom"}})
    task = session.ask("grace")
    assert task is not None
    await task
    [failure] = seen.values("ask failed")
    assert isinstance(failure, AmicusError) and failure.code is ErrorCode.EMBED_FAILED
    assert session.connection.state.state is ProxyState.EMBED_FAILED and session.can_ask
    assert not session.question.busy and session.question.view is None


async def test_failed_question_is_kept_until_an_answer_and_a_reask_reuses_the_vector(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    session = open_session(small_db, proxy.url)
    seen = Recorder(session)
    session.start()
    await reach(session, lambda: session.can_ask)
    proxy.behaviour = lambda body: None if body.get("health") else reply_json(
        500, {"error": {"code": "UPSTREAM", "message": "boom"}})
    task = session.ask("grace and peace")
    assert task is not None
    await task
    assert session.question.failed_text == "grace and peace"
    assert seen.values("ask failed")
    proxy.behaviour = None
    first = session.ask("grace and peace")
    assert first is not None
    await first
    assert session.question.failed_text is None
    view = session.question.view
    assert view is not None and not view.result.trace.embedding_cached
    requests = proxy.embed_requests
    again = session.ask("grace and peace")
    assert again is not None
    await again
    view = session.question.view
    assert view is not None and view.result.trace.embedding_cached  # the session's vector cache
    assert proxy.embed_requests == requests  # no new embed
    assert session.question.history.items == ("grace and peace",)


async def test_a_bug_while_asking_is_an_internal_error_with_the_log_file(
    small_db: Path, monkeypatch: pytest.MonkeyPatch, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    """A programming error (here: the re-ranking step raising) is reported as what it is, with
    where the traceback went, and leaves the proxy's state alone."""
    from amicus_desktop.retrieval import pipeline

    def broken_rerank(*_args: object) -> None:
        raise ZeroDivisionError("a bug")

    log_file = setup_logging(stderr_level=None)
    try:
        session = open_session(small_db, proxy.url)
        seen = Recorder(session)
        session.start()
        await reach(session, lambda: session.can_ask)
        monkeypatch.setattr(pipeline, "rerank", broken_rerank)
        task = session.ask("grace")
        assert task is not None
        await task
        [failure] = seen.values("ask failed")
        assert failure == InternalError("ZeroDivisionError", log_file)
        assert session.connection.state.state is ProxyState.ONLINE  # not the proxy's fault
        assert not session.question.busy
        for handler in logging.getLogger("amicus").handlers:
            handler.flush()
        assert log_file is not None
        text = log_file.read_text("utf-8")
        assert "ask crashed" in text and "ZeroDivisionError: a bug" in text and "grace" not in text
    finally:
        shutdown_logging()


# -- stable answers -------------------------------------------------------------------------------
async def test_peeking_at_a_result_never_reranks_and_a_move_reranks_undoably(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    rom9, john3 = ChapterRef("romans", 9), ChapterRef("john", 3)
    session = open_session(small_db, proxy.url, chapter="romans:9")
    session.start()
    await reach(session, lambda: session.can_ask)
    task = session.ask("grace")
    assert task is not None
    await task
    asked = session.question.view
    assert asked is not None and session.question.ranked_for == rom9
    # opening a result in John 3 to read it: the reader goes there, the answer does not move
    session.open_passage(PassageRef("john", 3, 16, 16), peek=True)
    assert session.reader.chapter == john3
    assert session.question.view is asked and session.question.undo_view is None
    # going to John 3 on purpose (the go-to box): re-ranked for it, visibly, and undoable once
    session.set_chapter(rom9)
    session.open_passage(PassageRef("john", 3, None, None))
    moved = session.question.view
    assert moved is not None and moved.cause == "chapter" and session.question.ranked_for == john3
    assert moved.previous_ranks == {r.chunk_id: r.rank for r in asked.result.results}
    assert session.question.undo()
    assert session.question.view is not None and session.question.view.result.results == asked.result.results
    assert session.question.ranked_for == rom9 and not session.question.undo()
    # a profile change re-ranks for the chapter the answer is ranked for, not the reader's
    session.set_profile(Profile.of(["spurgeon"], []))
    preferred = session.question.view
    assert preferred is not None and preferred.cause == "profile"
    assert session.question.ranked_for == rom9 and session.reader.chapter == john3


async def test_an_answer_in_flight_follows_a_move_but_not_a_peek(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    rom9, john3 = ChapterRef("romans", 9), ChapterRef("john", 3)
    session = open_session(small_db, proxy.url, chapter="romans:9")
    session.start()
    # the restored chapter too: it comes after the library is ready, and would undo a move made before it
    await reach(session, lambda: session.can_ask and session.reader.chapter == rom9)
    task = session.ask("grace")
    session.set_chapter(john3)  # moved on purpose before the answer came
    assert task is not None
    await task
    assert session.question.ranked_for == john3
    task = session.ask("grace")
    session.open_passage(PassageRef("romans", 9, 1, 1), peek=True)  # only looked at a result
    assert task is not None
    await task
    assert session.question.ranked_for == john3 and session.reader.chapter == rom9

"""The session as plain Python: no Qt, an asyncio loop, real sqlite-vec files and real HTTP servers.

The scripted proxy (``tests/support/scripted_proxy.py``) speaks the embed contract over real HTTP
and fails on cue; the real local proxy answers the one question that needs real meaning.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from amicus_desktop import paths
from amicus_desktop.connectivity import PROBE_TIMEOUT, TROUBLE_INTERVAL, ProxyState
from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.core.query import Profile
from amicus_desktop.core.references import ChapterRef, PassageRef
from amicus_desktop.logs import setup_logging, shutdown_logging
from amicus_desktop.session import (
    BROWSE_TYPES,
    DbStatus,
    EngineState,
    Event,
    InternalError,
    Overrides,
    Preferences,
    Session,
)
from amicus_desktop.settings import SettingsStore
from amicus_desktop.store import ScriptureStore
from amicus_desktop.understand import PassageError
from tests.support.dbs import BOOKS, build_db, demo_like_chunks, verses
from tests.support.proxy import ProxyProcess, free_port
from tests.support.scripted_proxy import ScriptedProxy, reply_json

T = TypeVar("T")


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


def db_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.name.startswith("amicus-db"))


# -- opening ---------------------------------------------------------------------------------------
def test_start_opens_the_library_follows_the_proxy_and_restores_the_chapter(small_db: Path) -> None:
    async def main() -> None:
        with ScriptedProxy(dims=8) as proxy:
            session = make_session(small_db, proxy.url, chapter="rom 9")
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
            await session.aclose()

    run(main())


def test_a_missing_default_database_is_the_first_run(amicus_home: Path) -> None:
    async def main() -> None:
        session = make_session(None, f"http://127.0.0.1:{free_port()}")
        session.start()
        await reach(session, lambda: session.library.state.status is not DbStatus.LOADING)
        assert session.library.state.status is DbStatus.MISSING
        assert session.library.state.path == paths.default_db_path()
        assert session.library.state.error is not None and session.library.state.error.code is ErrorCode.DB_NOT_FOUND
        assert len(session.library.books) == 66  # the canon, so the reader still navigates
        assert not session.can_ask
        await session.aclose()

    run(main())


def test_a_broken_file_at_a_chosen_path_is_an_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"not sqlite at all" * 64)

    async def main() -> None:
        session = make_session(bad, f"http://127.0.0.1:{free_port()}")
        session.start()
        await reach(session, lambda: session.library.state.status is DbStatus.ERROR)
        assert session.library.state.error is not None and session.library.state.error.code is ErrorCode.DB_INVALID
        await session.aclose()

    run(main())
    assert bad.read_bytes() == b"not sqlite at all" * 64


# -- asking ----------------------------------------------------------------------------------------
def test_ask_then_rerank_for_chapter_profile_and_settings_without_new_embedding(small_db: Path) -> None:
    async def main() -> None:
        with ScriptedProxy(dims=8) as proxy:
            session = make_session(small_db, proxy.url, chapter="romans:9")
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
            await session.aclose()

    run(main())


def test_a_newer_question_supersedes_the_one_in_flight(small_db: Path) -> None:
    async def main() -> None:
        with ScriptedProxy(dims=8) as proxy:
            proxy.behaviour = lambda body: (time.sleep(0.6), None)[1] if body.get("input") == "slow one" else None
            session = make_session(small_db, proxy.url)
            seen = Recorder(session)
            session.start()
            await reach(session, lambda: session.can_ask)
            first = session.ask("slow one")
            await asyncio.sleep(0.1)  # in flight
            second = session.ask("quick one")
            assert first is not None and second is not None
            await asyncio.wait([first, second])
            shown = [v.result.query for v in seen.values("result") if v is not None]
            assert shown == ["quick one"]
            assert seen.values("busy") == [True, False] and not session.question.busy
            await session.aclose()

    run(main())


def test_an_invalid_question_is_said_at_once_without_io(small_db: Path) -> None:
    async def main() -> None:
        with ScriptedProxy(dims=8) as proxy:
            session = make_session(small_db, proxy.url)
            seen = Recorder(session)
            session.start()
            await reach(session, lambda: session.can_ask)
            assert session.ask("x" * 2500) is None
            [failure] = seen.values("ask failed")
            assert isinstance(failure, AmicusError) and failure.code is ErrorCode.QUERY_INVALID
            assert "2,500 characters" in failure.message
            assert proxy.embed_requests == 0 and session.connection.state.state is ProxyState.ONLINE
            await session.aclose()

    run(main())


def test_a_proxy_failure_is_embed_failed(small_db: Path) -> None:
    async def main() -> None:
        with ScriptedProxy(dims=8) as proxy:
            session = make_session(small_db, proxy.url)
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
            await session.aclose()

    run(main())


def test_a_bug_while_asking_is_an_internal_error_with_the_log_file(
    small_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A programming error (here: the re-ranking step raising) is reported as what it is, with
    where the traceback went, and leaves the proxy's state alone."""
    from amicus_desktop.retrieval import pipeline

    def broken_rerank(*_args: object) -> None:
        raise ZeroDivisionError("a bug")

    log_file = setup_logging(stderr_level=None)
    try:
        async def main() -> None:
            with ScriptedProxy(dims=8) as proxy:
                session = make_session(small_db, proxy.url)
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
                await session.aclose()

        run(main())
        for handler in logging.getLogger("amicus").handlers:
            handler.flush()
        assert log_file is not None
        text = log_file.read_text("utf-8")
        assert "ask crashed" in text and "ZeroDivisionError: a bug" in text and "grace" not in text
    finally:
        shutdown_logging()


def test_a_database_deleted_mid_session_fails_the_library(small_db: Path) -> None:
    async def main() -> None:
        with ScriptedProxy(dims=8) as proxy:
            session = make_session(small_db, proxy.url)
            session.start()
            await reach(session, lambda: session.can_ask)
            small_db.unlink()
            task = session.ask("grace")
            assert task is not None
            await task
            assert session.library.state.status is DbStatus.ERROR  # a chosen path: not the welcome
            assert session.library.state.error is not None
            assert session.library.state.error.code is ErrorCode.DB_NOT_FOUND
            assert not session.can_ask and session.connection.state.state is ProxyState.ONLINE
            await session.aclose()

    run(main())


def test_results_asked_before_the_proxy_went_away_are_kept_and_marked_once(small_db: Path) -> None:
    async def main() -> None:
        proxy = ScriptedProxy(dims=8).start()
        session = make_session(small_db, proxy.url, chapter="romans:9")
        seen = Recorder(session)
        session.start()
        await reach(session, lambda: session.can_ask)
        task = session.ask("grace")
        assert task is not None
        await task
        results = session.question.view.result.results if session.question.view else ()
        proxy.stop()
        session.connection.retry_now()
        # A probe already in flight when the proxy stops may end as a failed check first (up to
        # its 5 s timeout); the next check, TROUBLE_INTERVAL later, then finds the port closed.
        await reach(session, lambda: session.connection.state.state is ProxyState.OFFLINE,
                    timeout=PROBE_TIMEOUT + TROUBLE_INTERVAL + 10)
        await reach(session, lambda: session.connection.state.checks >= 3, timeout=8)  # still offline, re-checked
        stale = [v for v in seen.values("result") if v is not None and v.stale]
        assert len(stale) == 1 and stale[0].result.results == results
        session.set_chapter(ChapterRef("john", 1))  # re-ranking still works, and stays marked
        view = session.question.view
        assert view is not None and view.stale and view.cause == "chapter"
        assert not session.can_ask and session.ask("grace") is None
        await session.aclose()

    run(main(), timeout=60)


def test_a_question_in_flight_is_dropped_when_the_proxy_changes(small_db: Path) -> None:
    async def main() -> None:
        with ScriptedProxy(dims=8) as proxy:
            proxy.behaviour = lambda body: (time.sleep(0.5), None)[1] if body.get("input") else None
            session = make_session(small_db, proxy.url)
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
            await session.aclose()

    run(main())


# -- the engine's life ---------------------------------------------------------------------------
def test_reopening_twice_closes_every_engine_but_the_last(small_db: Path, tmp_path: Path) -> None:
    other = build_db(tmp_path / "other.db", demo_like_chunks(dims=8)[:20], books=BOOKS, verses=verses())

    async def main() -> None:
        before = db_threads()
        with ScriptedProxy(dims=8) as proxy:
            session = make_session(small_db, proxy.url)
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

    run(main())


def test_closing_while_opening_leaves_nothing_running(small_db: Path) -> None:
    async def main() -> None:
        before = db_threads()
        session = make_session(small_db, f"http://127.0.0.1:{free_port()}")
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

    run(main())


def test_until_resumes_on_a_change_and_times_out_otherwise(small_db: Path) -> None:
    async def main() -> None:
        session = make_session(small_db, f"http://127.0.0.1:{free_port()}")
        t0 = time.monotonic()
        assert await session.until(lambda: False, 0.05) is False
        assert time.monotonic() - t0 < 1.0
        assert await session.until(lambda: True, 0) is True
        waiter = asyncio.ensure_future(session.until(lambda: session.reader.chapter == ChapterRef("john", 2), 5))
        await asyncio.sleep(0)
        assert not waiter.done()
        session.set_chapter(ChapterRef("john", 2))  # no database yet: the chapter still changes
        assert await waiter is True
        await session.aclose()

    run(main())


# -- the parts on their own ----------------------------------------------------------------------
def test_typed_references_say_why_they_go_nowhere(small_db: Path) -> None:
    """A book the database has no text of, or a chapter past the end, is an error naming it; the
    chapter (the ranking's context) stays where it was."""

    async def main() -> None:
        with ScriptedProxy(dims=8) as proxy:
            session = make_session(small_db, proxy.url, chapter="john:3")
            session.start()
            await reach(session, lambda: session.reader.chapter == ChapterRef("john", 3))
            reader = session.reader
            cases = {
                "Gal 2": ("book", "no text of Galatians; it holds John, Romans"),
                "John 30": ("chapter", "John has 21 chapters"),
                "John 3:99": ("verse", "John 3 has 36 verses"),
                "Hezekiah 4": ("book", "No book of the Bible is called 'Hezekiah'"),
                "hello": ("form", "not a reference"),
            }
            for text, (kind, words) in cases.items():
                with pytest.raises(PassageError) as err:
                    reader.resolve(text)
                assert err.value.kind == kind and words in str(err.value), text
            assert reader.chapter == ChapterRef("john", 3)
            # a passage with verses puts them in focus; another chapter clears the focus
            focused: list[PassageRef | None] = []
            reader.focus_changed.connect(focused.append)
            session.open_passage(reader.resolve("Rom 9:4-6"))
            assert reader.chapter == ChapterRef("romans", 9)
            assert session.context("q").chapter == ChapterRef("romans", 9)
            assert reader.focus == PassageRef("romans", 9, 4, 6, "Rom 9:4-6")
            session.step_chapter(1)
            assert reader.focus is None and focused == [reader.resolve("Rom 9:4-6"), None]
            await session.aclose()

    run(main())


def test_reader_navigation_crosses_books_and_clamps(small_db: Path) -> None:
    async def main() -> None:
        with ScriptedProxy(dims=8) as proxy:
            session = make_session(small_db, proxy.url, chapter="john:21")
            session.start()
            await reach(session, lambda: session.reader.chapter == ChapterRef("john", 21))
            reader = session.reader
            assert reader.neighbour(1) == ChapterRef("romans", 1)
            session.set_chapter(ChapterRef("romans", 99))
            assert reader.chapter == ChapterRef("romans", 16)  # clamped to the book
            assert reader.neighbour(1) is None  # the last chapter of the last book
            session.step_chapter(-1)
            assert reader.chapter == ChapterRef("romans", 15)
            assert reader.resolve("John 3:16") == PassageRef("john", 3, 16, 16, "John 3:16")
            assert reader.find("Hezekiah 4") is None
            assert session.library.chapter_label(ChapterRef("john", 3)) == "John 3"
            await session.aclose()

    run(main())


def test_preferences_tell_a_reconnect_from_a_rerank(amicus_home: Path) -> None:
    prefs = Preferences(SettingsStore(), Overrides(db_path="/tmp/x.db", proxy_url="http://127.0.0.1:1"))
    changes: list[object] = []
    prefs.changed.connect(changes.append)
    assert prefs.endpoints.db_path == Path("/tmp/x.db")
    assert prefs.apply(prefs.settings.replace(k=4)) is False  # ranking only
    assert prefs.endpoints.proxy_url == "http://127.0.0.1:1"  # this run's override stays
    assert prefs.apply(prefs.settings.replace(proxy_url="http://127.0.0.1:2")) is True
    assert prefs.endpoints.proxy_url == "http://127.0.0.1:2"  # chosen now: replaces the override
    assert prefs.endpoints.db_path == Path("/tmp/x.db")
    prefs.use_database("/tmp/y.db")
    assert prefs.endpoints.db_path == Path("/tmp/y.db") and len(changes) == 3
    assert prefs.set_profile(Profile.of(["a"], [])) is True and prefs.set_profile(Profile.of(["a"], [])) is False
    assert SettingsStore().load().preferred_scholars == ("a",)


def test_a_corrupt_settings_file_is_announced_at_start(amicus_home: Path) -> None:
    cfg = paths.config_dir()
    cfg.mkdir(parents=True, exist_ok=True)
    (cfg / "settings.json").write_text("{ not json")
    prefs = Preferences(SettingsStore())
    notes: list[str] = []
    prefs.notice.connect(notes.append)
    prefs.announce_load_problem()
    assert len(notes) == 1 and "damaged" in notes[0]


def test_a_failing_listener_does_not_stop_the_others(caplog: pytest.LogCaptureFixture) -> None:
    event: Event[int] = Event("numbers")
    got: list[int] = []

    def broken(_value: int) -> None:
        raise RuntimeError("listener bug")

    event.connect(broken)
    disconnect = event.connect(got.append)
    with caplog.at_level(logging.ERROR, logger="amicus.session"):
        event.emit(1)
    assert got == [1] and "listener failed" in caplog.text
    disconnect()
    event.emit(2)
    assert got == [1]


# -- with the real local model -------------------------------------------------------------------
@pytest.mark.slow
def test_a_real_question_through_the_real_proxy(local_proxy: ProxyProcess, study_db: Path) -> None:
    """Real Romans 9 commentary embedded by the local model, asked through the real proxy."""

    async def main() -> None:
        session = make_session(study_db, local_proxy.url, chapter="romans:9")
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
        await session.aclose()

    run(main())


def test_commentary_follows_the_chapter_without_a_question(small_db: Path) -> None:
    """Notes, chapter panels and word studies on the chapter on screen, by verse, from a browse over
    chunk_metadata: it works with no proxy at all (nothing listens on the URL)."""

    async def main() -> None:
        session = make_session(small_db, f"http://127.0.0.1:{free_port()}", chapter="romans:9")
        session.start()
        await reach(session, lambda: session.commentary.notes is not None)
        notes = session.commentary.notes
        assert notes is not None and notes.ref == ChapterRef("romans", 9) and notes.chunks
        assert not session.can_ask  # offline, and still the notes came
        for chunk in notes.chunks:
            m = chunk.metadata
            assert (m.book_id, m.chapter_num) == ("romans", 9) and chunk.source_type in BROWSE_TYPES
        starts = [c.metadata.verse_start for c in notes.chunks]
        whole = [s for s in starts if s is None]
        assert starts[: len(whole)] == whole  # whole-chapter notes first
        assert starts[len(whole):] == sorted(s for s in starts if s is not None)
        # the expected set, straight from the file
        with ScriptureStore(small_db) as store:
            expected = {r[0] for r in store.rows(
                "SELECT t.chunk_id FROM chunk_text t JOIN chunk_metadata m ON m.rowid = t.rowid "
                "WHERE m.book_id = 'romans' AND m.chapter_num = 9 AND t.source_type IN (?, ?, ?)", BROWSE_TYPES)}
        assert {c.chunk_id for c in notes.chunks} == expected
        session.set_chapter(ChapterRef("john", 2))
        await reach(session, lambda: session.commentary.notes is not None
                    and session.commentary.notes.ref == ChapterRef("john", 2))
        await session.aclose()

    run(main())

"""The session's search choices without Qt: mode, filters and pins, on real sqlite-vec files and
real HTTP servers (the scripted proxy speaks the embed contract; a closed port is a proxy that is down).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from amicus_desktop.connectivity import ProxyState
from amicus_desktop.core.query import Filters, SearchMode
from amicus_desktop.session import Session
from amicus_desktop.settings import SettingsStore
from tests.support.proxy import free_port
from tests.support.scripted_proxy import ScriptedProxy
from tests.support.sessions import OpenSession, reach

pytestmark = pytest.mark.anyio  # async tests on asyncio; see conftest.py

QUESTION = "the potter and the clay"


async def answer(session: Session, task: asyncio.Task[None] | None) -> None:
    assert task is not None, "the session did not ask"
    await asyncio.wait_for(task, 20)
    assert session.question.view is not None


async def test_keyword_asks_offline_but_only_when_chosen(small_db: Path, open_session: OpenSession) -> None:
    session = open_session(small_db, f"http://127.0.0.1:{free_port()}")
    session.start()
    await reach(session, lambda: session.library.ready and session.connection.state.state is ProxyState.OFFLINE)
    assert session.search.mode is SearchMode.HYBRID  # the app's default
    assert not session.can_ask and session.ask(QUESTION) is None  # no silent fallback

    assert session.set_mode(SearchMode.KEYWORD) is None  # nothing on screen to ask again
    assert session.can_ask
    await answer(session, session.ask("potter clay"))
    view = session.question.view
    assert view is not None and view.result.mode is SearchMode.KEYWORD and view.result.results
    assert all(r.breakdown.similarity is None for r in view.result.results)  # nothing was embedded
    # A keyword answer is no news about the proxy: still offline, and the answer is not stale.
    assert session.connection.state.state is ProxyState.OFFLINE and not view.stale
    assert SettingsStore().load().search_mode is SearchMode.KEYWORD  # saved

    assert session.set_mode(SearchMode.SEMANTIC) is None  # offline: cannot ask again in it
    assert not session.can_ask
    assert session.question.view is view  # the keyword answer stays on screen, its mode with it

async def test_mode_filters_and_pins_go_into_the_context_and_ask_again(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    session = open_session(small_db, proxy.url, chapter="rom 9")
    session.start()
    await reach(session, lambda: session.can_ask)
    await answer(session, session.ask(QUESTION))
    first = session.question.view
    assert first is not None and first.result.mode is SearchMode.HYBRID
    assert {t for t, _n in session.library.facets["source_type"]} == {"section_panel", "chapter_panel"}
    assert session.library.names.book("romans") == "Romans"

    # Filters act inside candidate generation: the session asks again, and only matches come back.
    only = Filters.of(source_types=["chapter_panel"], scholars=["spurgeon"])
    await answer(session, session.set_filters(only))
    filtered = session.question.view
    assert filtered is not None and filtered.result.trace.filters == only
    assert filtered.result.results and all(
        r.candidate.source_type == "chapter_panel" and r.candidate.metadata.scholar_id == "spurgeon"
        for r in filtered.result.results
    )
    assert session.set_filters(only) is None  # no change, no new search

    # A pin comes first, marked, whatever its score; the ranks before are kept for the Move column.
    await answer(session, session.set_filters(Filters()))
    before = session.question.view
    assert before is not None
    last = before.result.results[-1].chunk_id
    await answer(session, session.toggle_pin(last))
    pinned = session.question.view
    assert pinned is not None and pinned.cause == "pins" and pinned.previous_ranks is not None
    assert pinned.result.results[0].chunk_id == last and pinned.result.results[0].pinned
    assert [r.chunk_id for r in pinned.result.results].count(last) == 1
    assert SettingsStore().load().pins == (last,)

    # The mode: asked again in the new one.
    await answer(session, session.set_mode(SearchMode.SEMANTIC))
    semantic = session.question.view
    assert semantic is not None and semantic.result.mode is SearchMode.SEMANTIC
    assert semantic.result.results[0].chunk_id == last  # the pin holds across modes
    assert session.search.next_mode() is SearchMode.HYBRID

    # Unpinning asks again without it.
    await answer(session, session.clear_pins())
    cleared = session.question.view
    assert cleared is not None and not any(r.pinned for r in cleared.result.results)
    assert SettingsStore().load().pins == ()
    assert session.clear_pins() is None

async def test_a_new_database_clears_the_filters_but_keeps_mode_and_pins(
    small_db: Path, tmp_path: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    session = open_session(small_db, proxy.url)
    session.start()
    await reach(session, lambda: session.can_ask)
    session.set_mode(SearchMode.KEYWORD)
    session.search.set_pins(("a", "b"))
    session.set_filters(Filters.of(books=["john"]))
    session.open_database(small_db)
    await reach(session, lambda: session.library.ready)
    assert session.search.filters == Filters()
    assert session.search.mode is SearchMode.KEYWORD and session.search.pins == ("a", "b")

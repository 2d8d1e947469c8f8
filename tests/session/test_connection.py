"""The proxy as the session sees it (``session/connection.py``): answers kept, and marked, when it goes
away."""

from __future__ import annotations

from pathlib import Path

import pytest

from amicus_desktop.connectivity import PROBE_TIMEOUT, TROUBLE_INTERVAL, ProxyState
from amicus_desktop.core.references import ChapterRef
from tests.support.scripted_proxy import ScriptedProxy
from tests.support.sessions import OpenSession, Recorder, reach

pytestmark = pytest.mark.anyio  # async tests on asyncio; see conftest.py


async def test_results_asked_before_the_proxy_went_away_are_kept_and_marked_once(
    small_db: Path, open_session: OpenSession
) -> None:
    proxy = ScriptedProxy(dims=8).start()
    session = open_session(small_db, proxy.url, chapter="romans:9")
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

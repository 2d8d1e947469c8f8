"""Helpers for the workbench tests: a started session with a workbench, waiting on its events."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from amicus_desktop.core.query import BoostWeights
from amicus_desktop.session import Session
from amicus_desktop.session.workbench import Workbench
from tests.support.sessions import OpenSession, reach

BIG_CHAPTER = BoostWeights(chapter=3.0)


async def started(open_session: OpenSession, db: Path, url: str) -> tuple[Session, Workbench]:
    """A session on ``db`` (closed by the ``open_session`` fixture), reading Romans 9, that has asked "grace";
    and its workbench."""
    session = open_session(db, url, chapter="romans:9")
    bench = Workbench(session)
    session.start()
    # the restored chapter too: restored after the library is ready, it would re-rank the answer
    await reach(session, lambda: session.can_ask and session.reader.chapter is not None)
    task = session.ask("grace")
    assert task is not None
    await task
    return session, bench


async def bench_until(bench: Workbench, condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait for ``condition`` on the workbench's own change events."""
    reached = asyncio.get_running_loop().create_future()

    def check(_value: None) -> None:
        if not reached.done() and condition():
            reached.set_result(None)

    disconnect = bench.changed.connect(check)
    try:
        if not condition():
            await asyncio.wait_for(reached, timeout)
    finally:
        disconnect()


def tmp_path_of(session: Session) -> Path:
    return session.prefs.store.path.parent

"""The database as the session sees it (``session/library.py``): the first run, a broken or vanished
file, the database's names for books and scholars."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amicus_desktop import paths
from amicus_desktop.connectivity import ProxyState
from amicus_desktop.core.errors import ErrorCode
from amicus_desktop.session import DbStatus
from tests.support.proxy import free_port
from tests.support.scripted_proxy import ScriptedProxy
from tests.support.sessions import OpenSession, Recorder, reach

pytestmark = pytest.mark.anyio  # async tests on asyncio; see conftest.py


async def test_a_missing_default_database_is_the_first_run(amicus_home: Path, open_session: OpenSession) -> None:
    session = open_session(None, f"http://127.0.0.1:{free_port()}")
    session.start()
    await reach(session, lambda: session.library.state.status is not DbStatus.LOADING)
    assert session.library.state.status is DbStatus.MISSING
    assert session.library.state.path == paths.default_db_path()
    assert session.library.state.error is not None and session.library.state.error.code is ErrorCode.DB_NOT_FOUND
    assert len(session.library.books) == 66  # the canon, so the reader still navigates
    assert not session.can_ask


async def test_a_broken_file_at_a_chosen_path_is_an_error(tmp_path: Path, open_session: OpenSession) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"not sqlite at all" * 64)
    session = open_session(bad, f"http://127.0.0.1:{free_port()}")
    session.start()
    await reach(session, lambda: session.library.state.status is DbStatus.ERROR)
    assert session.library.state.error is not None and session.library.state.error.code is ErrorCode.DB_INVALID
    await session.aclose()
    assert bad.read_bytes() == b"not sqlite at all" * 64


async def test_a_database_deleted_mid_session_fails_the_library(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    session = open_session(small_db, proxy.url)
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


async def test_library_names_and_the_context_budget(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    session = open_session(small_db, proxy.url)
    seen = Recorder(session)
    session.start()
    await reach(session, lambda: session.library.ready)
    names = session.library.names
    assert names.book("romans") == "Romans"
    assert names.scholar("matthew-henry").name == "Matthew Henry"
    assert session.prefs.set_context_budget(4000)
    assert not session.prefs.set_context_budget(4000)  # unchanged: nothing saved or announced
    saved = json.loads((paths.config_dir() / "settings.json").read_text())
    assert saved["context_budget"] == 4000
    assert [s.context_budget for s in seen.values("settings changed")] == [4000]

"""The window's export and copy-as-context work (``session/export.py``): the open database is never
written over, under any name; the work is a function over plain values for a worker thread. No Qt."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amicus_desktop.present.export import ExportError, ExportFormat
from amicus_desktop.session.export import context_work, export_work, protected_paths
from tests.support.scripted_proxy import ScriptedProxy
from tests.support.sessions import OpenSession, reach

pytestmark = pytest.mark.anyio  # async tests on asyncio; see tests/session/conftest.py


async def test_export_refuses_the_open_database_by_any_name_and_writes_elsewhere(
    small_db: Path, tmp_path: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    session = open_session(small_db, proxy.url)
    session.start()
    await reach(session, lambda: session.can_ask)
    assert context_work(session) is None  # nothing asked yet
    task = session.ask("grace")
    assert task is not None
    await task
    view = session.question.view
    assert view is not None
    assert protected_paths(session) == (small_db,)

    before = small_db.read_bytes()
    link = tmp_path / "library.json"  # a name that does not look like a database
    link.symlink_to(small_db)
    with pytest.raises(ExportError, match="open scripture database"):
        export_work(session, view.result, link, ExportFormat.JSON)()
    assert small_db.read_bytes() == before

    out = tmp_path / "bundle.json"
    rows = export_work(session, view.result, out, ExportFormat.JSON)()
    assert rows == len(view.result.results) + len(view.result.rejected)
    assert json.loads(out.read_text(encoding="utf-8")) == json.loads(json.dumps(view.result.to_json()))

    build = context_work(session)
    assert build is not None
    ctx = build()
    assert ctx.budget == session.prefs.settings.context_budget and ctx.used_tokens <= ctx.budget
    assert ctx.text and set(ctx.included) | set(ctx.dropped) == {r.chunk_id for r in view.result.results}

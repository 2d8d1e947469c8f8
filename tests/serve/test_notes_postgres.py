"""``serve --notes-store postgresql://…`` under faults: the database restarted under load, the pool exhausted.

The scoping tests run on both stores in test_scope.py; here the service meets a real PostgreSQL going away
(requests answer 503 ``NOTES_STORE_BUSY`` with ``Retry-After`` and recover by themselves) and a pool with no
free connection (503 at once, with ``Retry-After``, not a hang).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import httpx

from amicus_desktop.notes.postgres import PgNotesStore
from tests.postgres_server import PgServer
from tests.serve.conftest import expect_error
from tests.support.cli import run
from tests.support.proxy import free_port
from tests.support.scripted_proxy import ScriptedProxy
from tests.support.serve import ServeProcess

QUESTION = "election"
PARAMS = {"q": QUESTION, "mode": "keyword", "workspace": "alice", "k": 5}


def _start(small_db: Path, tmp_path: Path, url: str, *args: str,
           env: dict[str, str] | None = None) -> Iterator[ServeProcess]:
    with PgNotesStore(url) as store:
        store.workspace("alice").add("Election is not of works: Jacob and Esau")
    with ScriptedProxy(dims=8, model="test-model") as proxy:
        serve = ServeProcess(small_db, proxy.url, "--notes-store", url, *args, home=tmp_path / "home", env=env)
        try:
            yield serve.start()
        finally:
            serve.close()


def _ask_into(serve: ServeProcess, answers: list[httpx.Response]) -> None:
    answers.append(serve.get(params=PARAMS, timeout=60))


def _found_note(response: httpx.Response) -> bool:
    return response.status_code == 200 and any(r["source_type"] == "user_note" for r in response.json()["results"])


def test_a_database_restarted_or_down_under_load_answers_busy_then_recovers(
        small_db: Path, tmp_path: Path, pg_url: str, pg: PgServer) -> None:
    env = {"AMICUS_NOTES_POOL_TIMEOUT": "0.5"}
    for service in _start(small_db, tmp_path, pg_url, "--lanes", "2", env=env):
        assert _found_note(service.get(params=PARAMS))
        answers: list[httpx.Response] = []
        stop = threading.Event()

        def load(serve: ServeProcess = service, into: list[httpx.Response] = answers,
                 until: threading.Event = stop) -> None:
            while not until.is_set():
                into.append(serve.get(params=PARAMS, timeout=30))

        workers = [threading.Thread(target=load) for _ in range(2)]
        for t in workers:
            t.start()
        time.sleep(0.3)
        pg.restart()  # a quick restart: the pool's check and reconnection may absorb it entirely
        time.sleep(0.5)
        during_restart = len(answers)
        pg.stop()  # down for longer than a request waits: every request scoped to a workspace is refused
        time.sleep(2.0)
        pg.start()
        time.sleep(0.5)
        stop.set()
        for t in workers:
            t.join(60)
        failed = [r for r in answers if r.status_code != 200]
        print(f"restart and outage under load: {during_restart} answers around the restart, {len(answers)} in "
              f"all, {len(failed)} of them 503")
        assert failed, "the outage should have refused requests"
        for r in failed:  # each failure is the contract's: a busy store, ask again in a second
            expect_error(r, 503, "NOTES_STORE_BUSY")
            assert r.headers["retry-after"] == "1"
        deadline = time.monotonic() + 30
        while not _found_note(service.get(params=PARAMS)):  # by itself: no restart of the service
            assert time.monotonic() < deadline, "the service did not recover from the database's restart"
            time.sleep(0.2)
        unscoped = {k: v for k, v in PARAMS.items() if k != "workspace"}  # never touches the notes store
        assert service.get(params=unscoped).status_code == 200


def test_an_exhausted_pool_answers_503_with_retry_after_without_hanging(
        small_db: Path, tmp_path: Path, pg_url: str, pg: PgServer) -> None:
    env = {"AMICUS_NOTES_POOL_SIZE": "1", "AMICUS_NOTES_POOL_TIMEOUT": "0.5"}
    for serve in _start(small_db, tmp_path, pg_url, "--lanes", "2", env=env):
        assert _found_note(serve.get(params=PARAMS))  # the store is open, its one connection idle
        first: list[httpx.Response] = []
        with pg.admin(urlparse(pg_url).path.lstrip("/")) as admin:
            with admin.transaction():
                # the one connection gets stuck behind this lock in the first request...
                admin.execute("LOCK TABLE workspaces IN ACCESS EXCLUSIVE MODE")
                stuck = threading.Thread(target=_ask_into, args=(serve, first))
                stuck.start()
                time.sleep(0.5)
                # ...so the second finds no free connection: 503 within the pool's timeout, not a hang
                started = time.monotonic()
                second = serve.get(params=PARAMS, timeout=30)
                waited = time.monotonic() - started
                expect_error(second, 503, "NOTES_STORE_BUSY")
                assert second.headers["retry-after"] == "1" and waited < 10
            stuck.join(30)  # the lock is gone: the first request finishes
        assert first and _found_note(first[0])
        assert _found_note(serve.get(params=PARAMS))


def test_serve_and_mcp_refuse_a_notes_store_the_wall_does_not_hold_for(small_db: Path, pg_url: str) -> None:
    superuser = pg_url.replace("amicus_app@", "postgres@")
    code, _out, err = run("serve", "--db", str(small_db), "--notes-store", superuser, "--port", str(free_port()))
    assert code == 2 and "--notes-store" in err and "row-level security" in err
    code, out, err = run("mcp", "--db", str(small_db), "--workspace", "alice", "--notes-store", superuser)
    assert code == 2 and out == "" and "row-level security" in err


def test_mcp_keeps_and_searches_its_workspaces_notes_in_postgresql(study_db: Path, local_proxy: Any,
                                                                    tmp_path: Path, pg_url: str) -> None:
    from mcp import ClientSession

    from tests.mcp.test_server import drive
    from tests.mcp.tools_client import Tools

    text = "Onesiphorus kept this note about the potter and the clay"
    got: dict[str, str] = {}

    async def writer(session: ClientSession) -> None:
        tools = await Tools(session).start()
        added = await tools.ok("add_note", {"text": text, "ref": "Romans 9:21"})
        got["id"] = added["notes"][0]["id"]
        assert added["embedded"] is True
        listed = await tools.ok("list_notes", {})
        assert [n["id"] for n in listed["notes"]] == [got["id"]]
        found = await tools.ok("search_library", {"query": "Onesiphorus potter clay", "mode": "keyword",
                                                  "filters": {"source_type": ["user_note"]}})
        assert [r["id"] for r in found["results"]] == [got["id"]]

    home = tmp_path / "home"
    drive(study_db, local_proxy.url, home, writer, "--workspace", "alice", "--allow-writes", "--notes-store", pg_url)
    with PgNotesStore(pg_url) as store:
        (note,) = store.workspace("alice").notes()
        assert note.id == got["id"] and note.text == text and note.models  # saved and embedded there
        assert store.workspace("bob").notes() == []
    assert not (home / "data" / "notes" / "notes.sqlite").exists()  # nothing went to the file

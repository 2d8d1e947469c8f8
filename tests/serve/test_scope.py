"""The service's workspaces (CONTRACT sections 9 and 11): ``workspace=`` searches that workspace's notes,
a token may use only its own workspaces (403), and no answer, error or log line of another request holds
a note of a workspace it was not scoped to. Each runs with the notes in SQLite, in PostgreSQL, and with the
library in PostgreSQL beside them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from amicus_desktop.notes import Note, NotesStore, parse_ref
from amicus_desktop.notes.postgres import PgNotesStore
from amicus_desktop.store.pg.export import export_library
from tests.postgres_server import PgServeProcess
from tests.serve.conftest import expect_error
from tests.support.scripted_proxy import ScriptedProxy, text_vector
from tests.support.serve import ServeProcess

QUESTION = "what does Romans 9:11 say about Jacob and Esau"
SECRET = "Onesiphorus-kept-this-private"


def write(serve: ServeProcess, workspace: str, text: str, ref: str | None = None) -> Note:
    """A note in the service's own store (the file of its AMICUS_HOME, or its PostgreSQL notes store),
    embedded as the scripted proxy would."""
    url = getattr(serve, "notes_store", None)
    with (PgNotesStore(url) if url else NotesStore(serve.home / "data" / "notes" / "notes.sqlite")) as store:
        ws = store.workspace(workspace)
        note = ws.add(text, parse_ref(ref) if ref else None)
        ws.store_vectors("test-model", [(note, np.asarray(text_vector(text, 8), np.float32))])
        return note


@pytest.fixture(params=["sqlite", "postgresql", "postgresql-library"])
def service(small_db: Path, tmp_path: Path,
            request: pytest.FixtureRequest) -> Iterator[tuple[ServeProcess, ScriptedProxy]]:
    """``serve`` with its notes in the SQLite file of its home, or in PostgreSQL (``--notes-store``), or with the
    library too in that PostgreSQL database (``export-db`` into it, ``--db``: one database, two schemas)."""
    clients = tmp_path / "clients.json"
    clients.write_text(json.dumps({"clients": [{"token": "tok-alice", "workspaces": ["alice"]},
                                               {"token": "tok-bob", "workspaces": ["bob"]}]}), encoding="utf-8")
    url = request.getfixturevalue("pg_url") if request.param != "sqlite" else ""
    notes = ["--notes-store", url] if url else []
    with ScriptedProxy(dims=8, model="test-model") as proxy:
        home = tmp_path / "home"
        if request.param == "postgresql-library":
            export_library(small_db, url)
            serve: ServeProcess = PgServeProcess(url, proxy.url, "--clients", str(clients), *notes, home=home)
        else:
            serve = ServeProcess(small_db, proxy.url, "--clients", str(clients), *notes, home=home)
        serve.notes_store = notes[1] if notes else None  # type: ignore[attr-defined]  (for write())
        try:
            yield serve.start(), proxy
        finally:
            serve.close()


def ask(serve: ServeProcess, token: str, **params: object) -> dict:
    response = serve.get(params={"q": QUESTION, "k": 50, "candidates": 200, **params},
                         headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text
    return response.json()


def test_a_workspace_searches_its_notes_and_no_others(service: tuple[ServeProcess, ScriptedProxy]) -> None:
    serve, proxy = service
    secret = write(serve, "alice", f"{SECRET}: Jacob and Esau, election before birth", "Romans 9:11")
    proxy.vectors[QUESTION] = text_vector(secret.text, 8)
    mine = ask(serve, "tok-alice", workspace="alice")
    top = mine["results"][0]
    assert top["id"] == secret.id and top["source_type"] == "user_note" and top["source_id"] == "note"
    assert top["meta"]["book_id"] == "romans" and top["meta"]["scholar_id"] is None
    for token, params in (("tok-bob", {"workspace": "bob"}), ("tok-bob", {}), ("tok-alice", {}),
                          ("tok-bob", {"workspace": "bob", "mode": "keyword"}),
                          ("tok-bob", {"workspace": "bob", "mode": "hybrid", "filter.source_type": "user_note"})):
        body = ask(serve, token, **params)
        assert SECRET not in json.dumps(body) and secret.id not in json.dumps(body["results"])


def test_a_token_may_use_its_own_workspaces_only(service: tuple[ServeProcess, ScriptedProxy]) -> None:
    serve, _ = service
    write(serve, "alice", f"{SECRET} in alice's workspace")
    response = serve.get(params={"q": QUESTION, "workspace": "alice"}, headers={"Authorization": "Bearer tok-bob"})
    body = expect_error(response, 403, "WORKSPACE_FORBIDDEN")
    assert SECRET not in response.text and "alice" in body["error"]["message"]


def test_a_pinned_note_of_another_workspace_is_not_found(service: tuple[ServeProcess, ScriptedProxy]) -> None:
    serve, _ = service
    secret = write(serve, "alice", f"{SECRET} pinned by a stranger")
    body = ask(serve, "tok-bob", workspace="bob", pin=secret.id)
    assert [w["code"] for w in body["warnings"]].count("pin_not_found") == 1
    assert secret.id not in json.dumps(body["results"]) and SECRET not in json.dumps(body)


def test_a_note_written_while_the_service_runs_is_found_by_the_next_request(
        service: tuple[ServeProcess, ScriptedProxy]) -> None:
    serve, proxy = service
    text = "written from the command line just now"
    proxy.vectors[QUESTION] = text_vector(text, 8)  # (the service keeps the question's vector)
    assert ask(serve, "tok-alice", workspace="alice")["results"][0]["source_type"] != "user_note"
    note = write(serve, "alice", text)
    assert ask(serve, "tok-alice", workspace="alice")["results"][0]["id"] == note.id


def test_the_log_holds_no_note(service: tuple[ServeProcess, ScriptedProxy]) -> None:
    serve, proxy = service
    secret = write(serve, "alice", f"{SECRET} never in a log")
    proxy.vectors[QUESTION] = text_vector(secret.text, 8)
    ask(serve, "tok-alice", workspace="alice")
    ask(serve, "tok-bob", workspace="bob", mode="hybrid")
    log = serve.log_text() + serve.run_output()
    assert "retrieve" in log and SECRET not in log and "Jacob and Esau" not in log


def test_a_damaged_notes_store_is_notes_store_invalid_as_in_the_cli(small_db: Path, tmp_path: Path) -> None:
    """Issue #31 item 4: one error tree — the service answers a damaged store with its code (500), as ``query
    --workspace`` prints it (tests/cli/test_query.py) and the window names it in its banner
    (tests/ui/test_notes_pane.py)."""
    home = tmp_path / "home"
    store = home / "data" / "notes" / "notes.sqlite"
    store.parent.mkdir(parents=True)
    store.write_bytes(b"this is not a notes store " * 200)
    with ScriptedProxy(dims=8, model="test-model") as proxy:
        serve = ServeProcess(small_db, proxy.url, home=home).start()
        try:
            body = expect_error(serve.get(params={"q": QUESTION, "workspace": "alice"}), 500, "NOTES_STORE_INVALID")
            assert "move it aside" in body["error"]["message"]
            assert serve.get(params={"q": QUESTION}).status_code == 200  # the library alone still answers
        finally:
            serve.close()

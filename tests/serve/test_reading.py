"""``GET /passage`` and ``GET /verses`` (CONTRACT section 9, project extensions): the Bible text over HTTP, as
the MCP tool ``read_passage`` and ``amicus-desktop verses --json`` answer it, behind the service's tokens and
workspaces; and an ETag that follows the library when its file is replaced. The verse search's tests run over the
verse library's file and over its export into PostgreSQL alike."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.postgres_server import PgServeProcess, exported_library
from tests.serve.conftest import expect_error
from tests.support.cli import run
from tests.support.dbs import BOOKS, build_db, demo_like_chunks, verses
from tests.support.scripted_proxy import ScriptedProxy
from tests.support.serve import ServeProcess

ALICE = {"Authorization": "Bearer tok-alice-0123456789"}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def verse_service(request: pytest.FixtureRequest, verse_db: Path, local_proxy: Any,
                  tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """``serve`` over the real verse library — its file, then its export into PostgreSQL (``export-db``; skipped
    only where the suite's PostgreSQL cannot start) — with a token scoped to the workspace ``alice``."""
    clients = tmp_path_factory.mktemp("clients") / "clients.json"
    clients.write_text(json.dumps({"clients": [{"token": ALICE["Authorization"][7:], "workspaces": ["alice"]}]}),
                       encoding="utf-8")
    serve = (ServeProcess(verse_db, local_proxy.url, "--clients", str(clients)) if request.param == "sqlite" else
             PgServeProcess(exported_library(verse_db), local_proxy.url, "--clients", str(clients)))
    try:
        yield serve.start()
    finally:
        serve.close()


def test_a_passage_is_its_verses(served: ServeProcess) -> None:
    response = served.get("/passage", params={"ref": "Romans 9:10-13"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["reference"] == "Romans 9:10-13" and body["book_id"] == "romans" and body["chapter_num"] == 9
    assert [v["verse"] for v in body["verses"]] == [10, 11, 12, 13] and all(v["text"] for v in body["verses"])
    assert body["trace_id"] == response.headers["x-trace-id"]
    etag = response.headers["etag"]
    assert served.get("/passage", params={"ref": "Rom 9:10-13"}).headers["etag"] == etag
    cached = served.get("/passage", params={"ref": "Romans 9:10-13"}, headers={"If-None-Match": etag})
    assert cached.status_code == 304 and cached.content == b""
    whole = served.get("/passage", params={"ref": "Romans 9"}).json()
    assert whole["verse_start"] is None and len(whole["verses"]) > 13


@pytest.mark.parametrize(("params", "status", "code"), [
    ({}, 400, "BAD_REQUEST"),
    ({"ref": ""}, 400, "BAD_REQUEST"),
    ({"ref": "Hezekiah 3:1"}, 400, "BAD_REQUEST"),
    ({"ref": "Romans 99:1"}, 400, "BAD_REQUEST"),
    ({"ref": "x" * 201}, 400, "BAD_REQUEST"),
    ({"ref": "Romans 9", "colour": "red"}, 400, "BAD_REQUEST"),
    ({"ref": "Romans 9", "workspace": "Not An Id"}, 400, "BAD_REQUEST"),
    ({"ref": "Obadiah 1:3"}, 404, "PASSAGE_NOT_FOUND"),
])
def test_a_passage_that_cannot_be_read_is_the_contracts_error(served: ServeProcess, params: dict[str, str],
                                                              status: int, code: str) -> None:
    expect_error(served.get("/passage", params=params), status, code)


def test_verses_answers_as_verses_json(verse_service: ServeProcess, verse_db: Path, local_proxy: Any) -> None:
    code, out, _ = run("verses", "God so loved the world", "--db", str(verse_db), "--proxy", local_proxy.url,
                       "--k", "6", "--book", "john", "--json")
    assert code == 0
    expected = json.loads(out)
    response = verse_service.get("/verses", params={"q": "God so loved the world", "k": 6, "filter.book": "john"},
                                 headers=ALICE)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["results"] == expected["results"] and body["results"][0]["reference"] == "John 3:16"
    assert {k: body[k] for k in ("query", "mode", "translation", "model", "warnings")} == \
        {k: expected[k] for k in ("query", "mode", "translation", "model", "warnings")}
    assert body["trace_id"] == response.headers["x-trace-id"]
    keyword = verse_service.get("/verses", params={"q": "adoption", "mode": "keyword", "testament": "NT",
                                                   "translation": "kjv"}, headers=ALICE).json()
    assert keyword["mode"] == "keyword" and keyword["translation"]["id"] == "kjv" and keyword["results"]


def test_a_passage_in_another_translation(verse_service: ServeProcess) -> None:
    """``/passage?translation=kjv`` reads that translation's own text (over the file and over PostgreSQL)."""
    kjv = verse_service.get("/passage", params={"ref": "John 3:16-18", "translation": "KJV"}, headers=ALICE)
    web = verse_service.get("/passage", params={"ref": "John 3:16-18"}, headers=ALICE)
    assert kjv.status_code == web.status_code == 200, (kjv.text, web.text)
    a, b = kjv.json(), web.json()
    assert [v["verse"] for v in a["verses"]] == [v["verse"] for v in b["verses"]] == [16, 17, 18]
    assert a["verses"][0]["text"].startswith("For God so loved the world") and a["verses"] != b["verses"]
    expect_error(verse_service.get("/passage", params={"ref": "John 3:16", "translation": "klingon"}, headers=ALICE),
                 400, "BAD_REQUEST")


@pytest.mark.parametrize(("params", "status", "code"), [
    ({}, 400, "QUERY_INVALID"),
    ({"q": "x" * 2001}, 413, "QUERY_TOO_LONG"),
    ({"q": "grace", "k": "0"}, 400, "BAD_REQUEST"),
    ({"q": "grace", "k": "ten"}, 400, "BAD_REQUEST"),
    ({"q": "grace", "mode": "fuzzy"}, 400, "BAD_REQUEST"),
    ({"q": "grace", "filter.book": "hezekiah"}, 400, "BAD_REQUEST"),
    ({"q": "grace", "testament": "middle"}, 400, "BAD_REQUEST"),
    ({"q": "grace", "translation": "vulgate"}, 400, "BAD_REQUEST"),
    ({"q": "grace", "pin": "x"}, 400, "BAD_REQUEST"),
])
def test_a_verse_search_that_cannot_run_is_the_contracts_error(verse_service: ServeProcess, params: dict[str, str],
                                                               status: int, code: str) -> None:
    expect_error(verse_service.get("/verses", params=params, headers=ALICE), status, code)


def test_tokens_and_workspaces_apply_to_every_endpoint(verse_service: ServeProcess) -> None:
    for path, params in (("/passage", {"ref": "John 3:16"}), ("/verses", {"q": "grace", "mode": "keyword"}),
                         ("/retrieve", {"q": "grace", "mode": "keyword"})):
        expect_error(verse_service.get(path, params=params), 401, "UNAUTHORIZED")
        expect_error(verse_service.get(path, params=params, headers={"Authorization": "Bearer wrong-token-123456"}),
                     401, "UNAUTHORIZED")
        expect_error(verse_service.get(path, params={**params, "workspace": "bob"}, headers=ALICE),
                     403, "WORKSPACE_FORBIDDEN")
        assert verse_service.get(path, params={**params, "workspace": "alice"}, headers=ALICE).status_code == 200
    posted = httpx.post(f"{verse_service.url}/retrieve", json={"q": "grace", "workspace": "bob"}, trust_env=False)
    expect_error(posted, 401, "UNAUTHORIZED")
    posted = httpx.post(f"{verse_service.url}/retrieve", json={"q": "grace", "workspace": "bob"}, headers=ALICE,
                        trust_env=False)
    expect_error(posted, 403, "WORKSPACE_FORBIDDEN")


def test_a_library_without_verses_and_then_a_replaced_library(tmp_path: Path) -> None:
    """No verses table: ``VERSES_NOT_INDEXED`` for every mode; when the file is replaced by a library whose
    answers differ, the old ETag gets the new answer (200), never a stale 304."""
    chunks = demo_like_chunks(dims=8)
    served_path = build_db(tmp_path / "scripture.db", chunks, full_schema=False)
    with ScriptedProxy(dims=8, model="test-model") as proxy:
        serve = ServeProcess(served_path, proxy.url, home=tmp_path / "home").start()
        try:
            for mode in ("keyword", "semantic", "hybrid"):
                expect_error(serve.get("/verses", params={"q": "grace", "mode": mode}), 409, "VERSES_NOT_INDEXED")
            expect_error(serve.get("/passage", params={"ref": "John 3:16"}), 404, "PASSAGE_NOT_FOUND")
            params = {"q": "the potter and the clay", "mode": "keyword"}
            before = serve.get(params=params)
            etag = before.headers["etag"]
            assert serve.get(params=params, headers={"If-None-Match": etag}).status_code == 304
            changed = [replace(c, text=c.text + " Revised.") for c in chunks]
            build_db(tmp_path / "new.db", changed, books=BOOKS, verses=verses())
            os.replace(tmp_path / "new.db", served_path)
            after = serve.get(params=params, headers={"If-None-Match": etag})
            assert after.status_code == 200 and after.headers["etag"] != etag
            assert [r["id"] for r in after.json()["results"]] == [r["id"] for r in before.json()["results"]]
            assert serve.get("/passage", params={"ref": "John 3:4"}).status_code == 200
        finally:
            serve.close()

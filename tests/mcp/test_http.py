"""The same tools at ``/mcp`` on ``serve`` (issue 35, item 4), driven by the SDK's own streamable-HTTP client:
the service's tokens, per-workspace scoping, rate limit, Host check and trace ids; answers equal stdio's."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from amicus_desktop.notes import NotesStore, parse_ref
from tests.mcp.tools_client import Tools
from tests.serve.conftest import expect_error, sha256
from tests.support.cli import query_json
from tests.support.serve import ServeProcess

ALICE = "tok-alice-0123456789abcdef"
ANY = "tok-every-0123456789abcdef"
QUESTION = "Why did God choose Jacob over Esau?"
SECRET = "Onesiphorus kept this private note on the potter"
HELLO = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def over_http(url: str, token: str, check: Any, timeout: float = 120) -> None:
    async def main() -> None:
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60) as http, \
                streamable_http_client(url, http_client=http) as streams:
            read, write = streams[0], streams[1]
            async with ClientSession(read, write) as session:
                await session.initialize()
                await check(session)

    asyncio.run(asyncio.wait_for(main(), timeout))


def test_the_tools_over_http_behind_the_services_gate(study_db: Path, local_proxy: Any, tmp_path: Path) -> None:
    before = sha256(study_db)
    home = tmp_path / "home"
    with NotesStore(home / "data" / "notes" / "notes.sqlite") as store:
        ws = store.workspace("alice")
        ws.add(SECRET, parse_ref("Romans 9:21"))
    clients = tmp_path / "clients.json"
    clients.write_text(json.dumps({"clients": [{"token": ALICE, "workspaces": ["alice"]},
                                               {"token": ANY, "workspaces": ["alice", "bob"]}]}), encoding="utf-8")
    _, expected = query_json(QUESTION, "--db", str(study_db), "--proxy", local_proxy.url, "--k", "4")
    serve = ServeProcess(study_db, local_proxy.url, "--clients", str(clients), "--allow-writes", home=home).start()
    seen: dict[str, Any] = {}
    try:
        async def alice(session: ClientSession) -> None:
            tools = await Tools(session).start()
            assert set(tools.validators) == {"search_library", "get_context", "read_passage", "search_verses",
                                             "cross_references", "strongs", "list_notes", "add_note"}
            found = await tools.ok("search_library", {"query": QUESTION, "k": 4})
            assert [(r["id"], r["score"]) for r in found["results"]] == \
                [(r["chunk_id"], r["score"]) for r in expected["results"]]
            assert found["library"]["workspace"] == "alice"
            mine = await tools.ok("search_library", {"query": "Onesiphorus potter", "mode": "keyword",
                                                     "filters": {"source_type": ["user_note"]}})
            assert [r["snippet"] for r in mine["results"]] == [SECRET]
            listed = await tools.ok("list_notes", {})
            assert [n["text"] for n in listed["notes"]] == [SECRET]
            first = await tools.ok("search_library", {"query": QUESTION, "k": 12, "mode": "hybrid",
                                                      "max_tokens": 1200})
            assert first["next_cursor"]
            seen["cursor"] = first["next_cursor"]
            await tools.ok("add_note", {"text": "alice adds this", "ref": "Romans 9:1"})

        async def bob(session: ClientSession) -> None:
            tools = await Tools(session).start()
            listed = await tools.ok("list_notes", {})
            assert listed["workspace"] == "bob" and listed["notes"] == []
            found = await tools.ok("search_library", {"query": "Onesiphorus potter", "mode": "keyword"})
            assert SECRET not in json.dumps(found)

        async def alice_again(session: ClientSession) -> None:  # another HTTP session: the ranking continues
            tools = await Tools(session).start()
            more = await tools.ok("search_library", {"query": QUESTION, "k": 12, "mode": "hybrid",
                                                     "max_tokens": 1200, "cursor": seen["cursor"]})
            assert more["page"]["offset"] > 0 and more["results"]

        over_http(f"{serve.url}/mcp?workspace=alice", ALICE, alice)
        over_http(f"{serve.url}/mcp?workspace=bob", ANY, bob)
        over_http(f"{serve.url}/mcp?workspace=alice", ANY, alice_again)
        with NotesStore(home / "data" / "notes" / "notes.sqlite") as store:
            assert [n.text for n in store.workspace("alice").notes()] == [SECRET, "alice adds this"]
            assert store.workspace("bob").notes() == []

        def post(query: str = "", headers: dict[str, str] | None = None) -> httpx.Response:
            return httpx.post(f"{serve.url}/mcp{query}", json=HELLO, timeout=30, trust_env=False,
                              headers={**MCP_HEADERS, **(headers or {})})

        ok = post("?workspace=alice", {"Authorization": f"Bearer {ALICE}"})
        assert ok.status_code == 200 and ok.json()["result"]["serverInfo"]["name"] == "amicus-desktop"
        assert ok.headers["x-trace-id"]
        for answer, status, code in [
            (post(), 401, "UNAUTHORIZED"),
            (post("?workspace=alice", {"Authorization": "Bearer wrong-token-0123456789"}), 401, "UNAUTHORIZED"),
            (post("?workspace=bob", {"Authorization": f"Bearer {ALICE}"}), 403, "WORKSPACE_FORBIDDEN"),
            (post("?workspace=Not+Valid", {"Authorization": f"Bearer {ALICE}"}), 400, "BAD_REQUEST"),
            (post("?colour=red", {"Authorization": f"Bearer {ALICE}"}), 400, "BAD_REQUEST"),
            (post("?overlay=none", {"Authorization": f"Bearer {ALICE}"}), 404, "OVERLAY_NOT_FOUND"),
            (post("", {"Authorization": f"Bearer {ALICE}", "Host": "evil.example:80"}), 403, "HOST_NOT_ALLOWED"),
        ]:
            body = expect_error(answer, status, code)
            assert body["trace_id"] == answer.headers["x-trace-id"]
        log = serve.log_text()
        assert "/mcp" in log and "Jacob" not in log and SECRET not in log and ALICE not in log
    finally:
        serve.close()
    assert sha256(study_db) == before


def test_mcp_requests_count_against_the_rate_limit(study_db: Path, tmp_path: Path) -> None:
    serve = ServeProcess(study_db, "http://127.0.0.1:9", "--rate-limit", "3").start()
    try:
        answers = [httpx.post(f"{serve.url}/mcp", json=HELLO, headers=MCP_HEADERS, timeout=30, trust_env=False)
                   for _ in range(5)]
        assert [a.status_code for a in answers[:3]] == [200, 200, 200]
        expect_error(answers[4], 429, "RATE_LIMITED")
        assert answers[4].headers["retry-after"]
    finally:
        serve.close()

"""``amicus-desktop mcp`` driven by the MCP SDK's own client over stdio (CONTRACT section 10).

A real server process, the real study library, the real proxy: the client lists the three tools and
calls each; the answers agree with ``query --json`` and ``context --format json``; failures are tool
errors whose text begins with the contract's code.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from amicus_desktop.store.scripture import ScriptureStore
from tests.serve.conftest import sha256
from tests.support.cli import query_json, run
from tests.support.proxy import ROOT, free_port

Session = Callable[[ClientSession], Awaitable[None]]


def drive(db: Path, proxy_url: str, home: Path, check: Session, *args: str, timeout: float = 120) -> None:
    """Start ``amicus-desktop mcp`` and run ``check`` on an initialised client session to it."""
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "amicus_desktop", "mcp", "--db", str(db), "--proxy", proxy_url, *args],
        env={"AMICUS_HOME": str(home), "OPENBLAS_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)}, cwd=str(ROOT),
    )

    async def main() -> None:
        with open(os.devnull, "w") as errlog:  # the server's stderr (warnings) is not the test's
            async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                await check(session)

    asyncio.run(asyncio.wait_for(main(), timeout))


def text_of(result: Any) -> str:
    assert len(result.content) == 1 and result.content[0].type == "text"
    return str(result.content[0].text)


def test_lists_and_calls_the_three_tools(study_db: Path, local_proxy: Any, tmp_path: Path) -> None:
    before = sha256(study_db)
    question = "Why did God choose Jacob over Esau?"
    _, expected = query_json(question, "--db", str(study_db), "--proxy", local_proxy.url, "--k", "3")
    code, out, _ = run("context", question, "--db", str(study_db), "--proxy", local_proxy.url, "--budget", "400",
                       "--format", "json")
    assert code == 0
    context = json.loads(out)
    with ScriptureStore(study_db) as store:
        verses = dict(store.chapter("romans", 9))

    async def check(session: ClientSession) -> None:
        tools = await session.list_tools()
        assert {t.name for t in tools.tools} == {"search_library", "get_context", "read_passage", "search_verses",
                                                 "cross_references", "strongs", "list_notes", "add_note"}
        search = next(t for t in tools.tools if t.name == "search_library")
        assert search.input_schema["required"] == ["query"]
        assert set(search.input_schema["properties"]) == {"query", "k", "mode", "chapter", "filters",
                                                          "detail", "max_tokens", "cursor"}

        found = await session.call_tool("search_library", {"query": question, "k": 3})
        assert not found.is_error
        body = found.structured_content
        assert [(r["id"], r["score"]) for r in body["results"]] == \
            [(r["chunk_id"], r["score"]) for r in expected["results"]]
        text = text_of(found)
        for r in body["results"]:
            assert f"{r['rank']}. {r['title']}" in text and r["citation"] in text and f"{r['score']:.3f}" in text

        filtered = await session.call_tool("search_library", {"query": "grace", "mode": "keyword",
                                                              "filters": {"source_type": ["word_study"]}})
        assert not filtered.is_error
        assert {r["source_type"] for r in filtered.structured_content["results"]} == {"word_study"}

        block = await session.call_tool("get_context", {"query": question, "budget": 400})
        assert not block.is_error
        assert {k: block.structured_content[k] for k in context} == context and text_of(block) == context["text"]

        passage = await session.call_tool("read_passage", {"reference": "Rom 9:6-8"})
        assert not passage.is_error
        assert text_of(passage).splitlines() == ["Romans 9:6-8", "", *(f"{n} {verses[n]}" for n in (6, 7, 8))]
        assert {k: v for k, v in passage.structured_content["verses"][0].items() if k != "text_sha256"} == \
            {"verse": 6, "text": verses[6]}

        for tool, arguments, code in [
            ("read_passage", {"reference": "Narnia 3"}, "BAD_REQUEST"),
            ("read_passage", {"reference": "John 3"}, "PASSAGE_NOT_FOUND"),  # the study library holds Romans
            ("search_library", {"query": "grace", "k": 0}, "BAD_REQUEST"),
            ("search_library", {"query": "grace", "k": "many"}, "BAD_REQUEST"),  # refused by the SDK's schema
            ("search_library", {"query": "grace", "filters": {"colour": ["red"]}}, "BAD_REQUEST"),
            ("search_library", {"query": " "}, "QUERY_INVALID"),
            ("get_context", {"query": "x" * 2001}, "QUERY_TOO_LONG"),
            ("no_such_tool", {}, "BAD_REQUEST"),
        ]:
            failed = await session.call_tool(tool, arguments)
            assert failed.is_error and text_of(failed).startswith(f"{code}: "), (tool, text_of(failed))

    drive(study_db, local_proxy.url, tmp_path, check, "--workspace", "alice")
    assert sha256(study_db) == before
    log = (tmp_path / "logs" / "amicus-mcp.log").read_text("utf-8")
    assert "MCP server on stdio" in log and "Jacob" not in log and "Esau" not in log  # never the question


def test_offline_is_a_tool_error_and_keyword_still_answers(study_db: Path, tmp_path: Path) -> None:
    async def check(session: ClientSession) -> None:
        failed = await session.call_tool("search_library", {"query": "grace"})
        assert failed.is_error and text_of(failed).startswith("OFFLINE: ")
        assert failed.structured_content["error"]["code"] == "OFFLINE"
        ok = await session.call_tool("search_library", {"query": "grace", "mode": "keyword"})
        assert not ok.is_error and ok.structured_content["results"]

    drive(study_db, f"http://127.0.0.1:{free_port()}", tmp_path, check)


def test_a_bad_workspace_or_missing_overlay_stops_it_at_start(study_db: Path, tmp_path: Path) -> None:
    code, out, err = run("mcp", "--db", str(study_db), "--workspace", "Not Valid")
    assert code == 2 and out == "" and "--workspace" in err
    code, out, err = run("mcp", "--db", str(study_db), "--overlay", str(tmp_path / "none.json"))
    assert code == 2 and out == "" and "--overlay" in err

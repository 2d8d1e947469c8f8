"""MCP arguments are the tool's schema, exactly (issue 30, item 8), and a line that is not JSON-RPC gets
the protocol's error: a real ``amicus-desktop mcp`` process, the SDK's own client, raw stdin for the rest."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from mcp import ClientSession

from tests.mcp.test_server import drive, text_of
from tests.serve.conftest import sha256
from tests.support.proxy import ROOT

#: (tool, arguments, what the refusal says) — each ran before: k=true as k=1, "5" as 5, the rest ignored
ILL_TYPED = [
    ("search_library", {"query": "grace", "k": True}, "k must be a whole number, not true or false"),
    ("search_library", {"query": "grace", "k": "5"}, "k must be a whole number, not a string"),
    ("search_library", {"query": "grace", "k": 2.5}, "k must be a whole number, not a number"),
    ("search_library", {"query": "grace", "workspace": "bob"}, "unknown argument 'workspace'; the arguments are: "
                                                               "query, k, mode, chapter, filters"),
    ("search_library", {"query": "grace", "mode": "fast"}, 'mode must be one of "dense", "hybrid", "keyword"'),
    ("search_library", {"query": "grace", "filters": {"book": [1]}}, "filters/book/0 must be a string"),
    ("search_library", {"query": "grace", "filters": '{"book": ["romans"]}'}, "filters must be an object"),
    ("search_library", {"query": 7}, "query must be a string, not a number"),
    ("search_library", {"k": 3}, "'query' is required"),
    ("get_context", {"query": "grace", "budget": True}, "budget must be a whole number"),
    ("get_context", {"query": "grace", "budget": "400"}, "budget must be a whole number"),
    ("read_passage", {"reference": "Rom 9:1", "translation": "kjv"}, "unknown argument 'translation'"),
]


def test_arguments_outside_the_schema_are_refused(study_db: Path, local_proxy: Any, tmp_path: Path) -> None:
    before = sha256(study_db)

    async def check(session: ClientSession) -> None:
        for tool in (await session.list_tools()).tools:
            assert tool.input_schema["additionalProperties"] is False, tool.name
        for tool, arguments, says in ILL_TYPED:
            failed = await session.call_tool(tool, arguments)
            assert failed.is_error and text_of(failed).startswith("BAD_REQUEST: "), (arguments, text_of(failed))
            assert says in text_of(failed), (arguments, text_of(failed))
        ok = await session.call_tool("search_library", {"query": "grace", "k": 2, "mode": "keyword", "chapter": None})
        assert not ok.is_error and len(ok.structured_content["results"]) == 2
        ok = await session.call_tool("search_library", {"query": "grace", "k": 2.0, "mode": "keyword"})
        assert not ok.is_error  # 2.0 is an integer to JSON Schema

    drive(study_db, local_proxy.url, tmp_path, check)
    assert sha256(study_db) == before


def test_a_line_that_is_not_json_rpc_gets_the_protocols_error(study_db: Path, tmp_path: Path) -> None:
    """The SDK's transport read such a line and the server dropped it: the client waited for ever."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "amicus_desktop", "mcp", "--db", str(study_db)], cwd=str(ROOT),
        env={"AMICUS_HOME": str(tmp_path), "OPENBLAS_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)},
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines: queue.Queue[str] = queue.Queue()
    assert proc.stdout is not None and proc.stdin is not None
    threading.Thread(target=lambda: [lines.put(line) for line in proc.stdout or ()], daemon=True).start()

    def ask(line: str) -> dict[str, Any]:
        assert proc.stdin is not None
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        answer: dict[str, Any] = json.loads(lines.get(timeout=60))
        return answer

    try:
        assert ask("this is not JSON {") == {"jsonrpc": "2.0", "id": None,
                                             "error": {"code": -32700, "message": "Parse error"}}
        invalid = ask('{"jsonrpc": "2.0", "id": 1, "method": 42}')
        assert invalid["id"] is None and invalid["error"]["code"] == -32600
        hello = ask(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}))
        assert hello["id"] == 2 and hello["result"]["serverInfo"]["name"] == "amicus-desktop"  # still serving
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            proc.stdout.close()

"""MCP arguments are the tool's schema, exactly (issue 30, item 8), and a line that is not JSON-RPC gets
the protocol's error: a real ``amicus-desktop mcp`` process, the SDK's own client, raw stdin for the rest."""

from __future__ import annotations

import collections
import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import ClientSession

from amicus_desktop.serve.errors import STATUS
from tests.mcp.test_server import drive, text_of
from tests.mcp.tools_client import Tools
from tests.serve.conftest import sha256
from tests.support.figures import record_figure
from tests.support.proxy import ROOT

#: generated tool calls in the suite (``AMICUS_MCP_FUZZ=1000`` for the run recorded in docs/RELIABILITY.md)
FUZZ_CALLS = int(os.environ.get("AMICUS_MCP_FUZZ", "120"))

#: (tool, arguments, what the refusal says) — each ran before: k=true as k=1, "5" as 5, the rest ignored
ILL_TYPED = [
    ("search_library", {"query": "grace", "k": True}, "k must be a whole number, not true or false"),
    ("search_library", {"query": "grace", "k": "5"}, "k must be a whole number, not a string"),
    ("search_library", {"query": "grace", "k": 2.5}, "k must be a whole number, not a number"),
    ("search_library", {"query": "grace", "workspace": "bob"}, "unknown argument 'workspace'; the arguments are: "
                                                               "query, k, mode, chapter, filters, detail, "
                                                               "max_tokens, cursor"),
    ("search_library", {"query": "grace", "mode": "fast"}, 'mode must be one of "dense", "hybrid", "keyword"'),
    ("search_library", {"query": "grace", "filters": {"book": [1]}}, "filters/book/0 must be a string"),
    ("search_library", {"query": "grace", "filters": '{"book": ["romans"]}'}, "filters must be an object"),
    ("search_library", {"query": 7}, "query must be a string, not a number"),
    ("search_library", {"k": 3}, "'query' is required"),
    ("get_context", {"query": "grace", "budget": True}, "budget must be a whole number"),
    ("get_context", {"query": "grace", "budget": "400"}, "budget must be a whole number"),
    ("read_passage", {"reference": "Rom 9:1", "version": "kjv"}, "unknown argument 'version'"),
    ("search_library", {"query": "grace", "detail": "all"}, 'detail must be one of "ids", "brief", "full"'),
    ("search_library", {"query": "grace", "max_tokens": 10}, "max_tokens"),
    ("search_library", {"query": "grace", "max_tokens": "9000"}, "max_tokens must be a whole number, not a string"),
    ("strongs", {"number": "G26", "page": 2}, "unknown argument 'page'"),
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


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**15), 10**15) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=8)
#: what every paged tool takes beside its own arguments (sizing, the next page)
DETAIL = st.sampled_from(["ids", "brief", "full"])
MAX_TOKENS = st.integers(1_000, 24_000) | st.integers(0, 30_000)
CURSOR = st.sampled_from(["", "not-a-cursor", "eyJ4IjoxfQ", "c1." + "A" * 40])
SIZED = {"detail": DETAIL, "max_tokens": MAX_TOKENS}
PAGED = {**SIZED, "cursor": CURSOR}
#: the study library holds one translation, "default"
TRANSLATIONS = st.sampled_from(["default", "DEFAULT", "kjv", "klingon", ""])
REFERENCES = st.sampled_from(["Rom 9:6-8", "Romans 5", "John 3:16", "Narnia 3", "Gen 3:11-1Jn 9", "Romans 3:23", ""])
#: each tool's arguments: meant values, ill-typed ones, and keys no tool has — every tool the server lists
MEANT: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "search_library": {
        "query": st.sampled_from(["grace", "Why did God choose Jacob over Esau? Rom 9:13", "faith", " ", "x" * 2001]),
        "k": st.integers(0, 51), "mode": st.sampled_from(["dense", "hybrid", "keyword"]),
        "chapter": st.sampled_from(["romans:9", "Romans 5", "rom:3", "narnia:1"]),
        "filters": st.sampled_from([{}, {"book": ["romans"]}, {"scholar": ["matthew-henry"]}, {"colour": ["red"]},
                                    {"source_type": ["word_study", "section_panel"], "book": ["rom"]}]),
        **PAGED,
    },
    "get_context": {
        "query": st.sampled_from(["grace", "faith and works", ""]), "budget": st.integers(0, 20_000),
        "chapter": st.sampled_from(["romans:9", "bad"]), "mode": st.sampled_from(["dense", "keyword", "hybrid"]),
        **SIZED,
    },
    "read_passage": {"reference": REFERENCES, "translation": TRANSLATIONS, **PAGED},
    "search_verses": {
        "query": st.sampled_from(["love is patient", "the children being not yet born", "grace", "", "x" * 2001]),
        "k": st.integers(0, 51), "mode": st.sampled_from(["semantic", "dense", "hybrid", "keyword", "fast"]),
        "books": st.lists(st.sampled_from(["romans", "rom", "john", "narnia"]), max_size=3),
        "testament": st.lists(st.sampled_from(["OT", "NT", "XT"]), max_size=2),
        "translation": TRANSLATIONS, **PAGED,
    },
    "cross_references": {
        "reference": REFERENCES, "limit": st.integers(-1, 500),
        "sources": st.lists(st.sampled_from(["henry", "scofield", "chain", "nave", "meaning", "gossip"]), max_size=3),
        **PAGED,
    },
    "strongs": {"number": st.sampled_from(["G26", "H7225", "g0026", "G99999", "agape", ""]),
                "book": st.sampled_from(["John", "romans", "narnia"]), **PAGED},
    "list_notes": {"ref": REFERENCES, **PAGED},
    "add_note": {"text": st.sampled_from(["grace upon grace", "", " ", "x" * 70_000]), "ref": REFERENCES, **SIZED},
}
#: one call of each tool that must be answered (the generated calls, mostly refused, then cannot hide a tool
#: that answers nothing)
WELL_FORMED: dict[str, dict[str, Any]] = {
    "search_library": {"query": "grace", "k": 3, "detail": "brief"},
    "get_context": {"query": "faith and works", "budget": 600},
    "read_passage": {"reference": "Romans 9:6-8", "translation": "default"},
    "search_verses": {"query": "the children being not yet born", "k": 3, "mode": "keyword"},
    "cross_references": {"reference": "Romans 3:23", "limit": 5},
    "strongs": {"number": "G26", "detail": "ids"},
    "list_notes": {"ref": "Romans 9"},
    "add_note": {"text": "grace upon grace", "ref": "John 1:16"},
}
#: the arguments a tool cannot be called without
REQUIRED = {"query", "reference", "number", "text"}


@st.composite
def tool_calls(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    tool = draw(st.sampled_from(sorted(MEANT)))
    arguments: dict[str, Any] = {}
    for name, meant in MEANT[tool].items():
        # (hypothesis starts from the first choice: the common case first) a required argument always given, the
        # tool's other arguments 7 times in 10, sizing and cursors 1 in 4; ill-typed 1 in 10 of those given
        given = name in REQUIRED or draw(st.sampled_from([True] * 7 + [False] * 3 if name not in PAGED else
                                                         [False] * 3 + [True]))
        if given:
            arguments[name] = draw(draw(st.sampled_from([meant] * 9 + [json_values])))
    if draw(st.sampled_from([False] * 9 + [True])):
        arguments[draw(st.sampled_from(["workspace", "overlay", "K", "pin", "x"]))] = draw(json_values)
    return tool, arguments


@settings(max_examples=FUZZ_CALLS, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(call=tool_calls())
def _generate(call: tuple[str, dict[str, Any]]) -> None:
    GENERATED.append(call)


GENERATED: list[tuple[str, dict[str, Any]]] = []


def test_generated_ill_typed_calls(study_db: Path, local_proxy: Any, tmp_path: Path) -> None:
    """Every tool, every call answered — its structured content valid against the tool's output schema — or
    refused with a code of the contract, never INTERNAL, each within seconds; on a server with a workspace that
    may be written, so the notes tools run too."""
    GENERATED.clear()
    _generate()
    before = sha256(study_db)
    outcomes: collections.Counter[str] = collections.Counter()
    answered: collections.Counter[str] = collections.Counter()
    slowest, slowest_tool = 0.0, ""

    async def check(session: ClientSession) -> None:
        nonlocal slowest, slowest_tool
        tools = await Tools(session).start()
        assert set(tools.validators) == set(MEANT) == set(WELL_FORMED)  # a new tool is fuzzed too, or this fails
        assert {tool for tool, _ in GENERATED} == set(MEANT)
        for tool, arguments in [*WELL_FORMED.items(), *GENERATED]:
            asked = time.perf_counter()
            result = await tools.call(tool, arguments)  # an answer is checked against the output schema
            if time.perf_counter() - asked > slowest:
                slowest, slowest_tool = time.perf_counter() - asked, tool
            if not result.is_error:
                outcomes["answered"] += 1
                answered[tool] += 1
                continue
            code = text_of(result).partition(":")[0]
            assert code in STATUS and STATUS[code] < 500, (tool, arguments, text_of(result))
            outcomes[code] += 1

    started = time.monotonic()
    drive(study_db, local_proxy.url, tmp_path, check, "--workspace", "fuzz", "--allow-writes",
          timeout=120 + 2 * len(GENERATED))
    seconds = time.monotonic() - started
    figure = (f"{len(GENERATED)} generated calls (and one well-formed) of each of {len(MEANT)} tools in "
              f"{seconds:.0f} s: {dict(outcomes)}; slowest {slowest:.2f} s ({slowest_tool})")
    record_figure("mcp fuzz", figure)
    print("mcp fuzz:", figure, dict(answered))  # shown with -s: the figure for the docs
    assert set(answered) == set(MEANT), dict(answered)  # every tool answered
    assert outcomes["BAD_REQUEST"] and sum(answered.values()) > len(MEANT)  # generated calls answered and refused
    assert slowest < 5.0  # generous: the machine may be shared (the recorded run: under 1 s)
    assert sha256(study_db) == before

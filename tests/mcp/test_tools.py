"""Every study tool over stdio with the SDK's own client (issue 35, items 1–3): the answers are the engine's
(``query``, ``verses``, ``xrefs``, ``strongs`` print the same), every structured result fits the tool's
output schema, results are sized (``detail``, ``max_tokens``) with pages that join to the whole ranking,
and each carries its provenance."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from mcp import ClientSession

from amicus_desktop.context import WordPieceCounter
from amicus_desktop.mcp.provenance import library_id
from amicus_desktop.mcp.sizing import DEFAULT_MAX_TOKENS
from amicus_desktop.store.scripture import ScriptureStore
from tests.mcp.test_server import drive
from tests.mcp.tools_client import Tools, joined
from tests.serve.conftest import sha256
from tests.support.cli import query_json, run

QUESTION = "Why did God choose Jacob over Esau?"


def _sha(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_every_tool_answers_as_the_engine_does_and_fits_its_schema(study_db: Path, local_proxy: Any,
                                                                   tmp_path: Path) -> None:
    before = sha256(study_db)
    _, expected = query_json(QUESTION, "--db", str(study_db), "--proxy", local_proxy.url, "--k", "8")
    code, out, _ = run("verses", "the children being not yet born", "--db", str(study_db), "--mode", "keyword",
                       "--json")
    assert code == 0
    verses = json.loads(out)
    code, out, _ = run("xrefs", "Romans 9:13", "--db", str(study_db), "--json")
    assert code == 0
    xrefs = json.loads(out)
    code, out, _ = run("strongs", "G26", "--db", str(study_db), "--json")
    assert code == 0
    strongs = json.loads(out)
    with ScriptureStore(study_db) as store:
        lib_id = library_id(store)
    counter = WordPieceCounter()

    async def check(session: ClientSession) -> None:
        tools = await Tools(session).start()
        seen: list[dict[str, Any]] = []
        for detail in ("full", "brief", "ids"):
            found = await tools.ok("search_library", {"query": QUESTION, "k": 8, "detail": detail})
            assert [(r["id"], r["score"]) for r in found["results"]] == \
                [(r["chunk_id"], r["score"]) for r in expected["results"]], detail
            assert found["page"] == {**found["page"], "detail": detail, "offset": 0, "count": 8, "total": 8}
            assert found["next_cursor"] is None
            seen.append(found)
        full, brief, ids = seen
        assert all("breakdown" in r and "snippet" in r for r in full["results"])
        assert all("breakdown" not in r and r["preview"] for r in brief["results"])
        assert all(set(r) == {"id", "rank", "score", "citation", "text_sha256"} for r in ids["results"])
        assert brief["page"]["cut"] and "breakdown" in brief["page"]["cut"][0]
        assert ids["page"]["tokens"] < brief["page"]["tokens"] < full["page"]["tokens"]
        for r, e in zip(full["results"], expected["results"], strict=True):
            assert r["text_sha256"] == _sha(e["text"])  # the hash of the chunk's whole text, as query prints it

        v = await tools.ok("search_verses", {"query": "the children being not yet born", "mode": "keyword"})
        assert [(r["reference"], r["score"]) for r in v["results"]] == \
            [(r["reference"], r["score"]) for r in verses["results"]]
        assert all(r["text_sha256"] == _sha(r["text"]) for r in v["results"])

        x = await tools.ok("cross_references", {"reference": "Romans 9:13"})
        assert [(i["ref"]["label"], i["score"]) for i in x["cross_references"]] == \
            [(i["ref"]["label"], i["score"]) for i in xrefs["cross_references"]]
        assert x["cross_references"], "the study library's thread notes cite passages"

        s = await tools.ok("strongs", {"number": "g0026"})
        assert s["number"] == strongs["number"] == "G26" and s["lemma"] == strongs["lemma"]
        assert [i["chunk_id"] for i in s["items"] if i["kind"] != "verse"] == \
            [e["chunk_id"] for e in (*strongs["entries"], *strongs["word_studies"])]

        p = await tools.ok("read_passage", {"reference": "Romans 9:10-13", "detail": "brief"})
        assert [x["verse"] for x in p["verses"]] == [10, 11, 12, 13] and p["translation"] is not None

        c = await tools.ok("get_context", {"query": QUESTION, "budget": 600, "detail": "ids"})
        assert "text" not in c and [x["id"] for x in c["chunks"]] and c["used_tokens"] <= 600

        for answer in (*seen, v, x, s, p, c):  # provenance: the library's content id, its model, the scope
            assert answer["library"]["id"] == lib_id
            assert answer["library"]["workspace"] is None and answer["library"]["overlay"] is None
        for tool, arguments, code in [
            ("cross_references", {"reference": "Romans 9"}, "QUERY_INVALID"),
            ("cross_references", {"reference": "Romans 9:13", "sources": ["gossip"]}, "BAD_REQUEST"),
            ("strongs", {"number": "love"}, "QUERY_INVALID"),
            ("strongs", {"number": "G26", "book": "Narnia"}, "BAD_REQUEST"),
            ("search_verses", {"query": "grace", "translation": "klingon", "mode": "keyword"}, "BAD_REQUEST"),
            ("read_passage", {"reference": "Romans 9:1", "translation": "klingon"}, "BAD_REQUEST"),
            ("list_notes", {}, "NO_WORKSPACE"),
            ("add_note", {"text": "mine"}, "WRITES_DISABLED"),
        ]:
            await tools.refused(tool, arguments, code)

        for answer in (*seen, v, x, s, p, c):  # word pieces: more than a chat model's ~4 characters a token
            text = json.dumps(answer, ensure_ascii=False, separators=(",", ":"))
            assert answer["page"]["tokens"] + 2 >= counter(text) >= len(text) / 4, answer["page"]

    drive(study_db, local_proxy.url, tmp_path, check)
    assert sha256(study_db) == before


def test_pages_join_to_the_whole_ranking(study_db: Path, local_proxy: Any, tmp_path: Path) -> None:
    """A small max_tokens cuts the ranking into pages that join to it exactly; a cursor continues in another
    server process (the ranking asked again, its hash the same) and is refused when the arguments changed."""
    ask = {"query": QUESTION, "k": 40, "mode": "hybrid"}
    handed: dict[str, Any] = {}

    async def first(session: ClientSession) -> None:
        tools = await Tools(session).start()
        whole = await tools.ok("search_library", {**ask, "detail": "ids", "max_tokens": 24_000})
        assert whole["next_cursor"] is None and whole["page"]["total"] == len(whole["results"]) >= 8
        pages = [await tools.ok("search_library", {**ask, "max_tokens": 1500})]
        while pages[-1]["next_cursor"] is not None:
            assert len(pages) < 40
            info = pages[-1]["page"]
            assert info["tokens"] <= 1500 and any("next page" in c for c in info["cut"])
            pages.append(await tools.ok("search_library", {**ask, "max_tokens": 1500,
                                                           "cursor": pages[-1]["next_cursor"]}))
        assert len(pages) > 2
        assert [r["id"] for r in joined(pages, "results")] == [r["id"] for r in whole["results"]]
        assert [r["rank"] for r in joined(pages, "results")] == list(range(1, len(whole["results"]) + 1))
        handed["cursor"] = pages[0]["next_cursor"]
        handed["second"] = pages[1]["results"]
        # at another detail, the same cursor continues the same ranking
        brief = await tools.ok("search_library", {**ask, "detail": "brief", "cursor": pages[0]["next_cursor"]})
        assert [r["id"] for r in brief["results"]][: len(pages[1]["results"])] == [r["id"] for r in pages[1]["results"]]
        await tools.refused("search_library", {**ask, "query": "faith", "cursor": handed["cursor"]}, "CURSOR_STALE")
        await tools.refused("search_library", {**ask, "cursor": "not-a-cursor"}, "BAD_REQUEST")

        xr = [await tools.ok("cross_references", {"reference": "Romans 9:13", "max_tokens": 1000})]
        while xr[-1]["next_cursor"]:
            xr.append(await tools.ok("cross_references", {"reference": "Romans 9:13", "max_tokens": 1000,
                                                          "cursor": xr[-1]["next_cursor"]}))
        whole_x = await tools.ok("cross_references", {"reference": "Romans 9:13", "max_tokens": 24_000})
        assert len(xr) > 1 and joined(xr, "cross_references") == whole_x["cross_references"]

    async def elsewhere(session: ClientSession) -> None:
        tools = await Tools(session).start()
        again = await tools.ok("search_library", {**ask, "max_tokens": 1500, "cursor": handed["cursor"]})
        assert [r["id"] for r in again["results"]] == [r["id"] for r in handed["second"]]

    drive(study_db, local_proxy.url, tmp_path, first)
    drive(study_db, local_proxy.url, tmp_path, elsewhere)


def test_defaults_keep_every_answer_well_under_25000_tokens(study_db: Path, local_proxy: Any, tmp_path: Path) -> None:
    async def check(session: ClientSession) -> None:
        tools = await Tools(session).start()
        for tool, arguments in [("search_library", {"query": QUESTION, "k": 40, "mode": "hybrid"}),
                                ("get_context", {"query": QUESTION, "budget": 20_000}),
                                ("search_verses", {"query": "God", "k": 50, "mode": "keyword"}),
                                ("read_passage", {"reference": "Romans 9"}),
                                ("cross_references", {"reference": "Romans 9:13", "limit": 200}),
                                ("strongs", {"number": "G26"})]:
            answer = await tools.ok(tool, arguments)
            assert answer["page"]["max_tokens"] == DEFAULT_MAX_TOKENS
            assert answer["page"]["tokens"] <= DEFAULT_MAX_TOKENS, (tool, answer["page"])
        block = await tools.ok("get_context", {"query": QUESTION, "budget": 20_000, "max_tokens": 2000})
        assert block["budget"] < 20_000 and any("budget was lowered" in c for c in block["page"]["cut"])

    drive(study_db, local_proxy.url, tmp_path, check)

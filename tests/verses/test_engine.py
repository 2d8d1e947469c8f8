"""``verses`` (CONTRACT section 14) on a real library built by the builder's verse code, through the real proxy."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run
from tests.support.corpora import sha256
from tests.support.proxy import free_port

pytestmark = pytest.mark.slow


def verses(*args: str) -> tuple[int, dict[str, Any]]:
    code, out, err = run("verses", *args, "--json")
    assert out.count("\n") == 1, out + err
    return code, json.loads(out)


def test_a_remembered_quotation_puts_its_verse_first(verse_db: Path, local_proxy) -> None:
    code, body = verses("God so loved the world", "--db", str(verse_db), "--proxy", local_proxy.url)
    assert code == 0
    top = body["results"][0]
    assert (top["reference"], top["book_id"], top["chapter_num"], top["verse_start"]) == ("John 3:16", "john", 3, 16)
    assert top["text"].startswith("For God so loved the world")
    b = top["breakdown"]
    assert b["phrase"] == pytest.approx(1.0)  # every word pair of the question is a phrase of the verse
    assert top["score"] == b["final"]
    assert b["final"] == pytest.approx((b["base"] + 0.3 * b["neighbour"]) * b["reference_boost"])
    assert body["mode"] == "hybrid" and body["translation"]["abbreviation"] == "WEB"
    assert set(body) >= {"query", "mode", "results", "warnings", "timing_ms"}
    assert [r["rank"] for r in body["results"]] == list(range(1, len(body["results"]) + 1))
    scores = [r["score"] for r in body["results"]]
    assert scores == sorted(scores, reverse=True)


def test_every_result_says_why_it_ranks(verse_db: Path, local_proxy) -> None:
    code, body = verses("adoption as sons", "--db", str(verse_db), "--proxy", local_proxy.url, "--k", "20")
    assert code == 0 and len(body["results"]) == 20
    weights = body["query_trace"]["weights"]
    for r in body["results"]:
        b = r["breakdown"]
        signals = ("similarity", "keyword", "phrase", "commentary", "commentary_keyword", "lexicon", "lexicon_keyword")
        assert b["base"] == pytest.approx(sum(weights[s] * (b[s] or 0.0) for s in signals))
        if b["commentary"]:
            assert b["commentary_source"].startswith(("mhcc:", "scofield:"))
        if b["lexicon"]:
            assert b["lexicon_source"][0] in "GH"
        assert r["verse_start"] <= r["verse_end"] <= r["verse_start"] + 2
        assert r["text"] == " ".join(v["text"] for v in r["verses"])
    assert any(r["breakdown"]["lexicon_source"] == "G5206" for r in body["results"])  # υἱοθεσία, adoption
    assert any(r["reference"].startswith("Romans 8:15") for r in body["results"])


def test_keyword_search_needs_no_proxy_and_meaning_search_does(verse_db: Path) -> None:
    dead = f"http://127.0.0.1:{free_port()}"
    code, body = verses("born again of water and the Spirit", "--db", str(verse_db), "--proxy", dead,
                        "--mode", "keyword")
    assert code == 0 and body["results"][0]["book_id"] == "john" and body["results"][0]["chapter_num"] == 3
    assert body["model"] is None and all(r["breakdown"]["similarity"] is None for r in body["results"])
    code, body = verses("born again", "--db", str(verse_db), "--proxy", dead, "--mode", "semantic")
    assert code == 1 and body["error"]["code"] == "OFFLINE"


def test_the_kjv_is_searched_and_shown_by_name(verse_db: Path, local_proxy) -> None:
    base = ("--db", str(verse_db), "--proxy", local_proxy.url, "--k", "3")
    code, kjv = verses("his only begotten Son", *base, "--translation", "kjv")
    assert code == 0 and kjv["translation"] == {"id": "kjv", "name": "King James Version", "abbreviation": "KJV"}
    top = kjv["results"][0]
    assert top["reference"].startswith("John 3:16") and "only begotten Son" in top["text"] and "¶" not in top["text"]
    code, web = verses("his only begotten Son", *base)
    assert code == 0 and web["translation"]["id"] == "web"
    assert all("begotten" not in r["text"] for r in web["results"])  # the WEB says "only born Son"


def test_books_and_testaments_narrow_the_search(verse_db: Path, local_proxy) -> None:
    base = ("--db", str(verse_db), "--proxy", local_proxy.url)
    code, body = verses("love", *base, "--book", "rom", "--k", "15")
    assert code == 0 and {r["book_id"] for r in body["results"]} == {"romans"}
    code, body = verses("love", *base, "--testament", "OT")
    assert code == 0 and body["results"] == []
    assert [w["code"] for w in body["warnings"]] == ["few_results"]


def test_a_question_that_is_a_reference_gets_that_verse(verse_db: Path, local_proxy) -> None:
    base = ("--db", str(verse_db), "--proxy", local_proxy.url)
    code, body = verses("Romans 8:28", *base)
    assert code == 0 and body["results"][0]["reference"].startswith("Romans 8:28")
    assert {r["book_id"] for r in body["results"]} == {"romans"}
    assert all(r["breakdown"]["reference_boost"] == 1.25 for r in body["results"] if r["verse_start"] == 28)
    code, body = verses("suffering and glory in Romans 8", *base, "--k", "20")
    boosted = [r for r in body["results"] if r["breakdown"]["reference_boost"] == 1.25]
    assert boosted and all((r["book_id"], r["chapter_num"]) == ("romans", 8) for r in boosted)
    code, body = verses("what does Jude 1:3 say", *base)
    assert code == 0 and "reference_not_in_corpus" in [w["code"] for w in body["warnings"]]


def test_a_database_without_verse_vectors(study_db: Path, local_proxy) -> None:
    """VERSES_NOT_INDEXED for meaning, words still searched, and the database is never written."""
    before = sha256(study_db)
    for mode in ("semantic", "hybrid"):
        code, body = verses("justified by faith", "--db", str(study_db), "--proxy", local_proxy.url, "--mode", mode)
        assert code == 1 and body["error"]["code"] == "VERSES_NOT_INDEXED"
    code, body = verses("justified by faith", "--db", str(study_db), "--mode", "keyword")
    assert code == 0 and body["results"][0]["book_id"] == "romans"
    assert body["query_trace"]["keyword_index"] == "cache"
    assert sha256(study_db) == before
    assert not [p for p in study_db.parent.iterdir() if p.name != "scripture.db"]


def test_usage_and_contract_errors(verse_db: Path) -> None:
    db = ("--db", str(verse_db), "--mode", "keyword")
    assert run("verses", "grace", *db, "--k", "0")[0] == 2
    assert run("verses", "grace", *db, "--k", "51")[0] == 2
    assert run("verses", "grace", *db, "--translation", "vulgate")[0] == 2
    assert run("verses", "grace", *db, "--book", "narnia")[0] == 2
    assert run("verses", "grace", *db, "--testament", "middle")[0] == 2
    code, body = verses("   ", *db)
    assert code == 1 and body["error"]["code"] == "QUERY_INVALID"
    code, body = verses("grace", "--db", str(verse_db.parent / "missing.db"), "--mode", "keyword")
    assert code == 1 and body["error"]["code"] == "DB_NOT_FOUND"


def test_the_readable_table(verse_db: Path, local_proxy) -> None:
    code, out, _ = run("verses", "God so loved the world", "--db", str(verse_db), "--proxy", local_proxy.url,
                       "--k", "2")
    assert code == 0
    assert out.splitlines()[0] == "2 verses · hybrid search · World English Bible (WEB)"
    assert " John 3:16 " in out and "phrase 1.00" in out


def test_a_library_without_the_verses_table_is_not_indexed_in_every_mode(study_db_minimal: Path) -> None:
    """The minimal schema has no ``verses`` table: every mode answers VERSES_NOT_INDEXED (it was
    ``RuntimeError: coroutine raised StopIteration``), before the proxy (a dead one here) is asked."""
    before = sha256(study_db_minimal)
    dead = f"http://127.0.0.1:{free_port()}"
    for mode in ("keyword", "semantic", "hybrid"):
        for extra in ((), ("--translation", "kjv"), ("--book", "romans")):
            code, body = verses("justified by faith", "--db", str(study_db_minimal), "--proxy", dead,
                                "--mode", mode, *extra)
            assert code == 1 and body["error"]["code"] == "VERSES_NOT_INDEXED", (mode, extra, body)
    assert sha256(study_db_minimal) == before


def test_references_that_begin_alike_are_both_searched(verse_db: Path, local_proxy) -> None:
    """"John 3:1 John 3:16" is two references and nothing else: both verses lead (John 3:16 was missed
    — the "1" read as "1 John" — and the keyword "6" left behind)."""
    code, body = verses("John 3:1 John 3:16", "--db", str(verse_db), "--proxy", local_proxy.url, "--k", "2")
    assert code == 0, body
    assert {r["reference"] for r in body["results"]} == {"John 3:1", "John 3:16"}, body["results"]
    assert body["query_trace"]["keywords"] == []

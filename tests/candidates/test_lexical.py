"""The keyword search (``candidates/lexical.py``, CONTRACT section 6): it needs no proxy, its
tokenizer stems and folds accents and reads query syntax as words, its scores are BM25
normalised, and its results come from the text as it is (a stale or damaged index is not used). Asked
through ``amicus-desktop query`` on the axis corpus (``tests/support/corpora.py``)."""

from __future__ import annotations

import math
import os
from pathlib import Path

import apsw
import pytest

from amicus_desktop.store.fts import FTS_TOKENIZE
from amicus_desktop.store.sqlite import connect
from tests.support.cli import query_json
from tests.support.corpora import corpus, dead_proxy, sha256
from tests.support.corpora import corpus_db as corpus_db  # the fixture ``db``
from tests.support.dbs import build_db


def test_keyword_mode_needs_no_proxy_and_semantic_never_falls_back(db: Path) -> None:
    before = sha256(db)
    files = sorted(p.name for p in db.parent.iterdir())  # the database, and its two-stage file if built
    code, out = query_json("justified by faith", "--db", str(db), "--proxy", dead_proxy(), "--mode", "keyword",
                           subprocess_=True)
    assert code == 0, out
    assert out["mode"] == "keyword" and out["query_trace"]["mode"] == "keyword"
    ids = [r["chunk_id"] for r in out["results"]]
    assert ids[0] == "h-justify" and set(ids) <= {"h-justify", "h-law", "s-grace", "lex-1"}
    for r in out["results"]:
        b = r["breakdown"]
        assert b["mode"] == "keyword" and b["distance"] is None and b["similarity"] is None
        assert b["base"] == b["lexical"] and 0 < b["lexical"] <= 1
    for mode in ("semantic", "hybrid"):
        code, out = query_json("justified by faith", "--db", str(db), "--proxy", dead_proxy(), "--mode", mode)
        assert code == 1 and out["error"]["code"] == "OFFLINE"
    assert sha256(db) == before
    assert sorted(p.name for p in db.parent.iterdir()) == files  # no index or journal written beside it


def test_keyword_tokenizer_stems_folds_diacritics_and_reads_syntax_as_text(db: Path) -> None:
    def ids(q: str) -> list[str]:
        code, out = query_json(q, "--db", str(db), "--proxy", dead_proxy(), "--mode", "keyword")
        assert code == 0, out
        return [r["chunk_id"] for r in out["results"]]

    assert "n-agape" in ids("agape")  # "Agápē" in the text
    assert {"h-justify", "h-law"} <= set(ids("justify"))  # "justified"
    assert ids('potter" AND (clay* NEAR -) OR') == ["h-potter"]
    assert ids("the of and") == []  # only stop-words: nothing to look for


def test_keyword_scores_follow_bm25_normalised(db: Path) -> None:
    """An independent reading: FTS5 bm25 over the same texts with the same tokenizer, divided by
    Σ idf × 2.2 of the words the index knows."""
    code, out = query_json("grace faith potter", "--db", str(db), "--proxy", dead_proxy(), "--mode", "keyword",
                           "--scholar-cap", "50")
    assert code == 0
    con = apsw.Connection(":memory:")
    con.execute(f"CREATE VIRTUAL TABLE f USING fts5(text, tokenize='{FTS_TOKENIZE}')")
    chunks = corpus()
    con.executemany("INSERT INTO f(rowid, text) VALUES (?, ?)", [(i, c.text) for i, c in enumerate(chunks)])
    n = len(chunks)
    norm = 0.0
    for word in ("grace", "faith", "potter"):
        (df,) = con.execute("SELECT count(*) FROM f WHERE f MATCH ?", (f'"{word}"',)).fetchone()
        norm += max(1e-6, math.log((n - df + 0.5) / (df + 0.5))) * 2.2
    expected = {
        chunks[rowid].chunk_id: -score / norm
        for rowid, score in con.execute(
            "SELECT rowid, bm25(f) FROM f WHERE f MATCH '\"grace\" OR \"faith\" OR \"potter\"'"
        )
    }
    got = {r["chunk_id"]: r["breakdown"]["lexical"] for r in out["results"]}
    assert set(got) == set(expected)
    for cid, value in got.items():
        assert value == pytest.approx(min(1.0, expected[cid]), rel=1e-9)


def test_keyword_results_come_from_the_text_as_it_is_not_a_stale_index(tmp_path: Path) -> None:
    """chunk_text changed after build-db indexed it: the database's chunk_fts still finds "potter" in
    h-potter, whose text no longer says so. The hit is refused and the app's own index answers (#20.17)."""
    db = build_db(tmp_path / "scripture.db", corpus())
    con = connect(db, readonly=False)
    con.execute("UPDATE chunk_text SET text = 'On vessels of wrath and of mercy.' WHERE chunk_id = 'h-potter'")
    con.close()
    before = sha256(db)
    code, out = query_json("potter clay", "--db", str(db), "--proxy", dead_proxy(), "--mode", "keyword")
    assert code == 0
    assert "h-potter" not in {r["chunk_id"] for r in out["results"] + out["rejected"]}
    assert out["query_trace"]["keyword_index"] == "cache"
    code, out = query_json("wrath mercy", "--db", str(db), "--proxy", dead_proxy(), "--mode", "keyword")
    assert code == 0 and out["results"][0]["chunk_id"] == "h-potter"  # found by what it says now
    assert sha256(db) == before


def test_a_damaged_keyword_index_cache_is_rebuilt(tmp_path: Path) -> None:
    """The app's own index is disposable: a damaged one was DB_INVALID "… Rebuild it", blaming the database."""
    db = build_db(tmp_path / "scripture.db", corpus(), full_schema=False)
    before = sha256(db)
    code, first = query_json("potter clay", "--db", str(db), "--proxy", dead_proxy(), "--mode", "keyword")
    assert code == 0 and first["query_trace"]["keyword_index"] == "cache"
    (cached,) = (Path(os.environ["AMICUS_HOME"]) / "cache").rglob("*.sqlite")
    data = cached.read_bytes()
    cached.write_bytes(data[:4096] + b"\xa5" * (len(data) - 4096))  # its first page (the schema) intact
    code, again = query_json("potter clay", "--db", str(db), "--proxy", dead_proxy(), "--mode", "keyword")
    assert code == 0, again
    assert [r["chunk_id"] for r in again["results"]] == [r["chunk_id"] for r in first["results"]]
    assert sha256(db) == before

"""``query`` v2 (CONTRACT sections 6 and 7): modes, references, filters, pins, warnings, diagnostics.

Exact rules are checked on small databases whose vectors the test chooses (the scripted proxy
answers them); the same rules are then checked on the real study library through the real proxy.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import apsw
import pytest

from amicus_desktop.core.query import MAX_FILTER_VALUES
from amicus_desktop.store.fts import FTS_TOKENIZE
from amicus_desktop.store.sqlite import connect
from tests.support.cli import cli, query_json, run
from tests.support.corpora import DIMS, axis, corpus, sha256
from tests.support.dbs import build_db, unit
from tests.support.proxy import free_port
from tests.support.scripted_proxy import ScriptedProxy


@pytest.fixture
def proxy():
    with ScriptedProxy(dims=DIMS, model="test-model") as p:
        yield p


@pytest.fixture(params=["full", "minimal", "two-stage"])
def db(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Both schemas, and the full one with the two-stage tables, used (``AMICUS_TWO_STAGE=on``)."""
    two_stage = request.param == "two-stage"
    if two_stage:
        monkeypatch.setenv("AMICUS_TWO_STAGE", "on")
    return build_db(tmp_path / "scripture.db", corpus(), full_schema=request.param != "minimal", two_stage=two_stage)


def dead_proxy() -> str:
    return f"http://127.0.0.1:{free_port()}"


# -- modes --------------------------------------------------------------------------------------
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


def test_hybrid_pools_both_searches_and_measures_both_scores(db: Path, proxy: ScriptedProxy) -> None:
    proxy.vectors["potter grace"] = unit(axis(3, 0, 0.1)).tolist()
    code, out = query_json("potter grace", "--db", str(db), "--proxy", proxy.url, "--mode", "hybrid",
                           "--candidates", "3", "--k", "3", "--alpha", "0.6")
    assert code == 0, out
    found_by = out["diagnostics"]["by_origin"]
    assert found_by["dense"] == 3 and found_by["keyword"] >= 2
    everyone = out["results"] + out["rejected"]
    assert out["diagnostics"]["candidates"] == len(everyone) > 3  # the union, not one list
    for r in out["results"]:
        b = r["breakdown"]
        assert b["mode"] == "hybrid" and b["similarity"] is not None and b["lexical"] is not None
        assert b["base"] == pytest.approx(0.6 * b["similarity"] + 0.4 * b["lexical"], abs=1e-12)
        assert r["score"] == b["final"] == b["base"] * b["chapter_boost"] * b["scholar_boost"] * b[
            "tradition_boost"] * b["reference_boost"]
    assert {"s-esau", "h-potter", "s-grace"} & {r["chunk_id"] for r in out["results"]}


def test_semantic_breakdown_keeps_section_3_and_adds_the_v2_keys(db: Path, proxy: ScriptedProxy) -> None:
    code, out = query_json("anything at all", "--db", str(db), "--proxy", proxy.url)
    assert code == 0
    for r in out["results"]:
        b = r["breakdown"]
        assert b["mode"] == "semantic" and b["base"] == b["similarity"] and b["lexical"] is None
        assert b["reference_boost"] == 1.0
        assert "pinned" not in r  # a question without pins keeps section 4's keys
    assert out["query_trace"] == {
        "mode": "semantic", "references": [], "pins": [], "candidates_requested": 40,
        "filters": {"source_type": [], "book": [], "scholar": [], "tradition": []},
        "keywords": [], "embedding_cached": False, "keyword_index": None,
    }


# -- references ----------------------------------------------------------------------------------
def test_referenced_passages_join_the_pool_and_get_the_boost(db: Path, proxy: ScriptedProxy) -> None:
    q = "What does Rom 9:11 say?"
    proxy.vectors[q] = unit(axis(0)).tolist()  # near Henry's chunks, far from the Romans 9:10-13 note
    code, out = query_json(q, "--db", str(db), "--proxy", proxy.url, "--candidates", "2", "--k", "2")
    assert code == 0, out
    (ref,) = out["query_trace"]["references"]
    assert ref == {"book_id": "romans", "chapter_num": 9, "verse_start": 11, "verse_end": 11, "text": "Rom 9:11"}
    pooled = {r["chunk_id"]: r for r in out["results"] + out["rejected"]}
    # s-esau (9:10-13) and ws-rom9 (chapter 9, no verses) cover 9:11; h-potter (9:19-24) does not.
    assert {"s-esau", "ws-rom9"} <= set(pooled)
    assert out["diagnostics"]["by_origin"]["reference"] >= 2
    for r in out["results"]:
        b = r["breakdown"]
        covers = r["chunk_id"] in ("s-esau", "ws-rom9")
        assert b["reference_boost"] == (1.25 if covers else 1.0)
        assert b["final"] == b["similarity"] * b["chapter_boost"] * b["scholar_boost"] * b["tradition_boost"] * b[
            "reference_boost"]


def test_reference_not_in_corpus_warns(db: Path, proxy: ScriptedProxy) -> None:
    code, out = query_json("Psalm 23:1 and Rom 9", "--db", str(db), "--proxy", proxy.url)
    assert code == 0
    codes = [w["code"] for w in out["warnings"]]
    assert codes.count("reference_not_in_corpus") == 1
    (w,) = [w for w in out["warnings"] if w["code"] == "reference_not_in_corpus"]
    assert "Psalms 23:1" in w["message"]
    assert [r["book_id"] for r in out["query_trace"]["references"]] == ["psalms", "romans"]


def test_romans_nine_in_words_is_not_a_reference(db: Path, proxy: ScriptedProxy) -> None:
    code, out = query_json("Romans nine", "--db", str(db), "--proxy", proxy.url)
    assert code == 0 and out["query_trace"]["references"] == []


# -- filters -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("flags", "allowed", "echo"),
    [
        (["--source-type", "lexicon_entry"], {"lex-1", "lex-2", "lex-3"}, {"source_type": ["lexicon_entry"]}),
        (["--book", "rom"], {"h-justify", "h-law", "h-potter", "s-esau", "n-agape", "ws-rom9"}, {"book": ["romans"]}),
        (["--scholar", "henry", "--book", "Jn"], {"john-3"}, {"scholar": ["henry"], "book": ["john"]}),
        (["--tradition", "dispensational", "--tradition", "reformed", "--source-type", "cross_ref_thread_note"],
         {"s-grace"}, {"tradition": ["dispensational", "reformed"], "source_type": ["cross_ref_thread_note"]}),
        (["--testament", "NT", "--source-type", "section_panel", "--scholar", "scofield"], {"s-esau"}, {}),
    ],
)
def test_filters_run_inside_candidate_generation(db: Path, proxy: ScriptedProxy, flags: list[str], allowed: set[str],
                                                 echo: dict[str, list[str]]) -> None:
    for mode in ("semantic", "hybrid", "keyword"):
        code, out = query_json("grace faith love potter God", "--db", str(db), "--proxy", proxy.url, "--mode", mode,
                               "--candidates", "3", "--k", "3", *flags)
        assert code == 0, out
        pooled = {r["chunk_id"] for r in out["results"] + out["rejected"]}
        assert pooled <= allowed, (mode, pooled)
        if mode == "semantic":  # the KNN returns min(candidates, matching) rows: never a post-filter
            assert len(pooled) == min(3, len(allowed))
        for key, values in echo.items():
            assert out["query_trace"]["filters"][key] == values


def test_filter_on_an_unknown_book_or_type_is_a_usage_error(db: Path, proxy: ScriptedProxy) -> None:
    for flags in (["--book", "Narnia"], ["--source-type", "sermon"], ["--testament", "middle"]):
        code, _out, err = run("query", "q", "--db", str(db), "--proxy", proxy.url, *flags)
        assert code == 2 and "error" in err, flags


def test_filter_values_are_bounded(db: Path, proxy: ScriptedProxy) -> None:
    """At most MAX_FILTER_VALUES values per kind; more is a usage error naming the limit (exit 2), said
    before argparse reads the flags (40,000 --scholar flags took it 35 s, then failed in SQLite)."""
    before = sha256(db)
    ids = [f"nobody-{i}" for i in range(MAX_FILTER_VALUES - 1)] + ["henry"]
    flags = [f for sid in ids for f in ("--scholar", sid)]
    for mode in ("semantic", "hybrid", "keyword"):
        code, out = query_json("grace faith love potter God", "--db", str(db), "--proxy", proxy.url, "--mode", mode,
                               *flags)
        assert code == 0 and out["results"], out
        assert {r["metadata"]["scholar_id"] for r in out["results"]} == {"henry"}
    code, _out, err = run("query", "q", "--db", str(db), "--proxy", proxy.url, *flags, "--scholar", "one-too-many")
    assert code == 2 and f"at most {MAX_FILTER_VALUES:,} scholars at once; {MAX_FILTER_VALUES + 1:,} were given" in err
    many = [f for i in range(40_000) for f in ("--tradition", f"t{i}")]
    proc = cli("query", "q", "--db", str(db), "--proxy", proxy.url, *many, timeout=30)
    assert proc.returncode == 2, proc.stderr[-500:]
    assert f"at most {MAX_FILTER_VALUES:,} traditions at once; 40,000 were given" in proc.stderr
    assert "Traceback" not in proc.stderr and sha256(db) == before


def test_a_filter_that_leaves_few_chunks_warns(db: Path, proxy: ScriptedProxy) -> None:
    code, out = query_json("q", "--db", str(db), "--proxy", proxy.url, "--source-type", "lexicon_entry")
    assert code == 0 and len(out["results"]) == 2  # three entries, all Strong's: the cap keeps two
    codes = {w["code"] for w in out["warnings"]}
    assert {"few_results", "single_source_type"} <= codes


# -- pins ----------------------------------------------------------------------------------------
def test_pins_come_first_in_order_uncapped_and_not_counted(db: Path, proxy: ScriptedProxy) -> None:
    q = "pins"
    proxy.vectors[q] = unit(axis(0)).tolist()
    pins = ["lex-3", "h-potter", "h-law", "h-justify", "nope"]
    args = ["--pin", pins[0], "--pin", pins[1], "--pin", pins[2], "--pin", pins[3], "--pin", pins[4]]
    code, out = query_json(q, "--db", str(db), "--proxy", proxy.url, "--k", "3", *args)
    assert code == 0, out
    results = out["results"]
    assert [r["chunk_id"] for r in results[:4]] == pins[:4]  # three of Henry's: the cap does not touch pins
    assert all(r["pinned"] for r in results[:4]) and not any(r["pinned"] for r in results[4:])
    assert len(results) == 4 + 3 and [r["rank"] for r in results] == list(range(1, 8))
    ranked_ids = [r["chunk_id"] for r in results[4:]]
    assert not set(ranked_ids) & set(pins)  # never repeated
    assert out["query_trace"]["pins"] == pins
    assert [w["code"] for w in out["warnings"]].count("pin_not_found") == 1
    for r in results[:4]:
        b = r["breakdown"]
        assert b["similarity"] == 1 - b["distance"] and r["score"] == b["final"]
    pooled = {r["chunk_id"] for r in results[4:] + out["rejected"]}
    assert out["diagnostics"]["candidates"] == len(pooled)


# -- warnings and diagnostics ---------------------------------------------------------------------
def test_no_strong_match_below_the_floor_and_never_in_keyword_mode(db: Path, proxy: ScriptedProxy) -> None:
    q = "grase and fath"
    proxy.vectors[q] = unit([0.0] * (DIMS - 1) + [1.0]).tolist()  # orthogonal to every chunk
    code, out = query_json(q, "--db", str(db), "--proxy", proxy.url)
    assert code == 0
    (w,) = [w for w in out["warnings"] if w["code"] == "no_strong_match"]
    assert "Nothing in the library matches this question well" in w["message"]
    code, out = query_json(q, "--db", str(db), "--proxy", proxy.url, "--mode", "hybrid")
    (w,) = [w for w in out["warnings"] if w["code"] == "no_strong_match"]
    assert w["suggestion"] == "grace and faith"  # both words are unknown; the index knows close ones
    code, out = query_json(q, "--db", str(db), "--proxy", proxy.url, "--mode", "keyword")
    assert "no_strong_match" not in {w["code"] for w in out["warnings"]}


def test_diagnostics_count_the_pool_and_the_rejections(db: Path, proxy: ScriptedProxy) -> None:
    code, out = query_json("grace", "--db", str(db), "--proxy", proxy.url, "--mode", "hybrid", "--k", "2")
    assert code == 0
    d = out["diagnostics"]
    pooled = out["results"] + out["rejected"]
    assert d["candidates"] == len(pooled)
    assert sum(d["by_source_type"].values()) == d["candidates"]
    by_reason: dict[str, int] = {}
    for r in out["rejected"]:
        by_reason[r["reason"]] = by_reason.get(r["reason"], 0) + 1
    assert d["rejected_by_reason"] == by_reason
    assert set(d["search_ms"]) == {"dense", "keyword", "references"}


def test_usage_errors(db: Path, proxy: ScriptedProxy) -> None:
    for flags in (["--min-similarity", "nan"], ["--min-similarity", "0.2", "--mode", "keyword"],
                  ["--mode", "fuzzy"], ["--alpha", "1.5", "--mode", "hybrid"], ["--chapter-boost", "0"],
                  ["--scholar-cap", "0"], ["--chapter", "romans"]):
        code, _out, err = run("query", "q", "--db", str(db), "--proxy", proxy.url, *flags)
        assert code == 2, (flags, err)


# -- the real study library through the real proxy -------------------------------------------------
@pytest.mark.slow
def test_v2_rules_on_real_data(study_db: Path, study_db_minimal: Path, local_proxy) -> None:
    before = {p: sha256(p) for p in (study_db, study_db_minimal)}
    for path in (study_db, study_db_minimal):
        base = ["--db", str(path), "--proxy", local_proxy.url]
        code, out = query_json("How is a person justified before God?", *base, "--mode", "hybrid",
                               "--chapter", "romans:3")
        assert code == 0, out
        assert out["results"] and all(r["breakdown"]["lexical"] is not None for r in out["results"])
        assert any(r["source_type"] == "section_panel" for r in out["results"][:5])
        code, out = query_json("What does Rom 9:11 mean for election?", *base, "--mode", "semantic")
        assert code == 0
        assert out["query_trace"]["references"][0]["chapter_num"] == 9
        assert any(r["breakdown"]["reference_boost"] == 1.25 for r in out["results"])
        code, out = query_json("grace", *base, "--mode", "keyword", "--book", "Romans", "--candidates", "5", "--k", "5")
        assert code == 0 and all(r["metadata"]["book_id"] == "romans" for r in out["results"] + out["rejected"]
                                 if "metadata" in r)
        code, out = query_json("love", *base, "--source-type", "lexicon_entry", "--candidates", "7", "--k", "7")
        assert code == 0 and len(out["results"]) + len(out["rejected"]) == 7
        assert {r["source_type"] for r in out["results"]} == {"lexicon_entry"}
    assert {p: sha256(p) for p in before} == before
    assert not [p for p in study_db_minimal.parent.iterdir() if p.name != "scripture.db"]


def test_json_is_one_line_and_model_is_the_db_model_in_keyword_mode(db: Path) -> None:
    proc = cli("query", "grace", "--db", str(db), "--proxy", dead_proxy(), "--mode", "keyword", "--json")
    assert proc.returncode == 0 and proc.stdout.count("\n") == 1
    out = json.loads(proc.stdout)
    con = connect(db, readonly=True)
    model = dict(con.execute("SELECT key, value FROM db_meta"))["embedding_model"]
    con.close()
    assert out["model"]["id"] == model
    where = out["query_trace"]["keyword_index"]
    assert where in ("database", "cache")
    if where == "cache":  # built once into this test's cache folder, never beside the database
        assert list((Path(os.environ["AMICUS_HOME"]) / "cache").rglob("*.sqlite"))


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

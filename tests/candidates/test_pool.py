"""One candidate pool per question (``candidates/pool.py``, CONTRACT section 6): hybrid pools both
searches and measures both scores for every chunk; pinned chunks come first, in order, uncapped and
uncounted. Asked through ``amicus-desktop query`` on the axis corpus with a scripted proxy."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import query_json
from tests.support.corpora import axis
from tests.support.corpora import corpus_db as corpus_db  # the fixture ``db``
from tests.support.corpora import corpus_proxy as corpus_proxy  # the fixture ``proxy``
from tests.support.dbs import unit
from tests.support.scripted_proxy import ScriptedProxy


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

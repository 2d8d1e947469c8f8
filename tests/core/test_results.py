"""The result's JSON (``core/results.py``, CONTRACT sections 3, 4 and 7): a semantic breakdown keeps
section 3's keys and adds the later ones; the query trace of a plain question."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import query_json
from tests.support.corpora import corpus_db as corpus_db  # the fixture ``db``
from tests.support.corpora import corpus_proxy as corpus_proxy  # the fixture ``proxy``
from tests.support.scripted_proxy import ScriptedProxy


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
        "keywords": [], "embedding_cached": False, "keyword_index": None, "overlay": None,
    }

"""The passages a question names (CONTRACT section 6; ``candidates/pool.py`` asks, ``store/conditions.py``
holds the coverage SQL): the chunks covering them join the pool and get the reference boost."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import query_json
from tests.support.corpora import axis
from tests.support.corpora import corpus_db as corpus_db  # the fixture ``db``
from tests.support.corpora import corpus_proxy as corpus_proxy  # the fixture ``proxy``
from tests.support.dbs import unit
from tests.support.scripted_proxy import ScriptedProxy


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

"""The bundle's diagnostics (``bundle/diagnostics.py``, CONTRACT section 7): counts over the pool and
the rejections."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import query_json
from tests.support.corpora import corpus_db as corpus_db  # the fixture ``db``
from tests.support.corpora import corpus_proxy as corpus_proxy  # the fixture ``proxy``
from tests.support.scripted_proxy import ScriptedProxy


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

"""Filters (``candidates/filters.py``, CONTRACT section 6) act inside candidate generation, in every
mode: the searches return only matching chunks, never a post-filtered list."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import query_json
from tests.support.corpora import corpus_db as corpus_db  # the fixture ``db``
from tests.support.corpora import corpus_proxy as corpus_proxy  # the fixture ``proxy``
from tests.support.scripted_proxy import ScriptedProxy


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

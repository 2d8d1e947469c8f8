"""Filters (CONTRACT section 6; their SQL is ``store/conditions.py``'s) act inside candidate generation,
in every mode: the searches return only matching chunks, never a post-filtered list."""

from __future__ import annotations

from pathlib import Path

import pytest

from amicus_desktop.core.query import MAX_FILTER_VALUES
from tests.support.cli import cli, query_json, run
from tests.support.corpora import corpus_db as corpus_db  # the fixture ``db``
from tests.support.corpora import corpus_proxy as corpus_proxy  # the fixture ``proxy``
from tests.support.corpora import sha256
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

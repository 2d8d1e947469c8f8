"""Verse search over a library on PostgreSQL (``store/pg/verses.py``) against the same library in SQLite.

The demo library, exported once per session into the suite's own PostgreSQL (tests/postgres_server.py), is searched
by the unchanged engine (``amicus_desktop/verses/``) through both stores: every question of the shipped verse golden
set (resources/golden/verses.json), in each mode, must rank the same verses with the same scores (within 1e-5) —
the words (FTS5's BM25 and phrases computed from the exported postings) and the meaning (the exported vectors) alike.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from amicus_desktop.core.query import SearchMode
from amicus_desktop.evaluate.golden import GoldenSet, load
from amicus_desktop.evaluate.verses import kind
from amicus_desktop.retrieval import Retriever
from amicus_desktop.store.library import LibraryStore, open_library
from amicus_desktop.store.scripture import ScriptureStore
from amicus_desktop.verses import VerseQuery, VerseSearch, VerseSearchResult
from tests.postgres_server import exported_library

GOLDEN = Path(__file__).resolve().parents[2] / "resources" / "golden" / "verses.json"
MODES = (SearchMode.HYBRID, SearchMode.KEYWORD, SearchMode.SEMANTIC)


@pytest.fixture(scope="module")
def stores(demo_db: Path) -> Iterator[tuple[ScriptureStore, LibraryStore]]:
    with ScriptureStore(demo_db) as lite, open_library(exported_library(demo_db)) as pg_store:
        yield lite, pg_store


def test_the_verse_tables_read_as_in_sqlite(stores: tuple[ScriptureStore, LibraryStore]) -> None:
    lite, pg_store = stores
    a, b = lite.verse_index(), pg_store.verse_index()
    assert pg_store.info.has_verses
    assert list(a.keys) == list(b.keys) and a.count == b.count > 1000
    assert a.translations == b.translations and [t.translation_id for t in b.translations.values()] == ["web", "kjv"]
    assert (a.has_vectors, a.has_strongs) == (b.has_vectors, b.has_strongs) == (True, True)
    assert a.notes(("section_panel",)) == b.notes(("section_panel",))
    assert a.entries(("lexicon_entry",)) == b.entries(("lexicon_entry",))
    na: dict[str, int] = {}
    nb: dict[str, int] = {}
    ra, ia = a.strongs_pairs(na)
    rb, ib = b.strongs_pairs(nb)
    assert na == nb and np.array_equal(ra, rb) and np.array_equal(ia, ib)
    got = {int(r): v for rows, m in b.vector_blocks(500) for r, v in zip(rows, m, strict=True)}
    want = {int(r): v for rows, m in a.vector_blocks(500) for r, v in zip(rows, m, strict=True)}
    assert got.keys() == want.keys() and all(np.array_equal(got[r], want[r]) for r in want)
    for t in a.translations.values():
        assert a.chapter(t, "john", 3) == b.chapter(t, "john", 3) and len(b.chapter(t, "john", 3)) == 36
        ids = list(range(1, a.count + 1, 37))
        assert a.texts(t, ids) == b.texts(t, ids)
        for words in (["love"], ["world", "loved"], ["justified", "faith", "faith"], ["nosuchword"]):
            _same_ranking(a.keyword(t, words, 50), b.keyword(t, words, 50))
            assert a.doc_count(t, words[0]) == b.doc_count(t, words[0])
        pairs = [("so", "loved"), ("the", "world"), ("in", "the"), ("no", "such")]
        assert a.phrase_scores(t, pairs) == pytest.approx(b.phrase_scores(t, pairs), abs=1e-12)
        assert a.keyword_scores(t, ["love"], ids) == pytest.approx(b.keyword_scores(t, ["love"], ids), abs=1e-12)
        _same_ranking(a.keyword(t, ["love"], 9, ["romans"]), b.keyword(t, ["love"], 9, ["romans"]))


def _same_ranking(a: list[tuple[int, float]], b: list[tuple[int, float]]) -> None:
    assert [r for r, _ in a] == [r for r, _ in b]
    assert [s for _, s in a] == pytest.approx([s for _, s in b], abs=1e-12)


def _search(location: str | Path, golden: GoldenSet, model: Any) -> dict[tuple[str, SearchMode], VerseSearchResult]:
    from amicus_desktop.embedding.in_process import InProcessEmbedClient

    async def go() -> dict[tuple[str, SearchMode], VerseSearchResult]:
        retriever = Retriever(location, "http://127.0.0.1:9", embed_client=InProcessEmbedClient(model))
        engine = VerseSearch(retriever)
        try:
            return {(q.id, mode): await engine.search(VerseQuery(q.query, mode, k=10))
                    for q in golden.queries for mode in MODES}
        finally:
            await retriever.aclose()

    return asyncio.run(go())


def test_the_verse_golden_rankings_are_sqlites(demo_db: Path, local_model: Any) -> None:
    """Every golden question in every mode: the same ranked verse ids, every score within 1e-5 (by kind below)."""
    golden = load(GOLDEN)
    lite = _search(demo_db, golden, local_model)
    pg = _search(exported_library(demo_db), golden, local_model)
    kinds = {q.id: kind(q) for q in golden.queries}
    differ: dict[str, list[str]] = {}
    worst = 0.0
    for key, a in lite.items():
        b = pg[key]
        same = [h.ranked for h in a.results] == [h.ranked for h in b.results]
        scores = [s for h in a.results for _, _, s in h.verses], [s for h in b.results for _, _, s in h.verses]
        if same:
            worst = max([worst, *(abs(x - y) for x, y in zip(*scores, strict=True))])
            assert [h.text for h in a.results] == [h.text for h in b.results]
        else:
            differ.setdefault(kinds[key[0]], []).append(f"{key[0]} {key[1].value}")
    assert not differ, differ
    assert worst <= 1e-5
    assert {kinds[q] for q, _ in lite} == {"topic", "question", "paraphrase"}

"""store/verses.py: what verse search reads, with and without the builder's verse tables."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from amicus_desktop.store.scripture import ScriptureStore
from amicus_desktop.store.verses import VerseIndex
from tests.support.corpora import sha256
from tests.support.dbs import Chunk, build_db, unit


@pytest.fixture
def plain_db(tmp_path: Path) -> Path:
    """Section 1's schema with a ``verses`` table and nothing of verse search: two chapters, out of order."""
    verses = [("romans", 8, 2, "For the law of the Spirit of life in Christ Jesus made me free."),
              ("john", 3, 16, "For God so loved the world, that he gave his only born Son."),
              ("romans", 8, 1, "There is therefore now no condemnation to those who are in Christ Jesus."),
              ("john", 3, 17, "For God didn't send his Son into the world to judge the world.")]
    return build_db(tmp_path / "scripture.db", [Chunk("c1", unit([1, 0, 0]))], verses=verses)


def test_verses_are_numbered_in_canonical_order_without_verse_keys(plain_db: Path) -> None:
    with ScriptureStore(plain_db) as store:
        index = VerseIndex.for_store(store)
        assert index.keys[1:] == [("john", 3, 16), ("john", 3, 17), ("romans", 8, 1), ("romans", 8, 2)]
        assert index.neighbours(2) == [1] and index.neighbours(3) == [4]  # never across a chapter
        assert not index.has_vectors and not index.has_strongs
        (translation,) = index.translations.values()
        assert translation.default and translation.verse_table == "verses"
        assert translation.translation_id == "default"  # nothing says which translation it is
        assert index.texts(translation, [2, 4]) == {2: "For God didn't send his Son into the world to judge the world.",
                                                   4: "For the law of the Spirit of life in Christ Jesus made me free."}


def test_the_word_index_is_built_in_the_cache_folder_and_reused(plain_db: Path) -> None:
    before = sha256(plain_db)
    with ScriptureStore(plain_db) as store:
        index = VerseIndex.for_store(store)
        t = index.default
        assert t is not None
        hits = index.keyword(t, ["world"], 10)
        assert [r for r, _ in hits] == [2, 1]  # "world" twice in John 3:17
        assert all(0 < s <= 1 for _, s in hits) and index.fts_where["default"] == "cache"
        assert index.keyword(t, ["world"], 10, books=["romans"]) == []
        assert index.keyword_scores(t, ["condemnation", "free"], [1, 3, 4]).keys() == {3, 4}
        assert index.phrase_scores(t, [("so", "loved"), ("the", "world")], [1, 2, 3]) == pytest.approx(
            {1: 1.0, 2: index.phrase_scores(t, [("so", "loved"), ("the", "world")], [2])[2]})
    cached = list((Path(os.environ["AMICUS_HOME"]) / "cache" / "verse-index").glob("*.sqlite"))
    assert len(cached) == 1
    mtime = cached[0].stat().st_mtime_ns
    with ScriptureStore(plain_db) as store:
        index = VerseIndex.for_store(store)
        assert index.default is not None and index.keyword(index.default, ["condemnation"], 5)[0][0] == 3
    assert cached[0].stat().st_mtime_ns == mtime  # reused, not rebuilt
    assert sha256(plain_db) == before and sorted(p.name for p in plain_db.parent.iterdir()) == ["scripture.db"]


def test_without_a_writable_cache_the_word_index_lives_in_memory(plain_db: Path) -> None:
    cache = Path(os.environ["AMICUS_HOME"]) / "cache"
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text("a file where the cache folder should be")  # no folder can be made there, even by root
    with ScriptureStore(plain_db) as store:
        index = VerseIndex.for_store(store)
        assert index.default is not None and [r for r, _ in index.keyword(index.default, ["world"], 5)] == [2, 1]
        assert index.fts_where["default"] == "memory"
    assert sorted(p.name for p in plain_db.parent.iterdir()) == ["scripture.db"]


def test_the_builders_tables_are_read_as_written(verse_db: Path) -> None:
    with ScriptureStore(verse_db) as store:
        index = VerseIndex.for_store(store)
        assert index.has_vectors and index.has_strongs
        assert [t.translation_id for t in index.translations.values()] == ["web", "kjv"]
        web, kjv = index.translations["web"], index.translations["kjv"]
        john316 = index.rowid_of[("john", 3, 16)]
        assert "only begotten Son" in index.texts(kjv, [john316])[john316]
        assert index.fts_where == {} and index.keyword(kjv, ["begotten"], 3) and index.fts_where["kjv"] == "database"
        assert "G25" in index.strongs_of([john316])[john316]  # ἀγαπάω, "loved"
        assert john316 in index.verses_with(["G25"])["G25"]
        assert index.strongs_counts(["G25"])["G25"] == len(index.verses_with(["G25"])["G25"])
        assert index.keyword(web, ["loved"], 50, books=["romans"]) and all(
            index.keys[r][0] == "romans" for r, _ in index.keyword(web, ["loved"], 50, books=["romans"]))

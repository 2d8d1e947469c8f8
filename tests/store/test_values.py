"""Row values of the wrong type: coerced when nothing is lost, refused by name otherwise (store/values.py)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.core.query import Filters
from amicus_desktop.core.references import PassageRef
from amicus_desktop.store import ScriptureStore
from tests.support.dbs import build_db, candidates, edit_db, random_chunks


@pytest.mark.parametrize(("sql", "fragment"), [
    ("UPDATE chunk_metadata SET scholar_id = x'00ff' WHERE rowid = 2",
     "chunk_metadata.scholar_id of chunk 'c00001' holds a BLOB"),
    ("UPDATE chunk_metadata SET chapter_num = 'three' WHERE rowid = 2",
     "chunk_metadata.chapter_num of chunk 'c00001' holds 'three', not an integer"),
    ("UPDATE chunk_metadata SET verse_end = 3.5 WHERE rowid = 2", "verse_end of chunk 'c00001' holds 3.5"),
    ("UPDATE chunk_text SET source_id = x'01' WHERE rowid = 2", "chunk_text.source_id of chunk 'c00001' holds a BLOB"),
    ("UPDATE chunk_text SET chunk_id = x'01' WHERE rowid = 2", "chunk_text.chunk_id of row 2 holds a BLOB"),
])
def test_values_of_the_wrong_type_are_refused_by_name(tmp_path: Path, sql: str, fragment: str) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(5, 8))
    edit_db(db, sql)
    with ScriptureStore(db) as store, pytest.raises(AmicusError) as ei:
        candidates(store, np.ones(8), 5)
    assert ei.value.code is ErrorCode.DB_INVALID
    assert fragment in ei.value.message


def test_values_of_another_type_are_coerced_when_nothing_is_lost(tmp_path: Path) -> None:
    """A database from elsewhere may declare chunk_metadata without column types."""
    db = _untyped(build_db(tmp_path / "s.db", random_chunks(5, 8), full_schema=False),
                  "UPDATE chunk_metadata SET chapter_num = ' 9', verse_start = 2.0, verse_end = '4', scholar_id = 7 "
                  "WHERE rowid = 1")
    with ScriptureStore(db) as store:
        meta = store.fetch([1])[1][4]
    assert (meta.chapter_num, meta.verse_start, meta.verse_end, meta.scholar_id) == (9, 2, 4, "7")


def _untyped(db: Path, *sql: str) -> Path:
    """Redeclare ``chunk_metadata`` without column types (as a database from elsewhere may), then run ``sql``."""
    edit_db(
        db,
        "CREATE TABLE m2 (rowid INTEGER PRIMARY KEY, scholar_id, tradition, book_id, chapter_num, verse_start, "
        "verse_end, panel_type)",
        "INSERT INTO m2 SELECT * FROM chunk_metadata",
        "DROP TABLE chunk_metadata",
        "ALTER TABLE m2 RENAME TO chunk_metadata",
        *sql,
    )
    return db


def test_a_numeric_book_id_is_its_text_everywhere(tmp_path: Path) -> None:
    """``45`` stored in an untyped ``book_id`` reads as ``'45'`` from every method, and the SQL compares it
    so (a filter, a passage): it was an ``int`` from ``book_ids()`` and crashed ``--book`` with AttributeError."""
    chunks = random_chunks(30, 8)
    db = _untyped(build_db(tmp_path / "s.db", chunks, full_schema=False),
                  "UPDATE chunk_metadata SET book_id = 45 WHERE book_id = 'romans'",
                  "UPDATE chunk_metadata SET scholar_id = 7 WHERE scholar_id = 'a'",
                  "UPDATE chunk_metadata SET chapter_num = ' ' || CAST(chapter_num AS TEXT) WHERE rowid % 2 = 0",
                  "UPDATE chunk_metadata SET chapter_num = chapter_num * 1.0 WHERE rowid % 3 = 0")
    before = sha(db)
    on_45 = [i + 1 for i, c in enumerate(chunks) if c.meta.book_id == "romans"]
    on_45_1 = [r for r in on_45 if chunks[r - 1].meta.chapter_num == 1]
    with ScriptureStore(db) as store:
        assert store.info.loose_columns  # no declared types: compared through CAST
        assert store.book_ids() == {"45", "john"}
        assert all(isinstance(b, str) for b in store.book_ids())
        assert dict(store.facets()["scholar_id"]) == {"7": 8, "b": 8, "c": 7}
        assert "7" in store.scholars()
        assert store.allowed_rowids(Filters(books=("45",))) == on_45
        assert store.allowed_rowids(Filters(scholars=("7",), books=("45",))) == [
            r for r in on_45 if chunks[r - 1].meta.scholar_id == "a"]
        assert store.covering(PassageRef("45", 1)) == on_45_1 and store.covers_any(PassageRef("45", 1))
        assert sorted(c.rowid for c in store.chapter_chunks("45", 1, ["section_panel"])) == on_45_1
        assert {store.fetch([r])[r][4].book_id for r in on_45} == {"45"}
    assert sha(db) == before


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()

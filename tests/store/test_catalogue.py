"""The reader's books and chapters, the facets, and scholars' names (store/catalogue.py)."""

from __future__ import annotations

from pathlib import Path

from amicus_desktop.core.results import ChunkMetadata
from amicus_desktop.core.scholars import Scholar
from amicus_desktop.store import ScriptureStore
from tests.support.dbs import Chunk, build_db, edit_db, random_chunks


def _scholar_chunks() -> list[Chunk]:
    ids = ("matthew-henry", "c-i-scofield", "john_calvin", "mystery-writer", None)
    return [Chunk(f"c{i}", [1, i, 0, 0], meta=ChunkMetadata(scholar_id=s)) for i, s in enumerate(ids)]


def test_full_schema_optional_tables(tmp_path: Path) -> None:
    db = build_db(
        tmp_path / "full.db",
        random_chunks(20, 8),
        books=[("romans", "Romans", 45, 16), ("john", "John", 43, 21)],
        verses=[("romans", 9, 2, "second"), ("romans", 9, 1, "first")],
    )
    with ScriptureStore(db) as store:
        assert [b.book_id for b in store.books()] == ["john", "romans"]
        assert store.chapter("romans", 9) == [(1, "first"), (2, "second")]
        assert store.info.fts_table == "chunk_fts"
        assert set(store.info.vec_filter_columns) == {
            "source_type", "scholar_id", "tradition", "book_id", "chapter_num"
        }
        facets = store.facets()
        assert dict(facets["scholar_id"]) == {"a": 5, "b": 5, "c": 5}
        assert "romans" in store.book_ids()


def test_scholar_names_without_a_scholars_table(tmp_path: Path) -> None:
    """The contract's minimal schema: names come from the app's known scholars, else the id."""
    db = build_db(tmp_path / "min.db", _scholar_chunks(), full_schema=False)
    with ScriptureStore(db) as store:
        names = {sid: s.name for sid, s in store.scholars().items()}
        assert names == {"matthew-henry": "Matthew Henry", "c-i-scofield": "C. I. Scofield",
                         "john_calvin": "John Calvin", "mystery-writer": "Mystery Writer"}
        assert store.scholars()["matthew-henry"].work == "Concise Commentary"
        assert store.scholars()["mystery-writer"].tradition is None


def test_scholar_names_from_the_database_win(tmp_path: Path) -> None:
    own = [Scholar("matthew-henry", "Henry, Matthew (1662–1714)", "presbyterian", "Exposition"),
           Scholar("listed-only", "Listed Only")]
    db = build_db(tmp_path / "full.db", _scholar_chunks(), scholars=own)
    with ScriptureStore(db) as store:
        assert store.info.has_scholars and "scholars" in store.info.optional_tables
        got = store.scholars()
        assert got["matthew-henry"] == own[0]
        assert got["listed-only"].name == "Listed Only"  # listed, though no chunk names it
        assert got["c-i-scofield"].name == "C. I. Scofield"  # not in the table: built-in name
        assert got["john_calvin"].name == "John Calvin"


def test_a_bad_scholars_table_is_ignored_not_fatal(tmp_path: Path) -> None:
    db = build_db(tmp_path / "bad.db", _scholar_chunks())
    edit_db(db, "DROP TABLE scholars", "CREATE TABLE scholars (id TEXT, label TEXT)",
          "INSERT INTO scholars VALUES ('matthew-henry', 'Wrong')")
    with ScriptureStore(db) as store:
        assert not store.info.has_scholars and "scholars" not in store.info.optional_tables
        assert store.scholars()["matthew-henry"].name == "Matthew Henry"
    db2 = build_db(tmp_path / "odd.db", _scholar_chunks())
    edit_db(db2, "INSERT INTO scholars VALUES ('matthew-henry', '  ', 'reformed', NULL)",
          "INSERT INTO scholars VALUES ('c-i-scofield', 'Cyrus Scofield', x'07', x'00')")
    with ScriptureStore(db2) as store:
        got = store.scholars()
        assert got["matthew-henry"].name == "Matthew Henry"  # an empty name is passed over
        assert got["c-i-scofield"] == Scholar("c-i-scofield", "Cyrus Scofield", None, None)  # blobs: absent

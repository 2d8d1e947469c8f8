"""ScriptureStore on real sqlite-vec files built by the tests."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import apsw
import numpy as np
import pytest

from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.core.scholars import Scholar
from amicus_desktop.core.types import ChunkMetadata
from amicus_desktop.store import ScriptureStore
from amicus_desktop.store.sqlite import connect
from tests.support.dbs import Chunk, build_db, random_chunks, unit


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def brute_force(chunks: list[Chunk], query: np.ndarray, k: int) -> list[str]:
    mat = np.stack([unit(c.vector) for c in chunks]).astype(np.float32)
    q = unit(query).astype(np.float32)
    sims = mat @ q
    order = np.argsort(-sims, kind="stable")[:k]
    return [chunks[i].chunk_id for i in order]


@pytest.mark.parametrize("full_schema", [False, True], ids=["minimal", "full"])
@pytest.mark.parametrize("dims", [384, 1536])
def test_knn_matches_brute_force(tmp_path: Path, dims: int, full_schema: bool) -> None:
    chunks = random_chunks(300, dims, seed=dims)
    db = build_db(tmp_path / "s.db", chunks, full_schema=full_schema)
    query = np.random.default_rng(1).standard_normal(dims)
    with ScriptureStore(db) as store:
        assert store.info.dims == dims
        assert store.info.chunk_count == 300
        assert bool(store.info.vec_filter_columns) is full_schema
        cands = store.candidates(unit(query), 40)
    expected = brute_force(chunks, query, 40)
    got = [c.chunk_id for c in cands]
    # float32 ties aside, sqlite-vec's order is the exact cosine order
    assert got[:30] == expected[:30]
    assert set(got) == set(expected)
    distances = [c.distance for c in cands]
    assert distances == sorted(distances)
    first = next(c for c in chunks if c.chunk_id == got[0])
    cos = float(unit(first.vector) @ unit(query))
    assert abs((1 - cands[0].distance) - cos) < 1e-5


def test_minimal_schema_exactly(tmp_path: Path) -> None:
    db = build_db(tmp_path / "min.db", random_chunks(20, 8), full_schema=False)
    con = connect(db, readonly=True)
    names = {r[0] for r in con.execute("select name from sqlite_master where type='table' and name not like 'embeddings_%' and name not like 'sqlite_%'")}
    con.close()
    assert names == {"embeddings", "chunk_text", "chunk_metadata", "db_meta"}
    with ScriptureStore(db) as store:
        assert store.books() == [] and store.chapter("romans", 1) == []
        assert store.info.fts_table is None and not store.info.has_books
        assert len(store.candidates(np.ones(8), 5)) == 5
        assert not store.info.has_scholars and "scholars" not in store.info.optional_tables


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
        assert set(store.info.vec_filter_columns) == {"source_type", "scholar_id", "tradition", "book_id", "chapter_num"}
        facets = store.facets()
        assert dict(facets["scholar_id"]) == {"a": 5, "b": 5, "c": 5}
        assert "romans" in store.book_ids()


def _scholar_chunks() -> list[Chunk]:
    ids = ("matthew-henry", "c-i-scofield", "john_calvin", "mystery-writer", None)
    return [Chunk(f"c{i}", [1, i, 0, 0], meta=ChunkMetadata(scholar_id=s)) for i, s in enumerate(ids)]


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
    _edit(db, "DROP TABLE scholars", "CREATE TABLE scholars (id TEXT, label TEXT)",
          "INSERT INTO scholars VALUES ('matthew-henry', 'Wrong')")
    with ScriptureStore(db) as store:
        assert not store.info.has_scholars and "scholars" not in store.info.optional_tables
        assert store.scholars()["matthew-henry"].name == "Matthew Henry"
    db2 = build_db(tmp_path / "odd.db", _scholar_chunks())
    _edit(db2, "INSERT INTO scholars VALUES ('matthew-henry', '  ', 'reformed', NULL)",
          "INSERT INTO scholars VALUES ('c-i-scofield', 'Cyrus Scofield', x'07', x'00')")
    with ScriptureStore(db2) as store:
        got = store.scholars()
        assert got["matthew-henry"].name == "Matthew Henry"  # an empty name is passed over
        assert got["c-i-scofield"] == Scholar("c-i-scofield", "Cyrus Scofield", None, None)  # blobs: absent


def test_metadata_null_stays_null(tmp_path: Path) -> None:
    chunks = [Chunk("x", [1, 0, 0, 0], meta=ChunkMetadata()), Chunk("y", [0, 1, 0, 0], meta=ChunkMetadata(scholar_id="s", chapter_num=3))]
    db = build_db(tmp_path / "n.db", chunks)
    with ScriptureStore(db) as store:
        by_id = {c.chunk_id: c for c in store.candidates(np.array([1, 1, 0, 0]), 2)}
    assert by_id["x"].metadata == ChunkMetadata()  # not '' / 0 placeholders
    assert by_id["y"].metadata.scholar_id == "s" and by_id["y"].metadata.book_id is None


def test_filtered_knn_runs_inside_vec0(tmp_path: Path) -> None:
    # 200 chunks; only 10 are in john. A post-filter on the top 5 would usually find fewer than 5.
    chunks = []
    rng = np.random.default_rng(3)
    for i in range(200):
        book = "john" if i % 20 == 0 else "romans"
        chunks.append(Chunk(f"c{i:03d}", rng.standard_normal(16), meta=ChunkMetadata(book_id=book, chapter_num=1)))
    db = build_db(tmp_path / "f.db", chunks)
    q = rng.standard_normal(16)
    with ScriptureStore(db) as store:
        got = store.candidates(q, 5, filters={"book_id": "john"})
        assert len(got) == 5
        assert all(c.metadata.book_id == "john" for c in got)
        john = [c for c in chunks if c.meta.book_id == "john"]
        assert [c.chunk_id for c in got] == brute_force(john, q, 5)
        with pytest.raises(ValueError, match="no such vec0 metadata column"):
            store.knn(unit(q), 5, filters={"verse_start": 1})
    min_db = build_db(tmp_path / "m.db", chunks, full_schema=False)
    with ScriptureStore(min_db) as store, pytest.raises(ValueError):
        store.knn(unit(q), 5, filters={"book_id": "john"})


def test_knn_with_fewer_rows_than_k_and_empty_db(tmp_path: Path) -> None:
    db = build_db(tmp_path / "few.db", random_chunks(3, 8))
    with ScriptureStore(db) as store:
        assert len(store.candidates(np.ones(8), 40)) == 3
    empty = build_db(tmp_path / "empty.db", [], dims=8)
    with ScriptureStore(empty) as store:
        assert store.info.chunk_count == 0
        assert store.candidates(np.ones(8), 40) == []


def test_knn_rejects_wrong_dims_and_float64_is_converted(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(10, 8))
    with ScriptureStore(db) as store:
        with pytest.raises(AmicusError) as ei:
            store.knn(np.ones(16), 5)
        assert ei.value.code is ErrorCode.DIMENSION_MISMATCH
        a = store.knn(np.ones(8, dtype=np.float64), 5)
        b = store.knn(np.ones(8, dtype=np.float32), 5)
        assert a == b


def test_store_never_writes(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(50, 8))
    before = sha(db)
    mtime = os.stat(db).st_mtime_ns
    with ScriptureStore(db) as store:
        store.candidates(np.ones(8), 40)
        store.facets()
        with pytest.raises(apsw.ReadOnlyError):
            store.con.execute("DELETE FROM chunk_text")
    assert sha(db) == before and os.stat(db).st_mtime_ns == mtime
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.db"]  # no journal or wal left


# -- bad files -------------------------------------------------------------------------------
def expect(code: ErrorCode, path: Path, *fragments: str) -> AmicusError:
    with pytest.raises(AmicusError) as ei:
        ScriptureStore(path)
    assert ei.value.code is code, ei.value
    for f in fragments:
        assert f in ei.value.message
    return ei.value


def test_missing_file(tmp_path: Path) -> None:
    expect(ErrorCode.DB_NOT_FOUND, tmp_path / "nope.db", "nope.db", "build-db")
    assert not (tmp_path / "nope.db").exists()  # read-only open never creates it


def test_directory_is_invalid(tmp_path: Path) -> None:
    expect(ErrorCode.DB_INVALID, tmp_path)


def test_not_sqlite(tmp_path: Path) -> None:
    p = tmp_path / "text.db"
    p.write_text("this is not a database\n" * 200)
    expect(ErrorCode.DB_INVALID, p, "not a SQLite database")
    z = tmp_path / "zero.db"
    z.write_bytes(b"")
    expect(ErrorCode.DB_INVALID, z)


def test_truncated(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(300, 64))
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])
    expect(ErrorCode.DB_INVALID, db, "truncated")


def test_corrupt_pages(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(300, 64), full_schema=False)
    data = bytearray(db.read_bytes())
    page = 65536
    # Overwrite every page after the first with noise: the schema page is fine, the rest is not.
    rng = np.random.default_rng(0)
    data[page:] = rng.integers(0, 256, len(data) - page, dtype=np.uint8).tobytes()
    db.write_bytes(bytes(data))
    err = expect(ErrorCode.DB_INVALID, db)
    assert "s.db" in err.message


def _edit(path: Path, *sql: str) -> None:
    con = connect(path, readonly=False)
    for s in sql:
        con.execute(s)
    con.close()


@pytest.mark.parametrize("table", ["chunk_text", "chunk_metadata", "db_meta"])
def test_missing_required_table(tmp_path: Path, table: str) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(10, 8), full_schema=False)
    _edit(db, f"DROP TABLE {table}")
    expect(ErrorCode.DB_INVALID, db, table)


def test_missing_embeddings_table(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(10, 8), full_schema=False)
    _edit(db, "DROP TABLE embeddings")
    expect(ErrorCode.DB_INVALID, db, "embeddings")


@pytest.mark.parametrize("key", ["schema_version", "embedding_model", "embedding_dims", "distance_metric"])
def test_missing_meta_key(tmp_path: Path, key: str) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(10, 8), full_schema=False)
    _edit(db, f"DELETE FROM db_meta WHERE key = '{key}'")
    expect(ErrorCode.DB_INVALID, db, key)


def test_unknown_schema_version(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(10, 8))
    _edit(db, "UPDATE db_meta SET value = '2' WHERE key = 'schema_version'")
    expect(ErrorCode.DB_INVALID, db, "schema_version", "'2'")


def test_dims_disagree_with_vec0(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(10, 8))
    _edit(db, "UPDATE db_meta SET value = '384' WHERE key = 'embedding_dims'")
    expect(ErrorCode.DB_INVALID, db, "384", "8")


def test_bad_dims_value(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(10, 8))
    _edit(db, "UPDATE db_meta SET value = 'many' WHERE key = 'embedding_dims'")
    expect(ErrorCode.DB_INVALID, db, "embedding_dims")


def test_l2_metric_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "l2.db"
    con = connect(db, readonly=False)
    con.execute("CREATE VIRTUAL TABLE embeddings USING vec0(embedding float[4])")
    con.execute("CREATE TABLE chunk_text (rowid INTEGER PRIMARY KEY, chunk_id TEXT NOT NULL UNIQUE, source_type TEXT NOT NULL, source_id TEXT NOT NULL, text TEXT NOT NULL)")
    con.execute("CREATE TABLE chunk_metadata (rowid INTEGER PRIMARY KEY, scholar_id TEXT, tradition TEXT, book_id TEXT, chapter_num INTEGER, verse_start INTEGER, verse_end INTEGER, panel_type TEXT)")
    con.execute("CREATE TABLE db_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    con.executemany("INSERT INTO db_meta VALUES (?, ?)", [("schema_version", "1"), ("embedding_model", "m"), ("embedding_dims", "4"), ("distance_metric", "cosine")])
    con.close()
    expect(ErrorCode.DB_INVALID, db, "distance_metric=cosine")


def test_missing_column(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(10, 8), full_schema=False)
    _edit(db, "ALTER TABLE chunk_metadata DROP COLUMN panel_type")
    expect(ErrorCode.DB_INVALID, db, "panel_type")


def test_extension_cannot_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(10, 8))
    fake = tmp_path / "vec0.so"
    fake.write_bytes(b"\x7fELF not really a library")
    monkeypatch.setenv("AMICUS_SQLITE_VEC_PATH", str(fake))
    expect(ErrorCode.EXTENSION_NOT_LOADED, db, "sqlite-vec")


def test_extension_error_wins_over_invalid_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "text.db"
    p.write_text("not sqlite")
    monkeypatch.setenv("AMICUS_SQLITE_VEC_PATH", str(tmp_path / "missing.so"))
    expect(ErrorCode.EXTENSION_NOT_LOADED, p)


def test_file_replaced_while_open_keeps_reading_old_inode(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(20, 8))
    store = ScriptureStore(db)
    other = build_db(tmp_path / "o.db", random_chunks(5, 8, seed=9))
    shutil.move(other, db)
    assert len(store.candidates(np.ones(8), 40)) == 20  # the open file, not a mix
    store.close()

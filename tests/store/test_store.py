"""ScriptureStore on real sqlite-vec files built by the tests."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import apsw
import numpy as np
import pytest

from amicus_desktop.candidates.dense import nearest
from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.core.query import Filters
from amicus_desktop.core.references import PassageRef
from amicus_desktop.core.results import Candidate, ChunkMetadata
from amicus_desktop.core.scholars import Scholar
from amicus_desktop.store import ScriptureStore
from amicus_desktop.store.conditions import covering_condition
from amicus_desktop.store.sqlite import connect
from tests.support.dbs import Chunk, build_db, random_chunks, unit

NO_FILTERS = Filters()
JOHN = Filters(books=("john",))

def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def candidates(store: ScriptureStore, vector: np.ndarray, k: int, filters: Filters = NO_FILTERS) -> list[Candidate]:
    """The dense search's nearest rows with their text and metadata from the store, nearest first."""
    hits = nearest(store, vector, k, filters)
    rows = store.fetch(r for r, _ in hits)
    return [Candidate(r, *rows[r][:4], metadata=rows[r][4], distance=d) for r, d in hits]


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
        cands = candidates(store, unit(query), 40)
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
    tables = con.execute(
        "select name from sqlite_master"
        " where type='table' and name not like 'embeddings_%' and name not like 'sqlite_%'"
    )
    names = {r[0] for r in tables}
    con.close()
    assert names == {"embeddings", "chunk_text", "chunk_metadata", "db_meta"}
    with ScriptureStore(db) as store:
        assert store.books() == [] and store.chapter("romans", 1) == []
        assert store.info.fts_table is None and not store.info.has_books
        assert len(candidates(store, np.ones(8), 5)) == 5
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
        assert set(store.info.vec_filter_columns) == {
            "source_type", "scholar_id", "tradition", "book_id", "chapter_num"
        }
        facets = store.facets()
        assert dict(facets["scholar_id"]) == {"a": 5, "b": 5, "c": 5}
        assert "romans" in store.book_ids()


@pytest.mark.parametrize("ref", [PassageRef("romans", 3), PassageRef("john", 2, 1, 2), PassageRef("john", 4, 9, 9)])
def test_passage_lookups_use_the_builders_index_and_agree_without_it(tmp_path: Path, ref: PassageRef) -> None:
    chunks = random_chunks(600, 8)
    full = build_db(tmp_path / "full.db", chunks)
    minimal = build_db(tmp_path / "min.db", chunks, full_schema=False)
    with ScriptureStore(full) as store:
        cover, params = covering_condition(ref)  # the store's own condition
        plan = " ".join(str(row[3]) for row in store.rows(
            f"EXPLAIN QUERY PLAN SELECT rowid FROM chunk_metadata m WHERE {cover}", params))
        assert "chunk_metadata_passage" in plan
        indexed = (store.covering(ref), store.covering(ref, JOHN), store.covers_any(ref))
    with ScriptureStore(minimal) as store:
        scanned = (store.covering(ref), store.covering(ref, JOHN), store.covers_any(ref))
    assert indexed == scanned
    # The rule's Python form (tests/store/test_conditions.py checks the two agree on NULLs too).
    expected = [i + 1 for i, c in enumerate(chunks) if ref.covers(c.meta)]
    assert indexed[0] == expected and indexed[2] is bool(expected)


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
    chunks = [
        Chunk("x", [1, 0, 0, 0], meta=ChunkMetadata()),
        Chunk("y", [0, 1, 0, 0], meta=ChunkMetadata(scholar_id="s", chapter_num=3)),
    ]
    db = build_db(tmp_path / "n.db", chunks)
    with ScriptureStore(db) as store:
        by_id = {c.chunk_id: c for c in candidates(store, np.array([1, 1, 0, 0]), 2)}
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
        assert store.filters_in_vec0(JOHN)  # inside the KNN, on vec0's metadata column
        got = candidates(store, q, 5, JOHN)
    john = [c for c in chunks if c.meta.book_id == "john"]
    assert all(c.metadata.book_id == "john" for c in got)
    assert [c.chunk_id for c in got] == brute_force(john, q, 5)
    min_db = build_db(tmp_path / "m.db", chunks, full_schema=False)
    with ScriptureStore(min_db) as store:
        assert not store.filters_in_vec0(JOHN)  # no metadata columns: the allowed rowids instead
        assert [c.chunk_id for c in candidates(store, q, 5, JOHN)] == brute_force(john, q, 5)


def test_knn_with_fewer_rows_than_k_and_empty_db(tmp_path: Path) -> None:
    db = build_db(tmp_path / "few.db", random_chunks(3, 8))
    with ScriptureStore(db) as store:
        assert len(candidates(store, np.ones(8), 40)) == 3
    empty = build_db(tmp_path / "empty.db", [], dims=8)
    with ScriptureStore(empty) as store:
        assert store.info.chunk_count == 0
        assert candidates(store, np.ones(8), 40) == []


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
        candidates(store, np.ones(8), 40)
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
    db = _minimal_db(tmp_path / "l2.db", "embedding float[4]")
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
    assert len(candidates(store, np.ones(8), 40)) == 20  # the open file, not a mix
    store.close()


# -- what the file holds ----------------------------------------------------------------------
def test_text_that_is_not_utf8_is_db_invalid(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(20, 8))
    _edit(db, "UPDATE chunk_text SET text = CAST(x'41ff42fe' AS TEXT) WHERE chunk_id = 'c00003'")
    with ScriptureStore(db) as store, pytest.raises(AmicusError) as ei:
        store.fetch(range(1, 21))
    assert ei.value.code is ErrorCode.DB_INVALID
    assert "not valid UTF-8" in ei.value.message and "s.db" in ei.value.message


def test_text_that_is_not_utf8_in_db_meta_is_db_invalid(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(5, 8))
    _edit(db, "UPDATE db_meta SET value = CAST(x'6dff' AS TEXT) WHERE key = 'embedding_model'")
    expect(ErrorCode.DB_INVALID, db, "not valid UTF-8")


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
    _edit(db, sql)
    with ScriptureStore(db) as store, pytest.raises(AmicusError) as ei:
        candidates(store, np.ones(8), 5)
    assert ei.value.code is ErrorCode.DB_INVALID
    assert fragment in ei.value.message


def test_values_of_another_type_are_coerced_when_nothing_is_lost(tmp_path: Path) -> None:
    """A database from elsewhere may declare chunk_metadata without column types."""
    db = build_db(tmp_path / "s.db", random_chunks(5, 8), full_schema=False)
    _edit(
        db,
        "CREATE TABLE m2 (rowid INTEGER PRIMARY KEY, scholar_id, tradition, book_id, chapter_num, verse_start, "
        "verse_end, panel_type)",
        "INSERT INTO m2 SELECT * FROM chunk_metadata",
        "DROP TABLE chunk_metadata",
        "ALTER TABLE m2 RENAME TO chunk_metadata",
        "UPDATE chunk_metadata SET chapter_num = ' 9', verse_start = 2.0, verse_end = '4', scholar_id = 7 "
        "WHERE rowid = 1",
    )
    with ScriptureStore(db) as store:
        meta = store.fetch([1])[1][4]
    assert (meta.chapter_num, meta.verse_start, meta.verse_end, meta.scholar_id) == (9, 2, 4, "7")


def test_random_byte_flips_raise_only_contract_errors(tmp_path: Path) -> None:
    """Flip bits in a copy of the file — anywhere, and in the stored text: reading it either works
    or says DB_INVALID with a message, never anything else."""
    template = build_db(tmp_path / "t.db", random_chunks(120, 16, seed=3))
    data = template.read_bytes()
    texts = [i for i in range(len(data)) if data.startswith(b"text of c", i)]
    rng = np.random.default_rng(7)
    outcomes: dict[str, int] = {}
    for trial in range(60):
        damaged = bytearray(data)
        anywhere = rng.integers(100, len(data), size=6)
        in_text = [texts[int(i)] + int(rng.integers(0, 14)) for i in rng.integers(0, len(texts), size=2)]
        for offset in [*anywhere, *in_text]:
            damaged[offset] ^= 1 << int(rng.integers(0, 8))
        db = tmp_path / f"flip{trial}.db"
        db.write_bytes(bytes(damaged))
        try:
            with ScriptureStore(db) as store:
                for _ in range(3):
                    candidates(store, rng.standard_normal(16), 120)
                store.facets()
                store.book_ids()
            outcomes["read"] = outcomes.get("read", 0) + 1
        except AmicusError as err:
            assert err.code is ErrorCode.DB_INVALID and err.message, err
            outcomes[err.code.value] = outcomes.get(err.code.value, 0) + 1
        db.unlink()
    assert outcomes.get("DB_INVALID", 0) >= 10, outcomes  # the flips did damage what is read


# -- the vec0 declaration ----------------------------------------------------------------------
def _minimal_db(path: Path, vec0: str, dims: int = 4) -> Path:
    con = connect(path, readonly=False)
    con.execute(f"CREATE VIRTUAL TABLE embeddings USING vec0({vec0})")
    con.execute(
        "CREATE TABLE chunk_text (rowid INTEGER PRIMARY KEY, chunk_id TEXT NOT NULL UNIQUE,"
        " source_type TEXT NOT NULL, source_id TEXT NOT NULL, text TEXT NOT NULL)"
    )
    con.execute(
        "CREATE TABLE chunk_metadata (rowid INTEGER PRIMARY KEY, scholar_id TEXT, tradition TEXT, book_id TEXT,"
        " chapter_num INTEGER, verse_start INTEGER, verse_end INTEGER, panel_type TEXT)"
    )
    con.execute("CREATE TABLE db_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    meta = [("schema_version", "1"), ("embedding_model", "m"), ("embedding_dims", str(dims)),
            ("distance_metric", "cosine")]
    con.executemany("INSERT INTO db_meta VALUES (?, ?)", meta)
    con.close()
    return path


@pytest.mark.parametrize("vec0", [
    "embedding float[4], other float[4] distance_metric=cosine",  # cosine on another column
    "embedding float[4] /* distance_metric=cosine */",
    "embedding float[4] -- distance_metric=cosine\n",
    "embedding float[4] distance_metric=l2, note text",
    "source_type text, embedding float[4] distance_metric=l1",
    "embedding float[4] distance_metric=cosine distance_metric=l2",  # the last one counts
])
def test_metric_is_read_from_the_embedding_columns_own_declaration(tmp_path: Path, vec0: str) -> None:
    expect(ErrorCode.DB_INVALID, _minimal_db(tmp_path / "x.db", vec0), "distance_metric=cosine")


@pytest.mark.parametrize("vec0", [
    "embedding float[4] distance_metric=cosine",
    "source_type text, /* an L2 column follows */ other float[2], embedding float [ 4 ] distance_metric = COSINE",
    "EMBEDDING float[4]distance_metric=COSINE, chapter_num integer",
])
def test_cosine_declarations_are_accepted(tmp_path: Path, vec0: str) -> None:
    with ScriptureStore(_minimal_db(tmp_path / "ok.db", vec0)) as store:
        assert store.info.dims == 4


def test_dims_come_from_the_embedding_column(tmp_path: Path) -> None:
    db = _minimal_db(
        tmp_path / "d.db", "other float[4] distance_metric=cosine, embedding float[8] distance_metric=cosine"
    )
    expect(ErrorCode.DB_INVALID, db, "db_meta says 4 dimensions", "holds 8")


# -- files beside the database -----------------------------------------------------------------
def _wal(db: Path) -> Path:
    con = connect(db, readonly=False, load_extension=False)
    assert con.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
    con.close()
    assert db.read_bytes()[18:20] == b"\x02\x02"
    return db


def test_wal_database_opens_without_side_files(tmp_path: Path) -> None:
    db = _wal(build_db(tmp_path / "w.db", random_chunks(30, 8)))
    before = sha(db)
    with ScriptureStore(db) as store:
        assert len(candidates(store, np.ones(8), 10)) == 10
        assert sorted(p.name for p in tmp_path.iterdir()) == ["w.db"]  # no -wal, no -shm
    assert sha(db) == before


def test_wal_with_changes_not_in_the_file_is_refused_saying_so(tmp_path: Path) -> None:
    db = _wal(build_db(tmp_path / "w.db", random_chunks(30, 8)))
    writer = connect(db, readonly=False, load_extension=False)
    try:
        writer.execute("UPDATE db_meta SET value = 'x' WHERE key = 'corpus_name'")  # now in w.db-wal
        assert (tmp_path / "w.db-wal").stat().st_size > 0
        expect(ErrorCode.DB_INVALID, db, "w.db-wal", "checkpoint")
    finally:
        writer.close()


def _leave_hot_journal(db: Path) -> None:
    """A writer that dies mid-transaction leaves its rollback journal behind."""
    code = (
        "import apsw, os, sys\n"
        "c = apsw.Connection(sys.argv[1])\n"
        "c.execute('PRAGMA cache_size = 2')  # a tiny cache spills: the journal is synced, then the file written\n"
        "c.execute('BEGIN IMMEDIATE'); c.execute('UPDATE chunk_text SET text = text || randomblob(40000)')\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", code, str(db)], check=True, timeout=60)
    assert db.with_name(db.name + "-journal").read_bytes()[:8].hex() == "d9d505f920a163d7"


def test_an_interrupted_write_is_refused_saying_so(tmp_path: Path) -> None:
    db = build_db(tmp_path / "j.db", random_chunks(30, 8))
    _leave_hot_journal(db)
    err = expect(ErrorCode.DB_INVALID, db, "j.db-journal", "stopped half-way")
    assert "readonly" not in err.message


_READ_ONLY_FOLDER_CHECK = """
import json, os, sys
import numpy as np
from amicus_desktop.core.errors import AmicusError
from amicus_desktop.store import ScriptureStore
from amicus_desktop.store.sqlite import vec_version
vec_version()  # the extension is loaded before this process gives up root
if os.geteuid() == 0:  # root writes anywhere: become nobody so the permission bits count
    os.setgid(65534); os.setuid(65534)
try:
    with ScriptureStore(sys.argv[1]) as store:
        print(json.dumps({"results": len(store.knn(np.ones(store.info.dims), 10))}))
except AmicusError as err:
    print(json.dumps({"code": err.code.value, "message": err.message}))
"""


@pytest.mark.parametrize("kind", ["rollback", "wal", "hot journal"])
def test_read_only_folder(kind: str) -> None:
    """A database in a folder nobody may write to, read by a process that is not root."""
    folder = Path(tempfile.mkdtemp(prefix="amicus-ro-db-"))  # under /tmp, reachable by any user
    try:
        db = build_db(folder / "s.db", random_chunks(30, 8))
        if kind == "wal":
            _wal(db)
        if kind == "hot journal":
            _leave_hot_journal(db)
        names = sorted(p.name for p in folder.iterdir())
        before = {p.name: sha(p) for p in folder.iterdir()}
        for p in folder.iterdir():
            p.chmod(0o444)
        folder.chmod(0o555)
        root = Path(__file__).resolve().parents[2]
        proc = subprocess.run(
            [sys.executable, "-c", _READ_ONLY_FOLDER_CHECK, str(db)], capture_output=True, text=True, timeout=60,
            env={**os.environ, "PYTHONPATH": str(root)}, cwd="/", check=False,
        )
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        if kind == "hot journal":
            assert out["code"] == "DB_INVALID" and "s.db-journal" in out["message"], out
            assert "readonly" not in out["message"]
        else:
            assert out == {"results": 10}
        assert sorted(p.name for p in folder.iterdir()) == names
        assert {p.name: sha(p) for p in folder.iterdir()} == before
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)

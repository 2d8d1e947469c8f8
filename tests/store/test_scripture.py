"""Reading scripture.db through ScriptureStore: KNN, filters, passages, names, chunks (store/scripture.py)."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import apsw
import numpy as np
import pytest

from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.core.query import Filters
from amicus_desktop.core.references import PassageRef
from amicus_desktop.core.results import ChunkMetadata
from amicus_desktop.store import ScriptureStore
from amicus_desktop.store.conditions import covering_condition
from amicus_desktop.store.sqlite import connect
from tests.support.dbs import Chunk, build_db, candidates, edit_db, random_chunks, unit

JOHN = Filters(books=("john",))


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
    edit_db(db, "UPDATE chunk_text SET text = CAST(x'41ff42fe' AS TEXT) WHERE chunk_id = 'c00003'")
    with ScriptureStore(db) as store, pytest.raises(AmicusError) as ei:
        store.fetch(range(1, 21))
    assert ei.value.code is ErrorCode.DB_INVALID
    assert "not valid UTF-8" in ei.value.message and "s.db" in ei.value.message


@pytest.mark.parametrize("full_schema", [False, True], ids=["minimal", "full"])
def test_a_filter_takes_one_sql_parameter_per_kind_however_many_values(tmp_path: Path, full_schema: bool) -> None:
    """Filter values travel as one JSON parameter per kind: 40,000 of them once hit SQLite's limit on
    variables ("too many SQL variables"), which the app reported as a damaged database."""
    chunks = random_chunks(60, 8)
    db = build_db(tmp_path / "s.db", chunks, full_schema=full_schema)
    before = sha(db)
    many = Filters(scholars=(*(f"s{i}" for i in range(40_000)), "a"), books=("john", *(f"b{i}" for i in range(40_000))))
    allowed = [i + 1 for i, c in enumerate(chunks) if c.meta.scholar_id == "a" and c.meta.book_id == "john"]
    with ScriptureStore(db) as store:
        assert store.filters_in_vec0(many) is full_schema
        assert store.allowed_rowids(many) == allowed
        assert sorted(r for r, _ in store.knn(np.ones(8), 40, many)) == allowed
        on_john_2 = [r for r in allowed if chunks[r - 1].meta.chapter_num == 2]
        assert store.covering(PassageRef("john", 2), many) == on_john_2
        assert set(store.rowids_for([f"c{i:05d}" for i in range(40_000)])) == {c.chunk_id for c in chunks}
        assert sorted(store.fetch(range(1, 40_000))) == list(range(1, 61))
    assert sha(db) == before

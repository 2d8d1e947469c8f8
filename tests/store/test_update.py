"""LibraryUpdate: a library is changed as one atomic replacement, keeping every table it had."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from amicus_desktop.core.results import ChunkMetadata
from amicus_desktop.core.scholars import Scholar
from amicus_desktop.store import ScriptureStore, codes, fts
from amicus_desktop.store.sqlite import connect
from amicus_desktop.store.update import Hashes, LibraryUpdate, NewLibrary, sweep_stale, tmp_path_for
from amicus_desktop.store.writer import ChunkRecord
from tests.support.dbs import Chunk, build_db, read_rows, unit
from tests.support.ingest import folder_state

H = Hashes("c", "e")


def _library(tmp_path, *, two_stage=False, full_schema=True):
    chunks = [Chunk(f"c{i}", unit(np.eye(8)[i % 8] + 0.1 * i), text=f"old text number {i} about grace",
                    meta=ChunkMetadata(scholar_id="john-smith", book_id="romans", chapter_num=1)) for i in range(6)]
    path = build_db(tmp_path / "lib.db", chunks, full_schema=full_schema, two_stage=two_stage,
                    books=[("romans", "Romans", 45, 16)] if full_schema else ())
    con = connect(path, readonly=False)
    try:  # a table no part of this project knows: an update must keep it
        con.execute("CREATE TABLE curator_notes (note TEXT); INSERT INTO curator_notes VALUES ('keep me')")
    finally:
        con.close()
    return path


def _rec(cid, text, **meta):
    return ChunkRecord(cid, "section_panel", "src", text, ChunkMetadata(**meta))


def test_an_error_inside_leaves_the_library_byte_identical_and_no_temporary_file(tmp_path) -> None:
    path = _library(tmp_path)
    before = folder_state(tmp_path)
    with pytest.raises(RuntimeError, match="boom"), LibraryUpdate(path) as lib:
        lib.put([_rec("new", "new text")], np.ones((1, 8)) / np.sqrt(8), [H])
        assert tmp_path_for(path).exists()
        raise RuntimeError("boom")
    assert folder_state(tmp_path) == before


def test_replace_and_add_keep_every_table_and_rebuild_the_keyword_index(tmp_path) -> None:
    path = _library(tmp_path)
    with LibraryUpdate(path) as lib:
        stored = lib.stored(["c1", "c2", "absent"])
        assert set(stored) == {"c1", "c2"} and stored["c1"].hashes is None
        assert stored["c1"].record.metadata == ChunkMetadata(scholar_id="john-smith", book_id="romans", chapter_num=1)
        old_vector = lib.vectors([stored["c1"].rowid])
        lib.put([_rec("c1", "replaced with words about sanctification", scholar_id="jane-doe", book_id="john"),
                 _rec("c9", "a new chunk on justification")],
                 np.vstack([old_vector, unit(np.ones(8))]), [Hashes("h1", "e1"), Hashes("h9", "e9")],
                 replacing=[stored["c1"].rowid])
        lib.add_scholars([Scholar("jane-doe", "Jane Doe", "anglican", "Notes")])
        lib.add_books(["john"])
    assert not tmp_path_for(path).exists()
    assert read_rows(path, "SELECT note FROM curator_notes") == [("keep me",)]
    with ScriptureStore(path) as store:
        assert store.info.chunk_count == 7
        assert store.scholars()["jane-doe"] == Scholar("jane-doe", "Jane Doe", "anglican", "Notes")
        assert [b.book_id for b in store.books()] == ["john", "romans"]
    texts = dict(read_rows(path, "SELECT chunk_id, text FROM chunk_text"))
    assert texts["c1"] == "replaced with words about sanctification" and len(texts) == 7
    hits = lambda word: {r[0] for r in read_rows(  # noqa: E731
        path, "SELECT t.chunk_id FROM chunk_fts f JOIN chunk_text t ON t.rowid = f.rowid WHERE chunk_fts MATCH ?",
        (word,))}
    assert hits("sanctification") == {"c1"} and hits("justification") == {"c9"}
    assert "c1" not in hits("old")  # the replaced text is gone from the index
    con = connect(path, readonly=True)
    try:  # and the keyword search trusts the library's own index, as it trusts the builder's
        assert fts.database_index_problem(lambda sql, p: con.execute(sql, p).fetchall(), fts.tokenizer(con)) is None
    finally:
        con.close()
    # the vec0 filter columns follow the new metadata
    assert read_rows(path, "SELECT book_id, scholar_id FROM embeddings WHERE rowid = "
                 "(SELECT rowid FROM chunk_text WHERE chunk_id = 'c1')") == [("john", "jane-doe")]
    assert dict((c, (a, b)) for c, a, b in read_rows(path, "SELECT * FROM chunk_hashes")) == {
        "c1": ("h1", "e1"), "c9": ("h9", "e9")}


def test_the_two_stage_file_is_made_again_for_the_changed_library(tmp_path) -> None:
    path = _library(tmp_path, two_stage=True)
    old = codes.CodesFile.open(codes.path_for(path))
    with LibraryUpdate(path) as lib:
        lib.put([_rec("c9", "another")], unit(np.arange(8) + 1.0)[None, :], [H])
    meta = dict(read_rows(path, "SELECT key, value FROM db_meta"))
    new = codes.CodesFile.open(codes.path_for(path))
    assert dict(new.db) == codes.db_fingerprint(meta) != dict(old.db)
    assert new.rows == int(meta["chunk_count"]) == 7
    # the search would trust it: it claims this very file (its change counter and page count)
    assert codes.claim_problem(new, meta, path.read_bytes()[:100]) is None
    assert sorted(f.name for f in tmp_path.iterdir()) == ["lib.db", "lib.db" + codes.SUFFIX]


def test_a_minimal_library_gets_rows_in_its_own_shape(tmp_path) -> None:
    path = _library(tmp_path, full_schema=False)
    with LibraryUpdate(path) as lib:
        assert lib.filter_columns == ()
        lib.put([_rec("c9", "another", scholar_id="jane-doe")], unit(np.ones(8))[None, :], [H])
        lib.add_scholars([Scholar("jane-doe", "Jane Doe")])
        lib.add_books(["john"])  # no books table: nothing to do
    with ScriptureStore(path) as store:
        assert store.info.chunk_count == 7 and store.info.vec_filter_columns == ()
        assert store.info.has_scholars and not store.info.has_books and store.info.fts_table is None


def test_nothing_written_leaves_the_file_as_it_was(tmp_path) -> None:
    path = _library(tmp_path)
    before = (folder_state(tmp_path), os.stat(path).st_mtime_ns)
    with LibraryUpdate(path) as lib:
        lib.stored(["c1"])
    assert (folder_state(tmp_path), os.stat(path).st_mtime_ns) == before


def test_a_new_library_is_made_only_when_the_update_finishes(tmp_path) -> None:
    path = tmp_path / "new.db"
    with pytest.raises(KeyboardInterrupt), LibraryUpdate(path, NewLibrary("m", 8)) as lib:
        lib.put([_rec("c1", "text")], unit(np.ones(8))[None, :], [H])
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []
    with LibraryUpdate(path, NewLibrary("m", 8, corpus_name="mine")) as lib:
        lib.put([_rec("c1", "text")], unit(np.ones(8))[None, :], [H])
    with ScriptureStore(path) as store:
        assert (store.info.model_id, store.info.chunk_count, store.info.meta["corpus_name"]) == ("m", 1, "mine")
        assert store.info.fts_table == "chunk_fts" and set(store.info.vec_filter_columns) == {
            "source_type", "scholar_id", "tradition", "book_id", "chapter_num"}


def test_another_writer_during_the_update_wins_and_nothing_is_replaced(tmp_path) -> None:
    path = _library(tmp_path)
    with pytest.raises(RuntimeError, match="changed by another program"), LibraryUpdate(path) as lib:
        lib.put([_rec("c9", "mine")], unit(np.ones(8))[None, :], [H])
        con = connect(path, readonly=False)
        con.execute("INSERT INTO curator_notes VALUES ('theirs')")
        con.close()
    assert ("theirs",) in read_rows(path, "SELECT note FROM curator_notes")
    assert not tmp_path_for(path).exists()


def test_sweep_removes_what_a_killed_update_left_and_nothing_else(tmp_path) -> None:
    path = tmp_path / "lib.db"
    path.write_bytes(b"library")
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True).stdout.strip()
    left = tmp_path / f".lib.db.ingest-{dead}"
    left.write_bytes(b"half")
    live = tmp_path / f".lib.db.ingest-{os.getppid()}"
    live.write_bytes(b"someone at work")
    assert sweep_stale(path) == [left]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["lib.db", live.name])

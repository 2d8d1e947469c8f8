"""Writing a scripture.db and its two-stage file atomically, and the tools' own edits (store/writer.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from amicus_desktop.store import ScriptureStore, codes, schema
from amicus_desktop.store.twostage import TwoStageIndex
from amicus_desktop.store.writer import ChunkRecord, ScriptureWriter, add_two_stage, set_meta
from tests.support.coded import DIMS, chunks_for, questions
from tests.support.coded import coded_db as coded_db  # the fixture
from tests.support.coded import vectors as vectors  # the fixture
from tests.support.corpora import sha256
from tests.support.dbs import Chunk, build_db


def test_add_two_stage_to_an_existing_database(tmp_path: Path, vectors: np.ndarray, coded_db: Path) -> None:
    plain = build_db(tmp_path / "plain.db", chunks_for(vectors))
    assert not codes.path_for(plain).exists()
    before = sha256(plain)
    add_two_stage(plain)
    assert sha256(plain) == before  # the database is only read
    mine, built = codes.CodesFile.open(codes.path_for(plain)), codes.CodesFile.open(codes.path_for(coded_db))
    assert np.array_equal(mine.projection(), built.projection())
    for (_, r1, c1), (_, r2, c2) in zip(mine.code_blocks(), built.code_blocks(), strict=True):
        assert np.array_equal(np.sort(r1), r2)
        assert np.array_equal(c1[np.argsort(r1)], c2)  # rows may come out of vec0 in any order
    with ScriptureStore(plain) as s:
        index = TwoStageIndex.open(s, mode="on")
        assert index is not None
        q = questions(1)[0]
        assert index.search(q, 10) == TwoStageIndex.open(s, mode="on").search(q, 10)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary left


def test_a_rebuild_without_the_file_removes_the_stale_one(tmp_path: Path, vectors: np.ndarray) -> None:
    db = build_db(tmp_path / "s.db", chunks_for(vectors[:300]), two_stage=True)
    assert codes.path_for(db).exists()
    build_db(db, chunks_for(vectors[:300]))
    assert not codes.path_for(db).exists()


def test_a_failed_build_leaves_neither_file(tmp_path: Path, vectors: np.ndarray) -> None:
    out = tmp_path / "s.db"
    with pytest.raises(RuntimeError), ScriptureWriter(out, model_id="m", dims=DIMS, two_stage=True) as w:
        w.add_chunks([ChunkRecord("a", "section_panel", "a", "text")], vectors[:1])
        raise RuntimeError("cancelled")
    assert list(tmp_path.iterdir()) == []


def test_a_tool_changing_its_own_database_meta_keeps_the_file(tmp_path: Path, coded_db: Path) -> None:
    """The benchmark renames the model of its own copy: the vectors stay, and so does the file's claim."""
    db = tmp_path / "copy.db"
    shutil.copyfile(coded_db, db)
    shutil.copyfile(codes.path_for(coded_db), codes.path_for(db))
    assert set_meta(db, "embedding_model", "other-model") == "test-model"
    with ScriptureStore(db) as s:
        assert s.info.model_id == "other-model" and TwoStageIndex.open(s, mode="on") is not None
    assert codes.carry_claim(codes.path_for(db), b"\0" * 100, b"\0" * 100) is False  # only a claim that held


def test_the_schema_written_is_the_schema_read(tmp_path: Path) -> None:
    """One home for the tables: the writer creates what store/schema.py declares, with a build id."""
    full = build_db(tmp_path / "full.db", [Chunk("a", [1.0, 0.0])])
    minimal = build_db(tmp_path / "min.db", [Chunk("a", [1.0, 0.0])], full_schema=False)
    with ScriptureStore(full) as f, ScriptureStore(minimal) as m:
        declared = {name: sql for name, sql in f.rows("SELECT name, sql FROM sqlite_master WHERE type = 'table'")}
        assert declared["chunk_text"] == schema.CREATE_CHUNK_TEXT
        assert declared["chunk_metadata"] == schema.CREATE_CHUNK_METADATA
        assert declared["embeddings"] == schema.embeddings_sql(2, filter_columns=True)
        assert f.info.vec_filter_columns == schema.VEC_FILTER_COLUMNS and not m.info.vec_filter_columns
        assert f.info.loose_columns == () == m.info.loose_columns
        ids = {f.info.meta["build_id"], m.info.meta["build_id"]}
        assert len(ids) == 2 and all(len(i) == 32 for i in ids)  # random per build

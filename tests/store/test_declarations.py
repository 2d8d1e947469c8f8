"""vec0 and fts5 declarations read as the modules read them (store/declarations.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from amicus_desktop.core.errors import ErrorCode
from amicus_desktop.store import ScriptureStore
from amicus_desktop.store.sqlite import connect
from tests.support.dbs import expect_refused


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


def test_l2_metric_is_refused(tmp_path: Path) -> None:
    db = _minimal_db(tmp_path / "l2.db", "embedding float[4]")
    expect_refused(ErrorCode.DB_INVALID, db, "distance_metric=cosine")


@pytest.mark.parametrize("vec0", [
    "embedding float[4], other float[4] distance_metric=cosine",  # cosine on another column
    "embedding float[4] /* distance_metric=cosine */",
    "embedding float[4] -- distance_metric=cosine\n",
    "embedding float[4] distance_metric=l2, note text",
    "source_type text, embedding float[4] distance_metric=l1",
    "embedding float[4] distance_metric=cosine distance_metric=l2",  # the last one counts
])
def test_metric_is_read_from_the_embedding_columns_own_declaration(tmp_path: Path, vec0: str) -> None:
    expect_refused(ErrorCode.DB_INVALID, _minimal_db(tmp_path / "x.db", vec0), "distance_metric=cosine")


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
    expect_refused(ErrorCode.DB_INVALID, db, "db_meta says 4 dimensions", "holds 8")

"""Files that are not a scripture.db this app can read, refused with the contract's codes (store/validate.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.store import ScriptureStore
from tests.support.dbs import build_db, candidates, edit_db, expect_refused, random_chunks


def test_missing_file(tmp_path: Path) -> None:
    expect_refused(ErrorCode.DB_NOT_FOUND, tmp_path / "nope.db", "nope.db", "build-db")
    assert not (tmp_path / "nope.db").exists()  # read-only open never creates it


def test_directory_is_invalid(tmp_path: Path) -> None:
    expect_refused(ErrorCode.DB_INVALID, tmp_path)


def test_not_sqlite(tmp_path: Path) -> None:
    p = tmp_path / "text.db"
    p.write_text("this is not a database\n" * 200)
    expect_refused(ErrorCode.DB_INVALID, p, "not a SQLite database")
    z = tmp_path / "zero.db"
    z.write_bytes(b"")
    expect_refused(ErrorCode.DB_INVALID, z)


def test_truncated(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(300, 64))
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])
    expect_refused(ErrorCode.DB_INVALID, db, "truncated")


def test_corrupt_pages(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(300, 64), full_schema=False)
    data = bytearray(db.read_bytes())
    page = 65536
    # Overwrite every page after the first with noise: the schema page is fine, the rest is not.
    rng = np.random.default_rng(0)
    data[page:] = rng.integers(0, 256, len(data) - page, dtype=np.uint8).tobytes()
    db.write_bytes(bytes(data))
    err = expect_refused(ErrorCode.DB_INVALID, db)
    assert "s.db" in err.message


@pytest.mark.parametrize("table", ["chunk_text", "chunk_metadata", "db_meta"])
def test_missing_required_table(tmp_path: Path, table: str) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(10, 8), full_schema=False)
    edit_db(db, f"DROP TABLE {table}")
    expect_refused(ErrorCode.DB_INVALID, db, table)


def test_missing_embeddings_table(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(10, 8), full_schema=False)
    edit_db(db, "DROP TABLE embeddings")
    expect_refused(ErrorCode.DB_INVALID, db, "embeddings")


@pytest.mark.parametrize("key", ["schema_version", "embedding_model", "embedding_dims", "distance_metric"])
def test_missing_meta_key(tmp_path: Path, key: str) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(10, 8), full_schema=False)
    edit_db(db, f"DELETE FROM db_meta WHERE key = '{key}'")
    expect_refused(ErrorCode.DB_INVALID, db, key)


def test_unknown_schema_version(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(10, 8))
    edit_db(db, "UPDATE db_meta SET value = '2' WHERE key = 'schema_version'")
    expect_refused(ErrorCode.DB_INVALID, db, "schema_version", "'2'")


def test_dims_disagree_with_vec0(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(10, 8))
    edit_db(db, "UPDATE db_meta SET value = '384' WHERE key = 'embedding_dims'")
    expect_refused(ErrorCode.DB_INVALID, db, "384", "8")


def test_bad_dims_value(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(10, 8))
    edit_db(db, "UPDATE db_meta SET value = 'many' WHERE key = 'embedding_dims'")
    expect_refused(ErrorCode.DB_INVALID, db, "embedding_dims")


def test_missing_column(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(10, 8), full_schema=False)
    edit_db(db, "ALTER TABLE chunk_metadata DROP COLUMN panel_type")
    expect_refused(ErrorCode.DB_INVALID, db, "panel_type")


def test_extension_cannot_load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(10, 8))
    fake = tmp_path / "vec0.so"
    fake.write_bytes(b"\x7fELF not really a library")
    monkeypatch.setenv("AMICUS_SQLITE_VEC_PATH", str(fake))
    expect_refused(ErrorCode.EXTENSION_NOT_LOADED, db, "sqlite-vec")


def test_extension_error_wins_over_invalid_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "text.db"
    p.write_text("not sqlite")
    monkeypatch.setenv("AMICUS_SQLITE_VEC_PATH", str(tmp_path / "missing.so"))
    expect_refused(ErrorCode.EXTENSION_NOT_LOADED, p)


def test_text_that_is_not_utf8_in_db_meta_is_db_invalid(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(5, 8))
    edit_db(db, "UPDATE db_meta SET value = CAST(x'6dff' AS TEXT) WHERE key = 'embedding_model'")
    expect_refused(ErrorCode.DB_INVALID, db, "not valid UTF-8")


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

"""The keyword index of a store: the database's own when it can be trusted, else the app's own, which is
disposable (store/keyword.py, store/fts.py). Every library a test opens is byte-identical afterwards."""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

import pytest

from amicus_desktop import paths
from amicus_desktop.core.query import Filters
from amicus_desktop.store import fts
from amicus_desktop.store.scripture import ScriptureStore
from amicus_desktop.store.sqlite import connect
from tests.support.dbs import Chunk, build_db, demo_like_chunks, edit_db

#: A word only one chunk holds, and that chunk's rowid in :func:`library`.
RARE = "zerubbabel"


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def sampled(store: ScriptureStore) -> set[int]:
    """The rowids ``database_index_problem`` looks at (rowids here are 1..n without gaps)."""
    n = store.info.chunk_count
    return {1 + (n - 1) * i // (fts.SAMPLES - 1) for i in range(fts.SAMPLES)}


def library(tmp_path: Path, *, full_schema: bool = True, rare_at: int = 0) -> Path:
    """The demo-like chunks; chunk ``rare_at`` (0-based) also holds :data:`RARE`."""
    chunks = demo_like_chunks()
    rare = chunks[rare_at]
    chunks[rare_at] = Chunk(rare.chunk_id, rare.vector, rare.text + f" {RARE.title()} built the temple.",
                            rare.source_type, meta=rare.meta)
    return build_db(tmp_path / "scripture.db", chunks, full_schema=full_schema)


def cache_files() -> list[Path]:
    return sorted((paths.cache_dir() / "keyword-index").glob("*.sqlite"))


def test_a_sound_database_index_is_used(tmp_path: Path) -> None:
    db = library(tmp_path)
    before = sha(db)
    with ScriptureStore(db) as store:
        index = store.full_text
        assert (index.where, index.problem) == ("database", None)
        assert [r for r, _ in index.search([RARE], 5)] == [1]
    assert sha(db) == before and cache_files() == []


def test_a_row_changed_after_indexing_is_caught_when_it_is_found(tmp_path: Path) -> None:
    """chunk_text edited without its external-content index: the index still finds the old words there.
    A row outside the sample is caught the first time a search finds it: the hit's text no longer holds
    the word, so the app's own index (from the text as it is) answers instead."""
    with ScriptureStore(library(tmp_path / "probe")) as probe:
        outside = next(r for r in range(2, probe.info.chunk_count) if r not in sampled(probe))
    db = library(tmp_path, rare_at=outside - 1)
    edit_db(db, f"UPDATE chunk_text SET text = 'A note about something else.' WHERE rowid = {outside}")
    before = sha(db)
    with ScriptureStore(db) as store:
        index = store.full_text
        assert index.where == "database"  # the sample holds nothing wrong
        assert index.search([RARE], 5) == []  # the stale hit was refused, and the app's own index asked
        assert index.where == "cache" and index.problem is not None and f"row {outside}" in index.problem
        assert [r for r, _ in index.search(["potter"], 50)]  # and it answers for what is there
    assert sha(db) == before


@pytest.mark.parametrize("damage", ["sampled row changed", "emptied", "another table, options in a comment",
                                    "declared differently", "a row too many", "shadow table gone"])
def test_a_stale_or_damaged_database_index_is_not_trusted(
        tmp_path: Path, damage: str, caplog: pytest.LogCaptureFixture) -> None:
    db = library(tmp_path)
    other = ("CREATE TABLE other (text TEXT)", "INSERT INTO other SELECT text FROM chunk_text",
             "DROP TABLE chunk_fts",
             "CREATE VIRTUAL TABLE chunk_fts USING fts5(text, content='other' /* content='chunk_text' */, "
             f"content_rowid='rowid', tokenize='{fts.FTS_TOKENIZE}')",
             "INSERT INTO chunk_fts(chunk_fts) VALUES ('rebuild')")
    sql = {
        "sampled row changed": ("UPDATE chunk_text SET text = 'A note about something else.' WHERE rowid = 1",),
        "emptied": ("INSERT INTO chunk_fts(chunk_fts) VALUES ('delete-all')",),
        "another table, options in a comment": other,
        "declared differently": ("DROP TABLE chunk_fts",
                                 "CREATE VIRTUAL TABLE chunk_fts USING fts5(text, content='chunk_text', "
                                 "content_rowid='rowid', tokenize='unicode61')",
                                 "INSERT INTO chunk_fts(chunk_fts) VALUES ('rebuild')"),
        "a row too many": ("INSERT INTO chunk_fts(rowid, text) VALUES (9999, 'Zerubbabel again')",),
        "shadow table gone": ("DROP TABLE chunk_fts_docsize",),
    }[damage]
    edit_db(db, *sql)
    before = sha(db)
    with ScriptureStore(db) as store, caplog.at_level(logging.WARNING, logger="amicus.store"):
        index = store.full_text
        assert index.where == "cache" and index.problem
        hits = [r for r, _ in index.search([RARE], 5)]
        assert hits == ([] if damage == "sampled row changed" else [1])  # the text as it is now
        assert index.search(["potter"], 3, Filters(books=("romans",)))
    assert any("using the app's own" in r.getMessage() for r in caplog.records)
    assert sha(db) == before


# -- the app's own index is disposable -----------------------------------------------------------
@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty", "pages overwritten"])
def test_a_damaged_cache_is_rebuilt_not_blamed_on_the_database(tmp_path: Path, damage: str) -> None:
    """A keyword-index cache that cannot be read was DB_INVALID "… Rebuild it" (the database blamed) and
    stayed broken: it is built again."""
    db = library(tmp_path, full_schema=False)
    before = sha(db)
    with ScriptureStore(db) as store:
        assert store.full_text.where == "cache"
        want = store.full_text.search([RARE, "potter"], 10)
    (cached,) = cache_files()
    data = cached.read_bytes()
    cached.write_bytes({
        "garbage": b"not a database at all " * 100,
        "truncated": data[: len(data) // 3],
        "empty": b"",
        "pages overwritten": data[:4096] + b"\xa5" * (len(data) - 4096),
    }[damage])
    with ScriptureStore(db) as store:
        index = store.full_text
        assert index.where == "cache"
        assert index.search([RARE, "potter"], 10) == want
    assert cache_files() == [cached] and cached.read_bytes()[:16] == b"SQLite format 3\x00"
    assert sha(db) == before


def test_a_cache_damaged_while_in_use_is_rebuilt_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = library(tmp_path, full_schema=False)
    before = sha(db)
    with ScriptureStore(db) as store, caplog.at_level(logging.WARNING, logger="amicus.store"):
        index = store.full_text
        want = index.search([RARE, "potter"], 10)
        (cached,) = cache_files()
        con = connect(cached, readonly=False, load_extension=False)
        con.execute("DELETE FROM chunk_fts_data WHERE id > 10")  # the index's pages, gone under it
        con.close()
        assert index.search(["temple", "election"], 10)  # words not asked before read the damaged pages
        assert index.where == "cache" and index.search([RARE, "potter"], 10) == want
    assert [r.getMessage() for r in caplog.records].count("keyword index cache unreadable; building it again") == 1
    assert sha(db) == before

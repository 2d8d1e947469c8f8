"""The catalogue's counts over every chunk, kept per library state in the app's cache (store/chunk_counts.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from amicus_desktop import paths
from amicus_desktop.core.results import ChunkMetadata
from amicus_desktop.store import ScriptureStore
from amicus_desktop.store.catalogue import SOURCE_TYPES
from amicus_desktop.store.chunk_counts import FOLDER
from amicus_desktop.store.sqlite import connect
from tests.support.dbs import Chunk, build_db, edit_db


def _chunks() -> list[Chunk]:
    books = ("romans", "john", "romans", "genesis", None)
    scholars = ("matthew-henry", "c-i-scofield", "matthew-henry", None, "john-calvin")
    return [Chunk(f"c{i}", [1, i, 0, 0], meta=ChunkMetadata(scholar_id=s, book_id=b, tradition="reformed"))
            for i, (b, s) in enumerate(zip(books, scholars, strict=True))]


def _answers(store: ScriptureStore) -> tuple[object, ...]:
    store.forget_coverage()
    return (store.facets(), store.source_type_counts(), sorted(store.book_ids()), sorted(store.scholars()),
            store.coverage())


def _files() -> list[Path]:
    return sorted((paths.cache_dir() / FOLDER).glob("*.json"))


def _direct(db: Path) -> tuple[object, ...]:
    """The same questions with the cache out of the way (each statement read from the library)."""
    with ScriptureStore(db) as store:
        store._counts = None
        return _answers(store)


def test_a_later_open_reads_the_cache_and_answers_the_same(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", _chunks())
    direct = _direct(db)
    assert _files() == []
    with ScriptureStore(db) as store:
        assert _answers(store) == direct
    (kept,) = _files()
    with ScriptureStore(db) as store:
        assert _answers(store) == direct
    # what a later open answers comes from the file: a value written into it shows
    rows = json.loads(kept.read_text(encoding="utf-8"))
    rows[SOURCE_TYPES] = [["commentary", 99]]
    kept.write_text(json.dumps(rows), encoding="utf-8")
    with ScriptureStore(db) as store:
        assert store.source_type_counts() == {"commentary": 99}


@pytest.mark.parametrize("damage", ["", "{not json", "[]", '{"x": 1}', "null"])
def test_a_damaged_file_is_written_again(tmp_path: Path, damage: str) -> None:
    db = build_db(tmp_path / "s.db", _chunks())
    direct = _direct(db)
    with ScriptureStore(db) as store:
        _answers(store)
    (kept,) = _files()
    whole = kept.read_text(encoding="utf-8")
    for text in (damage, whole.replace("[[", "[{", 1), whole.replace('"section_panel", 5', '"section_panel", 5.5')):
        kept.write_text(text, encoding="utf-8")
        with ScriptureStore(db) as store:
            assert _answers(store) == direct
        assert kept.read_text(encoding="utf-8") == whole


def test_a_changed_library_is_read_again(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", _chunks())
    with ScriptureStore(db) as store:
        before = _answers(store)
    edit_db(db, "UPDATE chunk_metadata SET book_id = 'acts' WHERE book_id = 'genesis'",
            "UPDATE chunk_metadata SET scholar_id = 'new-one' WHERE scholar_id = 'john-calvin'")
    with ScriptureStore(db) as store:
        after = _answers(store)
    assert after == _direct(db) and after != before
    assert "acts" in after[2] and "genesis" not in after[2]  # type: ignore[operator]
    assert len(_files()) == 1  # the earlier state's file is gone


def test_a_library_changed_while_open_is_read_directly(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", _chunks())
    with ScriptureStore(db) as store:
        _answers(store)
        edit_db(db, "UPDATE chunk_text SET source_type = 'lexicon'")
        assert store.source_type_counts() == {"lexicon": 5}


def test_a_growing_library_in_wal_mode_is_never_cached(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", _chunks())
    con = connect(db, readonly=False)
    con.execute("PRAGMA journal_mode=WAL")
    con.close()
    assert db.read_bytes()[18:20] == b"\x02\x02"
    with ScriptureStore(db) as store:
        assert _answers(store) == _direct(db)
    assert _files() == []


def test_no_cache_folder_still_answers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = build_db(tmp_path / "s.db", _chunks())
    direct = _direct(db)
    blocked = tmp_path / "home-is-a-file"
    blocked.write_text("")
    monkeypatch.setenv("AMICUS_HOME", str(blocked))
    with ScriptureStore(db) as store:
        assert _answers(store) == direct
    assert os.path.isfile(blocked)

"""The cross-reference index grows with the library: the builder brings it up to date after each book, and an
index brought up to date note by note holds exactly what one made from scratch holds."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from amicus_desktop.core.books import BY_ID
from amicus_desktop.corpus.grow import grow_database
from amicus_desktop.store import ScriptureStore
from amicus_desktop.study.xref_index import XrefIndex
from tests.support.embedders import StandInEmbedder

BOOKS = ["jude", "philemon", "2-john", "3-john", "titus"]
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]


def _every_hit(db: Path) -> tuple[int, list[tuple[object, ...]]]:
    """How many notes the index had to read on opening, and every hit of every verse of the books."""
    with ScriptureStore(db) as store:
        index = XrefIndex.for_store(store)
        read = index.notes_read
        hits = sorted((b, c, v, h.kind.value, h.detail, h.chunk_id, h.ref.label())
                      for b in BOOKS for c in range(1, BY_ID[b].chapters + 1) for v in range(1, 60)
                      for h in index.hits(b, c, v))
        index.close()
    return read, hits


def test_the_builder_keeps_the_index_current_and_updates_match_a_fresh_index(tmp_path: Path, library) -> None:
    db = tmp_path / "scripture.db"
    grow_database(db, BOOKS, StandInEmbedder(), library=library, stop_after=2)
    first = tmp_path / "first-two.db"
    shutil.copy(db, first)
    read, part = _every_hit(db)
    assert read == 0, "the builder brought the index up to date after each book: the reader reads no note"
    assert part, "the first two books' notes give cross-references"

    grow_database(db, BOOKS, StandInEmbedder(), library=library)  # the rest of the books
    read, grown = _every_hit(db)
    assert read == 0 and len(grown) > len(part)
    fresh = tmp_path / "fresh.db"  # another path: its index is made from scratch
    shutil.copy(db, fresh)
    read, scratch = _every_hit(fresh)
    assert read > 0 and scratch == grown

    shutil.copy(first, db)  # the library replaced by an older state (books gone): their groups go too
    read, shrunk = _every_hit(db)
    assert read == 0 and shrunk == part  # nothing to read again: only notes that went away


def test_an_unreadable_index_file_is_made_again(tmp_path: Path, library) -> None:
    db = tmp_path / "scripture.db"
    grow_database(db, ["jude"], StandInEmbedder(), library=library)
    _, before = _every_hit(db)
    with ScriptureStore(db) as store:
        index = XrefIndex.for_store(store)
        path = index._file.path
        index.close()
    path.write_bytes(b"not a database at all" * 100)
    Path(f"{path}-wal").unlink(missing_ok=True)
    read, after = _every_hit(db)
    assert read > 0 and after == before


def test_a_cache_folder_that_cannot_be_written_never_fails_the_build(tmp_path: Path, library) -> None:
    """The index is the builder's courtesy: with its folder blocked (a file where the folder goes) the library is
    built all the same, and a reader makes the index on first use once the folder can be written."""
    from amicus_desktop import paths

    blocked = paths.cache_dir() / "xref-index"
    blocked.parent.mkdir(parents=True, exist_ok=True)
    blocked.write_text("not a folder")
    db = tmp_path / "scripture.db"
    report = grow_database(db, ["jude"], StandInEmbedder(), library=library)
    assert report.complete
    blocked.unlink()
    read, hits = _every_hit(db)
    assert read > 0 and hits

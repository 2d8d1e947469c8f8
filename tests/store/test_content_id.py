"""The library's content id: stored once by the tool that writes the chunks, computed only for a library without
it — and the same id either way (``amicus_desktop/store/content_id.py``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from amicus_desktop.core.results import ChunkMetadata
from amicus_desktop.store import ScriptureStore
from amicus_desktop.store.content_id import CONTENT_ID_KEY, computed, computed_in, library_id
from amicus_desktop.store.sqlite import connect
from amicus_desktop.store.update import Hashes, LibraryUpdate
from amicus_desktop.store.writer import ChunkRecord
from tests.support.dbs import Chunk, build_db, edit_db, read_rows, unit


def _stored(path: Path) -> str | None:
    rows = read_rows(path, "SELECT value FROM db_meta WHERE key = ?", [CONTENT_ID_KEY])
    return str(rows[0][0]) if rows else None


def _both(path: Path) -> tuple[str, str]:
    """The id a reader takes (stored, else computed) and the one computed from the chunks."""
    with ScriptureStore(path) as store:
        return library_id(store), computed(store)


def _small(tmp_path: Path) -> Path:
    chunks = [Chunk(f"c{i}", unit(np.eye(8)[i % 8] + 0.1 * i), text=f"text {i} on grace — ἀγάπη",
                    meta=ChunkMetadata(book_id="romans", chapter_num=1 + i % 3)) for i in range(9)]
    return build_db(tmp_path / "lib.db", chunks)


def test_the_builder_stores_the_id_a_reader_would_compute(tmp_path: Path) -> None:
    path = _small(tmp_path)
    stored = _stored(path)
    assert stored is not None and stored.startswith("lib-") and len(stored) == 24
    assert _both(path) == (stored, stored)
    con = connect(path, readonly=True)
    try:
        assert computed_in(con, path) == stored
    finally:
        con.close()


def test_a_library_without_it_has_it_computed_the_same_and_a_change_shows(tmp_path: Path) -> None:
    path = _small(tmp_path)
    stored = _stored(path)
    edit_db(path, f"DELETE FROM db_meta WHERE key = '{CONTENT_ID_KEY}'")  # as a library built before
    assert _stored(path) is None and _both(path) == (stored, stored)
    edit_db(path, "UPDATE chunk_text SET text = 'text 1 rewritten' WHERE chunk_id = 'c1'")
    changed, again = _both(path)
    assert changed == again and changed != stored


def test_ingest_stores_the_changed_librarys_own_id(tmp_path: Path) -> None:
    path = _small(tmp_path)
    before = _stored(path)
    with LibraryUpdate(path) as lib:
        lib.put([ChunkRecord("c9", "section_panel", "src", "a new chunk on justification", ChunkMetadata())],
                unit(np.ones(8))[None, :], [Hashes("h9", "e9")])
    after = _stored(path)
    assert after is not None and after != before and _both(path) == (after, after)


def test_real_builds_agree(study_db: Path) -> None:
    stored = _stored(study_db)
    assert stored is not None and _both(study_db) == (stored, stored)

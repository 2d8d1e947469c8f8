"""Verse search's vectors in the app's cache (store/vector_file.py), read a block at a time: the same vectors
verse search held in memory, the same answers, one file per library state, and memory where there is no cache."""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from amicus_desktop import paths
from amicus_desktop.core.query import SearchMode
from amicus_desktop.retrieval import Retriever
from amicus_desktop.store.library import open_library
from amicus_desktop.store.vector_file import BLOCK_ROWS, FOLDER, FileVectors
from amicus_desktop.verses import VerseQuery, VerseSearch
from amicus_desktop.verses.memory import VerseMemory

pytestmark = pytest.mark.slow


def _files() -> list[Path]:
    return sorted((paths.cache_dir() / FOLDER).glob("*.f32"))


def _in_memory(db: Path) -> tuple[np.ndarray, np.ndarray]:
    """The verse rowids and vectors, read straight from the library."""
    store = open_library(db)
    try:
        blocks = list(store.verse_index().vector_blocks(BLOCK_ROWS))
        return np.concatenate([b[0] for b in blocks]), np.concatenate([b[1] for b in blocks])
    finally:
        store.close()


def test_the_vectors_come_from_one_cache_file_and_score_as_in_memory(verse_db: Path) -> None:
    rowids, matrix = _in_memory(verse_db)
    assert len(rowids) > 200 and not _files()
    store = open_library(verse_db)
    try:
        memory = VerseMemory.for_store(store, vectors=True)
        verses, notes, entries = memory.verse_index, memory.note_index, memory.entry_index
        assert isinstance(verses, FileVectors) and isinstance(notes, FileVectors) and isinstance(entries, FileVectors)
        assert memory.bytes == 0  # nothing of them held
        assert len(_files()) == 1
        assert np.array_equal(verses.ids, rowids) and np.array_equal(memory.vector_pos, rowids - 1)
        assert len(notes) == len(memory.note_rowids) > 0 and len(entries) == len(memory.entry_rowids) > 0
        query = matrix[len(matrix) // 2].astype(np.float32)
        expected = matrix @ query
        np.testing.assert_allclose(verses.similarities(query), expected, rtol=0, atol=1e-5)
        np.testing.assert_allclose(verses.matrix.products(query, block=7), expected, rtol=0, atol=1e-5)  # blocks
        assert np.array_equal(verses.matrix.take(np.asarray([5, 250, 0])), matrix[[5, 250, 0]])
        assert int(np.argmax(verses.similarities(query))) == len(matrix) // 2
        stored = store.vectors(int(r) for r in memory.note_rowids[:50])
        for i, r in enumerate(memory.note_rowids[:50]):
            assert np.array_equal(notes.matrix.take(np.asarray([i]))[0], stored[int(r)])
        # the vector seam's other questions read the rows they name
        nearest = verses.nearest(query, 3)
        assert nearest[0][0] == int(rowids[len(matrix) // 2]) and nearest[0][1] == pytest.approx(0.0, abs=1e-3)
        assert set(verses.distances(query, [int(r) for r in rowids[:5]])) == {int(r) for r in rowids[:5]}
    finally:
        store.close()
    # a second opening of the same library reads the same file: none written
    before = {p: p.stat().st_mtime_ns for p in _files()}
    store = open_library(verse_db)
    try:
        assert isinstance(VerseMemory.for_store(store, vectors=True).verse_index, FileVectors)
    finally:
        store.close()
    assert {p: p.stat().st_mtime_ns for p in _files()} == before


def test_a_changed_library_gets_a_new_file_and_a_damaged_one_is_written_again(verse_db: Path, tmp_path: Path) -> None:
    db = tmp_path / "scripture.db"
    shutil.copy(verse_db, db)
    store = open_library(db)
    VerseMemory.for_store(store, vectors=True)
    store.close()
    (first,) = _files()
    st = db.stat()
    os.utime(db, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))  # the library's state changed
    store = open_library(db)
    VerseMemory.for_store(store, vectors=True)
    store.close()
    (second,) = _files()
    assert second != first  # the earlier state's file removed
    with open(second, "r+b") as fh:
        fh.truncate(second.stat().st_size // 2)
    store = open_library(db)
    try:
        memory = VerseMemory.for_store(store, vectors=True)
        verses = memory.verse_index
        assert isinstance(verses, FileVectors)
        query = np.ones(store.info.dims, dtype=np.float32)
        sims = verses.similarities(query)
        assert sims.shape == (len(verses),)
        assert _files() == [second] and second.stat().st_size > 0
        second.unlink()  # removed while in use (another instance, a changed library): still read whole
        assert np.array_equal(verses.similarities(query), sims)
    finally:
        store.close()


def test_verse_search_answers_alike_from_the_file_and_from_memory(
        verse_db: Path, local_proxy: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    async def answers() -> list[list[tuple[str, float]]]:
        retriever = Retriever(verse_db, local_proxy.url)
        try:
            search = VerseSearch(retriever)
            out = []
            for text in ("adoption as sons", "justified by faith apart from works", "the word became flesh"):
                for mode in (SearchMode.HYBRID, SearchMode.SEMANTIC):
                    result = await search.search(VerseQuery(text, mode, ()))
                    out.append([(f"{h.book_id}:{h.chapter_num}:{h.verse_start}", h.score) for h in result.results])
            return out
        finally:
            await retriever.aclose()

    from_file = asyncio.run(answers())
    assert _files()
    home = tmp_path / "home-is-a-file"
    home.write_text("", encoding="utf-8")
    monkeypatch.setenv("AMICUS_HOME", str(home))  # no cache folder can be made: the vectors are held
    with caplog.at_level(logging.WARNING, logger="amicus.verses"):
        from_memory = asyncio.run(answers())
    assert any(r.getMessage() == "verse vectors held in memory" for r in caplog.records)
    assert [[ref for ref, _ in a] for a in from_file] == [[ref for ref, _ in a] for a in from_memory]
    for a, b in zip(from_file, from_memory, strict=True):
        assert [s for _, s in a] == pytest.approx([s for _, s in b], abs=1e-6)

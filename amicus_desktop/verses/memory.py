"""What verse search keeps in memory for one database, read once on its thread: every verse's vector, every
commentary note's and lexicon entry's vector, which verses each note covers, which Strong's words each
verse holds, and each verse's neighbours — so a question scores every verse exactly with a few matrix
products instead of several nearest-neighbour searches (docs/PERFORMANCE.md, "Verse search").

At the whole Bible and 384 dimensions that is ≈ 62k vectors, 95 MB as float32. They are not held: the first
time they are wanted they are written to a file of the app's cache (:mod:`amicus_desktop.store.vector_file`,
about a second at the whole Bible, once per library state), and every product maps that file a block at a time —
the process holds 3 MB of them at once, the operating system's page cache the rest, and the products are the
same float32 products over the same values. Where the cache cannot be written they are held in memory as before.
"""

from __future__ import annotations

import logging
import re
import weakref
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..core.vectors import MatrixVectors
from ..store.library import LibraryStore
from ..store.vector_file import BLOCK_ROWS, FileVectors, vector_file

log = logging.getLogger("amicus.verses")

COMMENTARY = ("section_panel",)
LEXICON = ("lexicon_entry",)
#: the vectors' type where they are held in memory
VECTOR_DTYPE: type = np.float32
#: chunk vectors read from the library this many at a time
_READ_BLOCK = 1024
_STRONGS = re.compile(r"([GH]\d+)$")

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float32]
#: the vectors of one kind: in the cache's file, or in memory
Vectors = FileVectors | MatrixVectors


@dataclass
class VerseMemory:
    """Arrays over the verse positions ``0..n-1`` (position ``i`` is verse rowid ``i + 1``)."""

    n: int
    #: the verse position each vector row belongs to (``None`` until the vectors are wanted)
    vector_pos: Ints | None
    prev: Ints  # the verse before in its chapter, or -1
    next: Ints  # the verse after in its chapter, or -1
    #: commentary notes: chunk ids, covered verse positions (CSR)
    note_rowids: Ints
    note_ids: list[str]
    note_ptr: Ints
    note_verses: Ints
    #: lexicon entries: chunk rowids, their Strong's number (index into ``numbers``)
    entry_rowids: Ints
    entry_number: Ints
    numbers: list[str]
    #: how many verses hold each number; each verse's numbers (CSR over positions)
    number_count: Ints
    verse_ptr: Ints
    verse_numbers: Ints
    #: the vectors of the verses, notes and entries (ids: verse rowids, chunk rowids), once wanted
    indexes: dict[str, Vectors] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def for_store(cls, store: LibraryStore, *, vectors: bool) -> VerseMemory:
        """The store's memory, built on first use; vectors loaded the first time they are wanted."""
        memory = _MEMORIES.get(store)
        if memory is None:
            memory = _MEMORIES[store] = cls._build(store)
        if vectors and memory.vector_pos is None:
            memory._load_vectors(store)
        return memory

    @classmethod
    def cached(cls, store: LibraryStore) -> VerseMemory | None:
        """The store's memory if it has been read (``None``: the next :meth:`for_store` reads it)."""
        return _MEMORIES.get(store)

    @classmethod
    def _build(cls, store: LibraryStore) -> VerseMemory:
        index = store.verse_index()
        chapter = index.keys.chapter_codes()[1:]
        n = len(chapter)
        same = chapter[1:] == chapter[:-1]  # verse i + 1 is in verse i's chapter
        at = np.arange(n, dtype=np.int64)
        prev = np.where(np.concatenate(([False], same)), at - 1, -1)
        nxt = np.where(np.concatenate((same, [False])), at + 1, -1)
        span = index.rowid_of.span
        note_rowids, note_ids, ptr, covered = [], [], [0], []
        for rowid, chunk_id, book, ch, first, last in index.notes(COMMENTARY):
            verses = [r - 1 for r in span(book, ch, first, last)]
            if verses:
                note_rowids.append(rowid)
                note_ids.append(chunk_id)
                covered += verses
                ptr.append(len(covered))
        numbers: dict[str, int] = {}
        entry_rowids, entry_number = [], []
        for rowid, source_id in index.entries(LEXICON):
            m = _STRONGS.search(source_id)
            if m is not None:
                entry_rowids.append(rowid)
                entry_number.append(numbers.setdefault(m.group(1), len(numbers)))
        rowids, ids = index.strongs_pairs(numbers)  # each verse's numbers, in the table's order (CSR below)
        inside = (rowids > 0) & (rowids <= n)  # int32 until the result: half the transient memory
        pos, ids = rowids[inside] - 1, ids[inside]
        del rowids, inside
        flat = ids[np.argsort(pos, kind="stable")].astype(np.int64)  # by verse; within one, the table's order
        del ids
        vptr = np.concatenate([[0], np.cumsum(np.bincount(pos, minlength=n))]).astype(np.int64)
        del pos
        counts = np.bincount(flat, minlength=len(numbers)).astype(np.int64)
        return cls(n=n, vector_pos=None, prev=prev, next=nxt,
                   note_rowids=np.asarray(note_rowids, dtype=np.int64), note_ids=note_ids,
                   note_ptr=np.asarray(ptr, dtype=np.int64), note_verses=np.asarray(covered, dtype=np.int64),
                   entry_rowids=np.asarray(entry_rowids, dtype=np.int64),
                   entry_number=np.asarray(entry_number, dtype=np.int64), numbers=list(numbers),
                   number_count=counts, verse_ptr=vptr, verse_numbers=flat)

    def _load_vectors(self, store: LibraryStore) -> None:
        index = store.verse_index()
        dims = store.info.dims
        try:
            file = vector_file(Path(store.info.path), dims, self.note_rowids, self.entry_rowids,
                               lambda: index.vector_blocks(BLOCK_ROWS),
                               lambda rowids: _rows(store, rowids, dims, VECTOR_DTYPE))
        except OSError as exc:  # no cache to write: held in memory
            log.warning("verse vectors held in memory", extra={"reason": str(exc)})
            blocks = list(index.vector_blocks(BLOCK_ROWS, VECTOR_DTYPE))
            rowids = np.concatenate([b[0] for b in blocks]) if blocks else np.zeros(0, dtype=np.int64)
            matrix = np.concatenate([b[1] for b in blocks]) if blocks else np.zeros((0, dims), dtype=VECTOR_DTYPE)
            self.indexes.update(
                verses=MatrixVectors(rowids, matrix),
                notes=MatrixVectors(self.note_rowids, _rows(store, self.note_rowids, dims, VECTOR_DTYPE)),
                entries=MatrixVectors(self.entry_rowids, _rows(store, self.entry_rowids, dims, VECTOR_DTYPE)))
        else:
            rowids = file.verse_rowids
            self.indexes.update(verses=FileVectors(rowids, file.verses),
                                notes=FileVectors(self.note_rowids, file.notes),
                                entries=FileVectors(self.entry_rowids, file.entries))
        self.vector_pos = rowids - 1

    # -- the three indexes, behind the vector seam (amicus_desktop.core.vectors) ---------------------
    @property
    def verse_index(self) -> Vectors | None:
        """The verses' vectors as a :class:`~amicus_desktop.core.vectors.VectorIndex` (ids: verse rowids)."""
        return self.indexes.get("verses")

    @property
    def note_index(self) -> Vectors | None:
        """The commentary notes' vectors (ids: chunk rowids)."""
        return self.indexes.get("notes")

    @property
    def entry_index(self) -> Vectors | None:
        """The lexicon entries' vectors (ids: chunk rowids)."""
        return self.indexes.get("entries")

    @property
    def bytes(self) -> int:
        """The vectors' bytes held in memory (none when they are read from the cache's file)."""
        return sum(v.matrix.nbytes for v in self.indexes.values() if isinstance(v, MatrixVectors))


def _rows(store: LibraryStore, rowids: Ints, dims: int, dtype: type) -> np.ndarray:
    """The chunk vectors of ``rowids`` in that order (a missing one is zeros: it matches nothing), read a
    block at a time straight into the matrix (never ~ 30k vectors held at once beside it)."""
    out: np.ndarray = np.zeros((len(rowids), dims), dtype=dtype)
    for start in range(0, len(rowids), _READ_BLOCK):
        block = rowids[start:start + _READ_BLOCK]
        found = store.vectors(int(r) for r in block)
        for i, r in enumerate(block, start=start):
            v = found.get(int(r))
            if v is not None and v.shape == (dims,):
                out[i] = v
    return out


_MEMORIES: weakref.WeakKeyDictionary[LibraryStore, VerseMemory] = weakref.WeakKeyDictionary()

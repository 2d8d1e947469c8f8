"""What a question needs of one workspace's notes: the seam a notes store of another engine implements.

:func:`amicus_desktop.candidates.notes.gather_notes` searches a workspace's notes the way
:func:`amicus_desktop.candidates.pool.gather` searches the library, and asks them the same kinds of
questions (CONTRACT section 11):

* :class:`NotesSearch` — what :meth:`Workspace.search <amicus_desktop.notes.workspace.Workspace.search>`
  gives: bound to one workspace, it makes one :class:`NotesView` per question and model;
* :class:`NotesView` — that workspace's notes for one embedding model: a
  :class:`~amicus_desktop.core.vectors.VectorIndex` over note rowids (:attr:`~NotesView.vectors`, every
  filter kind applied inside it), a keyword index (:attr:`~NotesView.words`, FTS5's ``bm25()`` over the
  workspace's notes alone), the notes on a passage, the rowids of note ids (pins), each note's id, text
  and reference, and how many notes have no vector of the model yet (*pending*).

With ``embedded_only`` (a question with a vector: ``semantic`` and ``hybrid``) a note without a vector of
the model is no candidate at all — the keyword search and the passages leave it out too — because it
cannot be scored; its statistics (``doc_count``, ``total``) still count it, as the workspace's own FTS5
index would. The filters: a note is of source type ``user_note``, has no scholar nor tradition (so a
scholar or tradition filter leaves every note out), its book is its reference's, and it passes a
filter of marked passages when its reference overlaps one (``Filters.passages``; a note without one is on
none) — another engine implementing :class:`NotesView` must apply that kind too.

:class:`IndexView` is the implementation over the in-memory :class:`~.index.NotesIndex` of the SQLite
store; :class:`NotesVectors` its vector index. Nothing here can name another workspace.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from ..core.query import USER_NOTE, Filters
from ..core.references import PassageRef
from ..core.results import ChunkMetadata
from ..core.vectors import ALL_FILTER_KINDS, Hits, VectorIndex
from .index import NotesIndex
from .search import bm25_of, distances, keyword_search, nearest


@dataclass(frozen=True)
class NoteRow:
    """What a candidate shows of a note: its id, its text and its reference as a chunk's metadata."""

    note_id: str
    text: str
    meta: ChunkMetadata


class NotesWords(Protocol):
    """A workspace's keyword index, in the shape :class:`~amicus_desktop.candidates.lexical.KeywordIndex` reads:
    ``search`` and ``bm25_of`` answer FTS5's ``bm25()`` (negative, lower is better)."""

    def search(self, words: Sequence[str], n: int, filters: Filters = Filters()) -> Hits: ...

    def bm25_of(self, words: Sequence[str], rowids: Iterable[int]) -> Hits: ...

    def doc_count(self, word: str) -> int: ...

    @property
    def total(self) -> int: ...


class NotesView(Protocol):
    """One workspace's notes for one embedding model, as one question searches them (module docstring)."""

    @property
    def vectors(self) -> VectorIndex: ...

    @property
    def words(self) -> NotesWords: ...

    @property
    def pending(self) -> int:
        """Notes with no vector of the model yet."""
        ...

    def covers_any(self, ref: PassageRef) -> bool:
        """Whether any note of the workspace is on ``ref`` (filters aside)."""
        ...

    def covering(self, ref: PassageRef, filters: Filters) -> list[int]:
        """Rowids of the notes on ``ref`` that ``filters`` allow (and are candidates at all), ascending."""
        ...

    def rowids_for(self, note_ids: Sequence[str]) -> dict[str, int]:
        """The rowid of each of ``note_ids`` that is a note of this workspace."""
        ...

    def fetch(self, rowids: Iterable[int]) -> dict[int, NoteRow]:
        """Each of ``rowids`` that is a note of this workspace."""
        ...


class NotesSearch(Protocol):
    """Searches bound to one workspace (:meth:`Workspace.search`)."""

    def view(self, model_id: str, *, embedded_only: bool) -> NotesView:
        """The workspace's notes for ``model_id``, up to date (see the module docstring)."""
        ...


# -- the in-memory index's implementation ---------------------------------------------------------

def allowed_rows(index: NotesIndex, filters: Filters) -> npt.NDArray[np.bool_]:
    """Which slots of ``index`` the filters let be candidates (OR within a kind, AND across kinds)."""
    live = index.live()
    if (filters.source_types and USER_NOTE not in filters.source_types) or filters.scholars or filters.traditions:
        return np.zeros(index.size, dtype=np.bool_)
    allowed = live & np.isin(index.book_ids[: index.size], list(filters.books)) if filters.books else live.copy()
    if filters.passages:  # the reader's marked passages: a note on one of them (a note without a passage is on none)
        allowed &= np.logical_or.reduce([covering_rows(index, p) for p in filters.passages])
    return np.asarray(allowed, dtype=np.bool_)


def covering_rows(index: NotesIndex, ref: PassageRef) -> npt.NDArray[np.bool_]:
    """The live notes on ``ref``: same book and chapter, verses overlapping (a whole chapter on either side
    covers any verse of it) — :meth:`PassageRef.covers` over arrays."""
    size = index.size
    mask = index.live() & (index.book_ids[:size] == ref.book_id) & (index.chapters[:size] == ref.chapter)
    if ref.verse_start is None:
        return np.asarray(mask, dtype=np.bool_)
    start = index.verse_starts[:size]
    end = np.where(index.verse_ends[:size] > 0, index.verse_ends[:size], start)
    ref_end = ref.verse_end if ref.verse_end is not None else ref.verse_start
    return np.asarray(mask & ((start == 0) | ((start <= ref_end) & (end >= ref.verse_start))), dtype=np.bool_)


def _metadata(index: NotesIndex, slot: int) -> ChunkMetadata:
    """A note's reference as a chunk's metadata (no scholar, no tradition; 0 in the arrays is "none")."""
    book = index.book_ids[slot]
    if book is None:
        return ChunkMetadata()
    start, end = int(index.verse_starts[slot]), int(index.verse_ends[slot])
    return ChunkMetadata(book_id=str(book), chapter_num=int(index.chapters[slot]), verse_start=start or None,
                         verse_end=(end or start) or None)


class _Masks:
    """The slots one question's filters allow, computed once per filters (a question asks several times)."""

    def __init__(self, index: NotesIndex, embedded_only: bool) -> None:
        self.index = index
        self.embedded_only = embedded_only
        self._kept: dict[Filters, npt.NDArray[np.bool_]] = {}

    def usable(self, filters: Filters) -> npt.NDArray[np.bool_]:
        mask = self._kept.get(filters)
        if mask is None:
            mask = allowed_rows(self.index, filters)
            if self.embedded_only:
                mask = mask & self.index.embedded[: self.index.size]
            self._kept[filters] = mask
        return mask

    def of_rowids(self, rowids: Iterable[int]) -> npt.NDArray[np.bool_]:
        mask = np.zeros(self.index.size, dtype=np.bool_)
        slots = [s for r in rowids if (s := self.index.slot(int(r))) is not None]
        mask[slots] = True
        return mask & self.index.live()


class NotesVectors:
    """The :class:`~amicus_desktop.core.vectors.VectorIndex` of one :class:`NotesIndex`: cosine over its
    matrix, ids are note rowids, every filter kind applied inside (as masks over the slots)."""

    filter_kinds = ALL_FILTER_KINDS

    def __init__(self, index: NotesIndex, masks: _Masks | None = None) -> None:
        self._index = index
        self._masks = masks or _Masks(index, embedded_only=True)

    def nearest(self, vector: np.ndarray, n: int, filters: Filters = Filters()) -> Hits:
        allowed = self._masks.usable(filters)
        return nearest(self._index, vector, n, allowed) if allowed.any() else []

    def nearest_among(self, vector: np.ndarray, ids: Sequence[int], n: int) -> Hits:
        among = self._masks.of_rowids(ids)
        return nearest(self._index, vector, n, among) if among.any() else []

    def distances(self, vector: np.ndarray, ids: Sequence[int]) -> dict[int, float]:
        return distances(self._index, vector, ids)


class _Words:
    """The index's BM25 in :class:`NotesWords`'s shape; ``search`` only over the slots the filters allow."""

    def __init__(self, index: NotesIndex, masks: _Masks) -> None:
        self._index = index
        self._masks = masks

    def search(self, words: Sequence[str], n: int, filters: Filters = Filters()) -> Hits:
        allowed = self._masks.usable(filters)
        return keyword_search(self._index, words, n, allowed) if allowed.any() else []

    def bm25_of(self, words: Sequence[str], rowids: Iterable[int]) -> Hits:
        return bm25_of(self._index, words, list(rowids))

    def doc_count(self, word: str) -> int:
        return self._index.doc_count(word)

    @property
    def total(self) -> int:
        return self._index.count


class IndexView:
    """A :class:`NotesView` over one workspace's :class:`NotesIndex` (made by ``WorkspaceSearch.view``)."""

    def __init__(self, index: NotesIndex, *, embedded_only: bool) -> None:
        self.index = index
        masks = _Masks(index, embedded_only)
        self._masks = masks
        self.vectors: VectorIndex = NotesVectors(index, masks)  # (a PostgreSQL store asks pgvector: .pgsearch)
        self.words = _Words(index, masks)

    @property
    def pending(self) -> int:
        return self.index.pending

    def covers_any(self, ref: PassageRef) -> bool:
        return bool(covering_rows(self.index, ref).any())

    def covering(self, ref: PassageRef, filters: Filters) -> list[int]:
        among = covering_rows(self.index, ref) & self._masks.usable(filters)
        return [int(r) for r in self.index.rowids[: self.index.size][among]]

    def rowids_for(self, note_ids: Sequence[str]) -> dict[str, int]:
        found = {}
        for note_id in note_ids:
            slot = self.index.slot_of_note(note_id)
            if slot is not None:
                found[note_id] = int(self.index.rowids[slot])
        return found

    def fetch(self, rowids: Iterable[int]) -> dict[int, NoteRow]:
        out = {}
        for rowid in rowids:
            slot = self.index.slot(rowid)
            if slot is not None:
                index = self.index
                out[int(rowid)] = NoteRow(str(index.note_ids[slot]), str(index.texts[slot]), _metadata(index, slot))
        return out

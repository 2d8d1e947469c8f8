"""What a question needs of one workspace's notes: an up-to-date :class:`~.index.NotesIndex`, and the notes.

:meth:`Workspace.search <amicus_desktop.notes.workspace.Workspace.search>` gives a :class:`WorkspaceSearch`
bound to that workspace; nothing here takes a workspace id, so nothing here can read another's notes.
The indexes live in the store's memory (:class:`IndexCache`, keyed by workspace and model, the least
recently used dropped first), each holding one workspace's notes only: its vectors are compared with
vectors of its own model only, and its BM25 statistics count its own notes only, so what one reader
writes never moves another reader's scores.

:meth:`WorkspaceSearch.index` brings the workspace's index up to date in one read transaction (the
change counter and the rows agree): the first time it reads every note of the workspace, after that
only what changed since (a note added by another process is found by the next question).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import apsw
import numpy as np
import numpy.typing as npt

from .index import NotesIndex, tokenizer
from .model import Note

if TYPE_CHECKING:
    from .view import IndexView
    from .workspace import Workspace

#: How many (workspace, model) indexes one store keeps in memory (a service may serve many readers).
INDEXES_KEPT = 16

_NOTE_ROWS = ("SELECT n.rowid, n.book_id, n.chapter_num, n.verse_start, n.verse_end, n.text, v.vector, n.note_id "
              "FROM notes n LEFT JOIN note_vectors v ON v.note_rowid = n.rowid AND v.model_id = ? "
              "WHERE n.workspace_id = ?")


class IndexCache:
    """The store's indexes, by (workspace, model), least recently used dropped first."""

    def __init__(self, size: int = INDEXES_KEPT) -> None:
        self._size = size
        self._kept: OrderedDict[tuple[str, str], NotesIndex] = OrderedDict()
        self._tokenize: apsw.FTS5Tokenizer | None = None

    def get(self, key: tuple[str, str]) -> NotesIndex | None:
        hit = self._kept.get(key)
        if hit is not None:
            self._kept.move_to_end(key)
        return hit

    def put(self, key: tuple[str, str], index: NotesIndex) -> None:
        self._kept[key] = index
        self._kept.move_to_end(key)
        while len(self._kept) > self._size:
            self._kept.popitem(last=False)

    def tokenizer(self, con: apsw.Connection) -> apsw.FTS5Tokenizer:
        if self._tokenize is None:
            self._tokenize = tokenizer(con)
        return self._tokenize


class WorkspaceSearch:
    """Searches over one workspace's notes (made by :meth:`Workspace.search`; same thread as its store)."""

    def __init__(self, workspace: Workspace, cache: IndexCache) -> None:
        self._ws = workspace
        self._cache = cache

    def index(self, model_id: str) -> NotesIndex:
        """The workspace's index for ``model_id``, brought up to date (see the module docstring)."""
        con = self._ws._con
        own = not con.in_transaction
        if own:
            con.execute("BEGIN")
        try:
            row = con.execute("SELECT generation, forgotten FROM workspaces WHERE workspace_id = ?",
                              [self._ws.id]).fetchone()
            generation, forgotten = (int(row[0]), int(row[1])) if row else (0, 0)
            key = (self._ws.id, model_id)
            index = self._cache.get(key)
            if index is None or generation < index.generation or forgotten > index.generation:
                index = NotesIndex(model_id, self._cache.tokenizer(con))
                rows = con.execute(_NOTE_ROWS + " ORDER BY n.rowid", [model_id, self._ws.id]).fetchall()
                index.load(generation, rows)
                self._cache.put(key, index)
            elif generation > index.generation:
                since = index.generation
                changed = con.execute(_NOTE_ROWS + " AND n.changed > ? ORDER BY n.rowid",
                                      [model_id, self._ws.id, since]).fetchall()
                removed = [int(r) for (r,) in con.execute(
                    "SELECT note_rowid FROM removed_notes WHERE workspace_id = ? AND generation > ?",
                    [self._ws.id, since])]
                index.apply(generation, changed, removed)
        finally:
            if own:
                con.execute("COMMIT")
        return index

    def view(self, model_id: str, *, embedded_only: bool) -> IndexView:
        """The workspace's notes for ``model_id`` as one question searches them (:mod:`.view`), up to date."""
        from .view import IndexView  # view.py reads this module's questions over an index

        return IndexView(self.index(model_id), embedded_only=embedded_only)

    # -- the notes themselves -------------------------------------------------------------------
    def fetch(self, rowids: Iterable[int]) -> dict[int, Note]:
        """The notes of ``rowids`` (rows of another workspace are not found)."""
        return self._ws.by_rowid(rowids)

    def rowids_of(self, note_ids: Sequence[str]) -> dict[str, int]:
        """The rowids of those of ``note_ids`` this workspace holds (a pin names a note by its id)."""
        return self._ws.rowids_of(note_ids)


# -- questions over an index (one workspace's notes only) --------------------------------------------

def nearest(index: NotesIndex, vector: npt.NDArray[Any], n: int,
            allowed: npt.NDArray[np.bool_] | None = None) -> list[tuple[int, float]]:
    """The ``n`` embedded live notes nearest ``vector`` among the ``allowed`` slots: ``(rowid, cosine
    distance)``, nearest first (ties by rowid)."""
    sims = index.similarities(vector)
    if sims is None or n < 1:
        return []
    mask = index.live() & index.embedded[: index.size]
    if allowed is not None:
        mask = mask & allowed
    slots = np.flatnonzero(mask)
    if not slots.size:
        return []
    return _top(index, slots, sims[slots].astype(np.float64), n, lambda s: 1.0 - s)


def distances(index: NotesIndex, vector: npt.NDArray[Any], rowids: Iterable[int]) -> dict[int, float]:
    """The cosine distance of each of ``rowids`` that is a live note with a vector of the index's model."""
    sims = index.similarities(vector)
    if sims is None:
        return {}
    out: dict[int, float] = {}
    for rowid in rowids:
        slot = index.slot(rowid)
        if slot is not None and index.embedded[slot]:
            out[int(rowid)] = 1.0 - float(sims[slot])
    return out


def keyword_search(index: NotesIndex, words: Sequence[str], n: int,
                   allowed: npt.NDArray[np.bool_] | None = None) -> list[tuple[int, float]]:
    """The ``n`` live notes holding any of ``words`` with the best BM25 (among the ``allowed`` slots):
    ``(rowid, bm25)`` as FTS5 gives them (negative, lower is better), best first, ties by rowid."""
    if not words or n < 1:
        return []
    scores = index.bm25(words)
    mask = index.live() & (scores < 0)
    if allowed is not None:
        mask = mask & allowed
    slots = np.flatnonzero(mask)
    if not slots.size:
        return []
    return _top(index, slots, -scores[slots], n, lambda s: -s)


def bm25_of(index: NotesIndex, words: Sequence[str], rowids: Collection[int]) -> list[tuple[int, float]]:
    """``(rowid, bm25)`` of those of ``rowids`` (live notes) that hold any of ``words``."""
    if not words or not rowids:
        return []
    scores = index.bm25(words)
    out = []
    for rowid in rowids:
        slot = index.slot(rowid)
        if slot is not None and scores[slot] < 0:
            out.append((int(rowid), float(scores[slot])))
    return out


def _top(index: NotesIndex, slots: npt.NDArray[np.int64], goodness: npt.NDArray[np.float64], n: int,
         shown: Any) -> list[tuple[int, float]]:
    """The ``n`` best ``slots`` by ``goodness`` (ties by rowid), as ``(rowid, shown(goodness))``."""
    if n < slots.size:
        cut = np.argpartition(-goodness, n - 1)[:n]
        threshold = goodness[cut].min()
        cut = np.flatnonzero(goodness >= threshold)  # keep every tie at the edge: rowid decides among them
        slots, goodness = slots[cut], goodness[cut]
    rowids = index.rowids[slots]
    order = np.lexsort((rowids, -goodness))[:n]
    return [(int(rowids[i]), float(shown(goodness[i]))) for i in order]

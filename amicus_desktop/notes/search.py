"""What a question needs of one workspace's notes: their vectors by meaning, their words by BM25.

:meth:`Workspace.search <amicus_desktop.notes.workspace.Workspace.search>` gives a :class:`WorkspaceSearch`
bound to that workspace; nothing here takes a workspace id, so nothing here can read another's notes.

* **By meaning** — a :class:`Snapshot` of the workspace for one embedding model: every note's passage
  and, for the notes embedded with that model, a float32 matrix of unit vectors. The nearest notes are
  one matrix product (brute force: 10,000 × 384 takes well under a millisecond on one core). The
  snapshot is kept in memory by the store, keyed by workspace and model, and read again when the
  workspace's change counter moved (a note added in this process or another is found by the next
  question). A vector is only ever compared with vectors of its own model.
* **By words** — the workspace's own FTS5 index (:func:`~.schema.keyword_table`), with BM25 as FTS5
  computes it over that workspace's notes alone, and the counts the lexical score is normalised by.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .model import Note
from .schema import keyword_table

if TYPE_CHECKING:
    from .workspace import Workspace

#: How many (workspace, model) snapshots one store keeps in memory (a service may serve many readers).
SNAPSHOTS_KEPT = 16


@dataclass(frozen=True)
class Snapshot:
    """One workspace's notes as arrays, for one embedding model, at one ``generation``.

    Row ``i`` of every array is the note ``rowids[i]``; ``book_ids[i]`` is ``None`` and the numbers 0
    for a note on no passage (a whole chapter has verses 0). ``embedded`` marks the notes with a vector
    of ``model_id``; ``matrix`` holds those vectors, unit length, in the order of ``np.flatnonzero(embedded)``.
    """

    generation: int
    model_id: str
    rowids: npt.NDArray[np.int64]
    book_ids: tuple[str | None, ...]
    chapters: npt.NDArray[np.int64]
    verse_starts: npt.NDArray[np.int64]
    verse_ends: npt.NDArray[np.int64]
    embedded: npt.NDArray[np.bool_]
    matrix: npt.NDArray[np.float32]
    _row_of: dict[int, int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._row_of.update({int(r): i for i, r in enumerate(self.rowids)})

    def __len__(self) -> int:
        return int(self.rowids.shape[0])

    @property
    def pending(self) -> int:
        """How many notes have no vector of this model yet."""
        return int(len(self) - np.count_nonzero(self.embedded))

    def row(self, rowid: int) -> int | None:
        return self._row_of.get(int(rowid))


_EMPTY_MATRIX = np.zeros((0, 0), dtype=np.float32)


class SnapshotCache:
    """The store's snapshots, by (workspace, model), least recently used dropped first."""

    def __init__(self, size: int = SNAPSHOTS_KEPT) -> None:
        self._size = size
        self._kept: OrderedDict[tuple[str, str], Snapshot] = OrderedDict()

    def get(self, key: tuple[str, str], generation: int) -> Snapshot | None:
        hit = self._kept.get(key)
        if hit is None or hit.generation != generation:
            return None
        self._kept.move_to_end(key)
        return hit

    def put(self, key: tuple[str, str], snapshot: Snapshot) -> None:
        self._kept[key] = snapshot
        self._kept.move_to_end(key)
        while len(self._kept) > self._size:
            self._kept.popitem(last=False)


class WorkspaceSearch:
    """Searches over one workspace's notes (made by :meth:`Workspace.search`; same thread as its store)."""

    def __init__(self, workspace: Workspace, cache: SnapshotCache) -> None:
        self._ws = workspace
        self._cache = cache
        self._table = keyword_table(workspace.id)
        self._counts: dict[str, int] = {}
        self._counted_at = -1

    # -- by meaning ---------------------------------------------------------------------------
    def snapshot(self, model_id: str) -> Snapshot:
        """The workspace's notes for ``model_id``, from memory unless the workspace changed since."""
        con = self._ws._con
        own = not con.in_transaction
        if own:
            con.execute("BEGIN")  # one read transaction: the counter and the rows agree
        try:
            generation = self._ws.generation
            key = (self._ws.id, model_id)
            hit = self._cache.get(key, generation)
            if hit is not None:
                return hit
            rows = list(con.execute(
                "SELECT n.rowid, n.book_id, n.chapter_num, n.verse_start, n.verse_end, v.vector "
                "FROM notes n LEFT JOIN note_vectors v ON v.note_rowid = n.rowid AND v.model_id = ? "
                "WHERE n.workspace_id = ? ORDER BY n.rowid",
                [model_id, self._ws.id],
            ))
        finally:
            if own:
                con.execute("COMMIT")
        snapshot = _snapshot(generation, model_id, rows)
        self._cache.put(key, snapshot)
        return snapshot

    @staticmethod
    def nearest(snapshot: Snapshot, vector: npt.NDArray[np.float32], n: int,
                allowed: npt.NDArray[np.bool_] | None = None) -> list[tuple[int, float]]:
        """The ``n`` embedded notes nearest ``vector`` among the ``allowed`` rows: ``(rowid, cosine
        distance)``, nearest first (ties by rowid)."""
        mask = snapshot.embedded if allowed is None else snapshot.embedded & allowed
        if n < 1 or snapshot.matrix.shape[0] == 0 or not mask.any():
            return []
        similarity = snapshot.matrix @ _unit(vector)
        rows = np.flatnonzero(snapshot.embedded)  # matrix row i is note row rows[i]
        keep = mask[rows]
        sims, ids = similarity[keep], snapshot.rowids[rows[keep]]
        if n < sims.shape[0]:
            top = np.argpartition(-sims, n - 1)[:n]
            sims, ids = sims[top], ids[top]
        order = np.lexsort((ids, -sims))
        return [(int(ids[i]), 1.0 - float(sims[i])) for i in order]

    @staticmethod
    def distances(snapshot: Snapshot, vector: npt.NDArray[np.float32], rowids: Iterable[int]) -> dict[int, float]:
        """The cosine distance of each of ``rowids`` that has a vector of the snapshot's model."""
        rows = np.flatnonzero(snapshot.embedded)
        position = {int(snapshot.rowids[r]): i for i, r in enumerate(rows)}
        wanted = [(int(r), position[int(r)]) for r in rowids if int(r) in position]
        if not wanted:
            return {}
        sims = snapshot.matrix[[p for _, p in wanted]] @ _unit(vector)
        return {r: 1.0 - float(s) for (r, _), s in zip(wanted, sims, strict=True)}

    # -- by words (the shape of the library's full-text index, so one rule normalises both) ------
    def search(self, words: Sequence[str], n: int, allowed: Collection[int] | None = None) -> list[tuple[int, float]]:
        """The ``n`` best notes holding any of ``words`` (among ``allowed`` rowids): ``(rowid, bm25)``, best first."""
        if not words or n < 1 or (allowed is not None and not allowed):
            return []
        sql = f"SELECT rowid, bm25({self._table}) AS s FROM {self._table} WHERE {self._table} MATCH ?"
        params: list[object] = [match_expression(words)]
        if allowed is not None:
            sql += " AND rowid IN (SELECT value FROM json_each(?))"
            params.append(_json_ints(allowed))
        rows = self._ws._con.execute(sql + " ORDER BY s, rowid LIMIT ?", [*params, int(n)])
        return [(int(r), float(s)) for r, s in rows]

    def bm25_of(self, words: Sequence[str], rowids: Iterable[int]) -> list[tuple[int, float]]:
        """``(rowid, bm25)`` of those of ``rowids`` that hold any of ``words``."""
        ids = _json_ints(rowids)
        if not words or ids == "[]":
            return []
        rows = self._ws._con.execute(
            f"SELECT rowid, bm25({self._table}) FROM {self._table} WHERE {self._table} MATCH ? "
            "AND rowid IN (SELECT value FROM json_each(?))", [match_expression(words), ids])
        return [(int(r), float(s)) for r, s in rows]

    def _fresh_counts(self) -> None:
        generation = self._ws.generation
        if generation != self._counted_at:
            self._counts, self._counted_at = {}, generation

    def doc_count(self, word: str) -> int:
        """How many of the workspace's notes hold ``word`` (after stemming)."""
        self._fresh_counts()
        if word not in self._counts:
            row = self._ws._con.execute(
                f"SELECT count(*) FROM {self._table} WHERE {self._table} MATCH ?", [match_expression([word])]
            ).fetchone()
            self._counts[word] = int(row[0]) if row else 0
        return self._counts[word]

    @property
    def total(self) -> int:
        """How many notes the workspace holds (the ``N`` of FTS5's idf)."""
        return self._ws.count()

    # -- the notes themselves -------------------------------------------------------------------
    def fetch(self, rowids: Iterable[int]) -> dict[int, Note]:
        """The notes of ``rowids`` (rows of another workspace are not found)."""
        return self._ws.by_rowid(rowids)

    def rowids_of(self, note_ids: Sequence[str]) -> dict[str, int]:
        """The rowids of those of ``note_ids`` this workspace holds (a pin names a note by its id)."""
        return self._ws.rowids_of(note_ids)


def match_expression(words: Sequence[str]) -> str:
    """An FTS5 query matching a note that holds any of ``words``, each read as plain text.

    (The library's keyword search writes the same; both move to one function in the store's FTS module.)
    """
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in words)


def _unit(vector: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    v = np.asarray(vector, dtype=np.float32).reshape(-1)
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


def _json_ints(values: Iterable[int]) -> str:
    return "[" + ",".join(str(int(v)) for v in sorted(set(values))) + "]"


def _snapshot(generation: int, model_id: str, rows: list[Any]) -> Snapshot:
    n = len(rows)
    rowids = np.fromiter((int(r[0]) for r in rows), dtype=np.int64, count=n)
    books = tuple(None if r[1] is None else str(r[1]) for r in rows)
    chapters = np.fromiter((int(r[2] or 0) for r in rows), dtype=np.int64, count=n)
    starts = np.fromiter((int(r[3] or 0) for r in rows), dtype=np.int64, count=n)
    ends = np.fromiter((int(r[4] or 0) for r in rows), dtype=np.int64, count=n)
    blobs = [r[5] for r in rows]
    lengths = Counter(len(b) // 4 for b in blobs if isinstance(b, bytes))
    dims = lengths.most_common(1)[0][0] if lengths else 0
    # a vector of another length than the model's is damage: that note counts as not embedded
    embedded = np.fromiter((isinstance(b, bytes) and len(b) == 4 * dims for b in blobs), dtype=np.bool_, count=n)
    if dims and embedded.any():
        matrix = np.frombuffer(b"".join(b for b, e in zip(blobs, embedded, strict=True) if e),
                               dtype=np.float32).reshape(-1, dims).copy()
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        matrix /= np.where(norms > 0, norms, 1.0)
    else:
        matrix = _EMPTY_MATRIX
    return Snapshot(generation, model_id, rowids, books, chapters, starts, ends, embedded, matrix)

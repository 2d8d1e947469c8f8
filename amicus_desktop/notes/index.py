"""One workspace's notes in memory, for one embedding model: ids, text, passages, vectors and words, kept up to date.

:class:`NotesIndex` is what makes a question over 10,000 notes cost a few milliseconds
(docs/PERFORMANCE.md): the nearest notes are one float32 matrix product, and the keyword search is
BM25 over posting arrays — FTS5's own ``bm25()`` (same tokenizer, same formula, same statistics of the
workspace alone), computed with numpy instead of SQLite, where a common word made one query cost 10 ms.

It follows the store without reading it all again: every change of a workspace bumps its
``generation``, every note records the generation of its last change, and a removal leaves a
tombstone (:mod:`.schema`, version 2). :meth:`NotesIndex.refresh` reads what changed since the index's
generation — in this process or another — and patches the arrays; the whole workspace is read again
only the first time, after the tombstones were cleared, or when many slots are dead.

Slots: each note lives in one slot of the arrays; an edited note gets a new slot and its old one is
marked dead (``alive``), so nothing shifts under a question. Posting lists are CSR arrays sorted by term
(rebuilt when the appended "tail" grows) plus the tail.
"""

from __future__ import annotations

import copy
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, cast

import apsw
import numpy as np
import numpy.typing as npt

from ..store.fts import FTS_TOKENIZE

#: FTS5's bm25() constants (its defaults).
K1 = 1.2
B = 0.75
#: Rebuild the sorted posting arrays when the appended tail is this share of them (or dead slots are).
COMPACT_SHARE = 0.2

Rows = Sequence[tuple[Any, ...]]
#: the per-slot arrays (each ``size`` long at least, one entry per slot).
SLOT_ARRAYS = ("rowids", "alive", "book_ids", "note_ids", "texts", "chapters", "verse_starts", "verse_ends",
               "embedded", "lengths")


def tokenizer(con: apsw.Connection) -> apsw.FTS5Tokenizer:
    """The keyword index's tokenizer (:data:`~amicus_desktop.store.fts.FTS_TOKENIZE`) on ``con``."""
    name, *args = FTS_TOKENIZE.split()
    return con.fts5_tokenizer(name, args)


def _tokens(tokenize: apsw.FTS5Tokenizer, text: str, reason: int) -> list[str]:
    # without offsets and colocated tokens the tokenizer gives plain strings
    return cast(list[str], tokenize(text.encode("utf-8"), reason, None, include_offsets=False,
                                    include_colocated=False))


class NotesIndex:
    """One workspace's notes for ``model_id``, as arrays over slots (see the module docstring)."""

    def __init__(self, model_id: str, tokenize: apsw.FTS5Tokenizer) -> None:
        self.model_id = model_id
        self._tokenize = tokenize
        self.generation = -1
        self._reset()

    def _reset(self) -> None:
        self.size = 0
        self.rowids = np.zeros(0, dtype=np.int64)
        self.alive = np.zeros(0, dtype=np.bool_)
        self.book_ids = np.zeros(0, dtype=object)
        self.note_ids = np.zeros(0, dtype=object)
        self.texts = np.zeros(0, dtype=object)
        self.chapters = np.zeros(0, dtype=np.int64)
        self.verse_starts = np.zeros(0, dtype=np.int64)
        self.verse_ends = np.zeros(0, dtype=np.int64)
        self.embedded = np.zeros(0, dtype=np.bool_)
        self.lengths = np.zeros(0, dtype=np.float64)
        self.matrix = np.zeros((0, 0), dtype=np.float32)
        self._slot_of: dict[int, int] = {}
        self._vocab: dict[str, int] = {}
        # CSR postings by term id (sorted), and the tail appended since
        self._ptr = np.zeros(1, dtype=np.int64)
        self._slots = np.zeros(0, dtype=np.int64)
        self._tf = np.zeros(0, dtype=np.float64)
        # postings appended since the CSR arrays were built: (term ids, slots, term frequencies) per append
        self._tail: list[tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]] = []
        self._tail_size = 0
        self._tail_arrays: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]] | None = None
        self._dead = 0
        self._memo: tuple[tuple[int, int, tuple[str, ...]], npt.NDArray[np.float64]] | None = None
        self._sims: tuple[tuple[int, int, bytes], npt.NDArray[np.float32]] | None = None

    # -- keeping up -------------------------------------------------------------------------------
    def load(self, generation: int, rows: Rows) -> None:
        """Every note of the workspace (``rows`` as :meth:`apply` reads them), at ``generation``."""
        self._reset()
        self._append(rows)
        self.generation = generation
        self._compact()

    def apply(self, generation: int, rows: Rows, removed: Iterable[int]) -> None:
        """Patch in the notes changed since (``rows``: ``rowid, book_id, chapter_num, verse_start, verse_end,
        text, vector, note_id``) and drop the ``removed`` rowids; the index is then at ``generation``."""
        for rowid in removed:
            self._kill(int(rowid))
        for row in rows:
            self._kill(int(row[0]))
        if rows:
            self._append(rows)
        self.generation = generation
        tail = self._tail_size
        if self._dead > COMPACT_SHARE * max(self.size, 1) or tail > COMPACT_SHARE * max(len(self._slots), 256):
            self._compact()

    def copy(self) -> NotesIndex:
        """A copy sharing nothing that :meth:`apply` changes in place: patch it while questions keep reading this
        one, then put it in this one's place (copy-on-write, for indexes that several threads read)."""
        other = copy.copy(self)
        for name in (*SLOT_ARRAYS, "matrix", "_ptr", "_slots", "_tf"):
            setattr(other, name, getattr(self, name).copy())
        other._slot_of, other._vocab, other._tail = dict(self._slot_of), dict(self._vocab), list(self._tail)
        other._memo = other._sims = None
        return other

    def _kill(self, rowid: int) -> None:
        slot = self._slot_of.pop(rowid, None)
        if slot is not None and self.alive[slot]:
            self.alive[slot] = False
            self._dead += 1

    def _grow(self, need: int) -> None:
        capacity = self.rowids.shape[0]
        if need <= capacity:
            return
        new = max(need, 2 * capacity, 64)

        def widen(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
            out = np.zeros((new, *a.shape[1:]), dtype=a.dtype)
            out[: a.shape[0]] = a
            return out

        self.rowids, self.alive, self.book_ids = widen(self.rowids), widen(self.alive), widen(self.book_ids)
        self.note_ids, self.texts = widen(self.note_ids), widen(self.texts)
        self.chapters, self.verse_starts = widen(self.chapters), widen(self.verse_starts)
        self.verse_ends, self.embedded, self.lengths = widen(self.verse_ends), widen(self.embedded), widen(self.lengths)
        if self.matrix.shape[1]:
            self.matrix = widen(self.matrix)

    def _append(self, rows: Rows) -> None:
        start, count = self.size, len(rows)
        self._grow(start + count)
        end = start + count
        self.size = end
        slots = range(start, end)
        self._slot_of.update(zip((int(r[0]) for r in rows), slots, strict=True))
        self.rowids[start:end] = [int(r[0]) for r in rows]
        self.alive[start:end] = True
        self.book_ids[start:end] = [None if r[1] is None else str(r[1]) for r in rows]
        self.texts[start:end] = [str(r[5]) for r in rows]
        self.note_ids[start:end] = [str(r[7]) for r in rows]
        self.chapters[start:end] = [int(r[2] or 0) for r in rows]
        self.verse_starts[start:end] = [int(r[3] or 0) for r in rows]
        self.verse_ends[start:end] = [int(r[4] or 0) for r in rows]
        vocab = self._vocab
        ids: list[int] = []
        lengths: list[int] = []
        for row in rows:
            tokens = _tokens(self._tokenize, str(row[5]), apsw.FTS5_TOKENIZE_DOCUMENT)
            lengths.append(len(tokens))
            ids.extend([vocab.setdefault(t, len(vocab)) for t in tokens])
        self.lengths[start:end] = lengths
        # one posting per (slot, term), its frequency counted by numpy
        width = len(vocab) + 1
        token_slots = np.repeat(np.arange(start, end, dtype=np.int64), lengths)
        keys, tf = np.unique(token_slots * width + np.asarray(ids, dtype=np.int64), return_counts=True)
        self._tail.append((keys % width, keys // width, tf.astype(np.float64)))
        self._tail_size += int(keys.size)
        self._tail_arrays = None
        self._add_vectors(start, [r[6] for r in rows])

    def _add_vectors(self, start: int, blobs: Sequence[object]) -> None:
        """The vectors of the slots from ``start`` (a blob of another length than the others is damage:
        that note counts as not embedded)."""
        lengths = Counter(len(b) for b in blobs if isinstance(b, bytes) and b and len(b) % 4 == 0)
        if not lengths:
            return
        dims = self.matrix.shape[1] or lengths.most_common(1)[0][0] // 4
        if not self.matrix.shape[1]:
            self.matrix = np.zeros((self.rowids.shape[0], dims), dtype=np.float32)
        good = [i for i, b in enumerate(blobs) if isinstance(b, bytes) and len(b) == 4 * dims]
        if not good:
            return
        vectors = np.frombuffer(b"".join(blobs[i] for i in good), dtype=np.float32).reshape(-1, dims)  # type: ignore[misc]
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        where = np.asarray(good, dtype=np.int64) + start
        self.matrix[where] = vectors / np.where(norms > 0, norms, 1.0)
        self.embedded[where] = True

    def _compact(self) -> None:
        """Drop dead slots and sort every posting into the CSR arrays."""
        keep = np.flatnonzero(self.alive[: self.size])
        terms, slots, tf = self._all_postings()
        live = self.alive[slots] if slots.size else np.zeros(0, dtype=np.bool_)
        terms, slots, tf = terms[live], slots[live], tf[live]
        remap = np.full(self.size, -1, dtype=np.int64)
        remap[keep] = np.arange(keep.size)
        slots = remap[slots]
        spare = keep.size + max(64, keep.size // 4)  # room for the next notes without copying everything
        for name in SLOT_ARRAYS:
            old = getattr(self, name)
            fresh = np.zeros(spare, dtype=old.dtype)
            fresh[: keep.size] = old[keep]
            setattr(self, name, fresh)
        if self.matrix.shape[1]:
            matrix = np.zeros((spare, self.matrix.shape[1]), dtype=np.float32)
            matrix[: keep.size] = self.matrix[keep]
            self.matrix = matrix
        self.size = int(keep.size)
        self._slot_of = {int(r): i for i, r in enumerate(self.rowids)}
        order = np.lexsort((slots, terms))
        terms, self._slots, self._tf = terms[order], slots[order], tf[order]
        self._ptr = np.searchsorted(terms, np.arange(len(self._vocab) + 1)).astype(np.int64)
        self._tail, self._tail_size, self._tail_arrays, self._dead = [], 0, None, 0

    def _all_postings(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        counts = np.diff(self._ptr)
        base_terms = np.repeat(np.arange(counts.size, dtype=np.int64), counts)
        t_terms, t_slots, t_tf = self._tail_postings()
        return (np.concatenate([base_terms, t_terms]), np.concatenate([self._slots, t_slots]),
                np.concatenate([self._tf, t_tf]))

    def _tail_postings(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        if self._tail_arrays is None:
            parts = self._tail or [(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.float64))]
            self._tail_arrays = (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
                                 np.concatenate([p[2] for p in parts]))
        return self._tail_arrays

    # -- reading ------------------------------------------------------------------------------------
    def live(self) -> npt.NDArray[np.bool_]:
        """The slots holding a note now (``alive`` up to ``size``)."""
        return self.alive[: self.size]

    @property
    def count(self) -> int:
        return int(np.count_nonzero(self.live()))

    @property
    def pending(self) -> int:
        """Notes with no vector of this model yet."""
        return int(np.count_nonzero(self.live() & ~self.embedded[: self.size]))

    def slot(self, rowid: int) -> int | None:
        return self._slot_of.get(int(rowid))

    def slot_of_note(self, note_id: str) -> int | None:
        """The live slot of the note ``note_id`` of this workspace (a pin names a note by its id)."""
        found = np.flatnonzero(self.live() & (self.note_ids[: self.size] == note_id))
        return int(found[0]) if found.size else None

    def similarities(self, vector: npt.NDArray[Any]) -> npt.NDArray[np.float32] | None:
        """Cosine similarity of every slot to ``vector`` (meaningless where not ``embedded``); ``None`` when
        no note has a vector this long (none embedded, or ``vector`` is of another length: nothing compares)."""
        v = np.asarray(vector, dtype=np.float32).reshape(-1)
        if not self.matrix.shape[1] or self.size == 0 or v.shape[0] != self.matrix.shape[1]:
            return None
        key = (self.generation, self.size, v.tobytes())
        memo = self._sims  # read once: another thread's question may replace it meanwhile
        if memo is not None and memo[0] == key:  # one question asks twice (nearest, then distances)
            return memo[1]
        norm = float(np.linalg.norm(v))
        sims = np.asarray(self.matrix[: self.size] @ (v / norm if norm > 0 else v), dtype=np.float32)
        self._sims = (key, sims)
        return sims

    # -- words (FTS5's bm25, over this workspace's live notes) -----------------------------------------
    def terms(self, words: Sequence[str]) -> list[int]:
        """The term ids of ``words`` as the tokenizer reads a query (stemmed, folded), known ones only.

        As in FTS5, each word is a phrase of its own: two words of one stem ("grace", "graces") count twice.
        """
        out: list[int] = []
        for word in words:
            for token in _tokens(self._tokenize, word, apsw.FTS5_TOKENIZE_QUERY):
                term = self._vocab.get(token)
                if term is not None:
                    out.append(term)
        return out

    def postings(self, term: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """``(slots, tf)`` of the live notes holding term ``term``."""
        lo, hi = (int(self._ptr[term]), int(self._ptr[term + 1])) if term + 1 < self._ptr.size else (0, 0)
        slots, tf = self._slots[lo:hi], self._tf[lo:hi]
        if self._tail:
            t_terms, t_slots, t_tf = self._tail_postings()
            mine = t_terms == term
            if mine.any():
                slots, tf = np.concatenate([slots, t_slots[mine]]), np.concatenate([tf, t_tf[mine]])
        if self._dead:
            live = self.alive[slots]
            slots, tf = slots[live], tf[live]
        return slots, tf

    def doc_count(self, word: str) -> int:
        """How many live notes hold ``word`` (after stemming): FTS5's ``n`` of the idf."""
        terms = self.terms([word])
        return sum(int(self.postings(t)[0].size) for t in terms[:1])

    def bm25(self, words: Sequence[str]) -> npt.NDArray[np.float64]:
        """FTS5's ``bm25()`` of every slot for a query holding any of ``words`` (negative: lower is better;
        0 for a slot holding none of them)."""
        key = (self.generation, self.size, tuple(words))
        memo = self._memo  # read once: another thread's question may replace it meanwhile
        if memo is not None and memo[0] == key:
            return memo[1]
        score = np.zeros(self.size, dtype=np.float64)
        n = self.count
        if not n:
            return score
        avgdl = float(self.lengths[: self.size][self.live()].sum()) / n
        for term in self.terms(words):
            slots, tf = self.postings(term)
            if not slots.size:
                continue
            idf = max(1e-6, math.log((n - slots.size + 0.5) / (slots.size + 0.5)))
            dl = self.lengths[slots]
            score[slots] += idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * dl / max(avgdl, 1e-9)))
        negative = -score
        self._memo = (key, negative)  # one question asks for the same words up to three times
        return negative

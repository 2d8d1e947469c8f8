"""Verse search's view of a library on PostgreSQL: :class:`PgVerseIndex`, the :class:`~..verse_reader.VerseReader`
the SQLite library's :class:`~amicus_desktop.store.verses.VerseIndex` also is, over :mod:`.export_verses`'s tables.

The keys, translations and Strong's pairs are read as SQLite's are (the same rows, the same order). Words: the
question's words and phrases are tokenized by SQLite's own FTS5 tokenizer in query mode (as ``MATCH`` tokenizes
them) and looked up in ``verse_fts_postings``; a phrase of several tokens is held where they stand in a row (the
positions kept at export), its frequency the number of such runs — FTS5's phrase semantics. BM25 is FTS5's,
computed here in the same order of operations (:func:`bm25`)::

    idf(p) = log((N - n(p) + 0.5) / (n(p) + 0.5)), at least 1e-6       N: the translation's verses
    bm25   = -Σ_p idf(p) · tf·(k1 + 1) / (tf + k1·(1 - b + b·D / avgdl))

and the keyword score normalised as :meth:`~amicus_desktop.store.verses.VerseIndex.normaliser` does. Each
translation's token counts are read once (a few hundred kB at the whole Bible).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

import apsw
import numpy as np

from .. import fts
from ..verse_keys import RowidOf, VerseKeys
from ..verse_scores import K1, best_score, phrase_shares
from ..verses import Translation

if TYPE_CHECKING:
    from .library import PgLibrary

B = 0.75


def bm25(idfs: Sequence[float], freqs: Sequence[int], tokens: int, avgdl: float) -> float:
    """FTS5's ``bm25()`` of one row (``freqs``: each phrase's hits in it), its operations in FTS5's order."""
    score = 0.0
    d = float(tokens)
    for idf, tf in zip(idfs, freqs, strict=True):
        score += 1.0 * idf * ((tf * (K1 + 1.0)) / (tf + K1 * (1 - B + B * d / avgdl)))
    return -1.0 * score


class PgVerseIndex:
    """Verse search's view of one :class:`~.library.PgLibrary` (see the module docstring)."""

    def __init__(self, store: PgLibrary) -> None:
        self.store = store
        self._tokenize = fts.tokenizer(apsw.Connection(":memory:"))
        rows = store.query("SELECT translation_id, name, abbreviation, verse_table, is_default FROM translations "
                           "ORDER BY position")
        self.translations = {str(t): Translation(str(t), str(n), str(a), str(v), bool(d)) for t, n, a, v, d in rows}
        ((last,),) = store.query("SELECT coalesce(max(rowid), 0) FROM verse_keys")
        self.keys = VerseKeys(((int(r), str(b), int(c), int(v)) for r, b, c, v in store.query(
            "SELECT rowid, book_id, chapter_num, verse_num FROM verse_keys ORDER BY rowid")), int(last))
        self.rowid_of = RowidOf(self.keys)
        ((vectors, strongs),) = store.query("SELECT EXISTS (SELECT 1 FROM verse_embeddings), "
                                            "EXISTS (SELECT 1 FROM verse_strongs)")
        self.has_vectors, self.has_strongs = bool(vectors), bool(strongs)
        self.fts_where: dict[str, str] = {}
        self._stats: dict[str, tuple[int, float, dict[int, int]]] = {}
        self._hits_of: dict[tuple[str, tuple[str, ...]], dict[int, int]] = {}

    @property
    def count(self) -> int:
        return len(self.keys) - 1

    @property
    def default(self) -> Translation | None:
        return next((t for t in self.translations.values() if t.default), None)

    # -- vectors, notes, Strong's numbers -------------------------------------------------------
    def vector_blocks(self, block: int, dtype: type = np.float32) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Every verse vector, ``block`` rows at a time, by rowid (one statement a block)."""
        after = 0
        while True:
            rows = self.store.query("SELECT rowid, embedding::real[] FROM verse_embeddings WHERE rowid > %s "
                                    "ORDER BY rowid LIMIT %s", [after, int(block)])
            if not rows:
                return
            rowids = np.asarray([int(r) for r, _ in rows], dtype=np.int64)
            yield rowids, np.asarray([v for _, v in rows], dtype=np.float32).astype(dtype, copy=False)
            after = int(rowids[-1])

    def notes(self, source_types: Sequence[str]) -> list[tuple[int, str, str, int, int, int]]:
        return [(int(r), str(c), str(b), int(ch), int(v0), int(v1 if v1 is not None else v0)) for r, c, b, ch, v0, v1 in
                self.store.query(
                    "SELECT t.rowid, t.chunk_id, m.book_id, m.chapter_num, m.verse_start, m.verse_end "
                    "FROM chunk_text t JOIN chunk_metadata m ON m.rowid = t.rowid "
                    "WHERE t.source_type = ANY(%s::text[]) AND m.book_id IS NOT NULL AND m.chapter_num IS NOT NULL "
                    "AND m.verse_start IS NOT NULL ORDER BY t.rowid", [list(source_types)])]

    def entries(self, source_types: Sequence[str]) -> list[tuple[int, str]]:
        return [(int(r), str(sid)) for r, sid in self.store.query(
            "SELECT rowid, source_id FROM chunk_text WHERE source_type = ANY(%s::text[]) ORDER BY rowid",
            [list(source_types)])]

    def strongs_pairs(self, numbers: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
        rows = self.store.query("SELECT strongs, verse_rowid FROM verse_strongs ORDER BY verse_rowid, strongs")
        rowids = np.asarray([int(r) for _, r in rows], dtype=np.int32)
        ids = np.asarray([numbers.setdefault(str(s), len(numbers)) for s, _ in rows], dtype=np.int32)
        return rowids, ids

    # -- words ------------------------------------------------------------------------------------
    def _tokens(self, text: str) -> tuple[str, ...]:
        found = self._tokenize(text.encode("utf-8"), apsw.FTS5_TOKENIZE_QUERY, None,
                               include_offsets=False, include_colocated=False)
        return tuple(t for t in found if isinstance(t, str))

    def _statistics(self, translation: Translation) -> tuple[int, float, dict[int, int]]:
        """The translation's verses, tokens per verse on average, and each verse's token count."""
        tid = translation.translation_id
        if tid not in self._stats:
            found = self.store.query("SELECT rows, tokens FROM verse_fts_stats WHERE translation_id = %s", [tid])
            rows, tokens = (int(found[0][0]), int(found[0][1])) if found else (0, 0)
            sizes = {int(r): int(n) for r, n in self.store.query(
                "SELECT rowid, tokens FROM verse_fts_docs WHERE translation_id = %s", [tid])}
            self._stats[tid] = (rows, float(tokens) / float(rows) if rows else 1.0, sizes)
            self.fts_where[tid] = "database"
        return self._stats[tid]

    def _hits(self, translation: Translation, tokens: tuple[str, ...]) -> dict[int, int]:
        """Each verse holding the phrase ``tokens`` (in a row) and how many times."""
        key = (translation.translation_id, tokens)
        if key in self._hits_of:
            return self._hits_of[key]
        if not tokens:
            return {}
        if len(tokens) == 1:
            sql = ("SELECT p0.rowid, cardinality(p0.positions) FROM verse_fts_postings p0 "
                   "WHERE p0.translation_id = %s AND p0.term = %s")
            params: list[object] = [translation.translation_id, tokens[0]]
        else:
            joins = "".join(f" JOIN verse_fts_postings p{i} ON p{i}.translation_id = p0.translation_id "
                            f"AND p{i}.rowid = p0.rowid AND p{i}.term = %s" for i in range(1, len(tokens)))
            runs = " AND ".join(f"x + {i} = ANY(p{i}.positions)" for i in range(1, len(tokens)))
            sql = (f"SELECT rowid, n FROM (SELECT p0.rowid, (SELECT count(*) FROM unnest(p0.positions) x "
                   f"WHERE {runs}) AS n FROM verse_fts_postings p0{joins} "
                   "WHERE p0.translation_id = %s AND p0.term = %s) h WHERE n > 0")
            params = [*tokens[1:], translation.translation_id, tokens[0]]
        found = {int(r): int(n) for r, n in self.store.query(sql, params)}
        if len(self._hits_of) > 4096:
            self._hits_of.clear()
        self._hits_of[key] = found
        return found

    def doc_count(self, translation: Translation, word: str) -> int:
        self._statistics(translation)
        return len(self._hits(translation, self._tokens(word)))

    def normaliser(self, translation: Translation, words: Sequence[str]) -> float:
        """As :meth:`~amicus_desktop.store.verses.VerseIndex.normaliser` (:func:`~..verse_scores.best_score`)."""
        return best_score(lambda w: self.doc_count(translation, w), self.count, words)

    def _bm25(self, translation: Translation, words: Sequence[str]) -> dict[int, float]:
        """FTS5's ``bm25()`` of every verse matching ``"w1" OR "w2" …`` (each word a phrase)."""
        rows, avgdl, sizes = self._statistics(translation)
        phrases = [self._tokens(w) for w in words]
        hits = [self._hits(translation, p) for p in phrases]
        idfs = []
        for found in hits:
            idf = math.log((rows - len(found) + 0.5) / (len(found) + 0.5))
            idfs.append(idf if idf > 0.0 else 1e-6)
        matched = set().union(*hits) if hits else set()
        return {r: bm25(idfs, [h.get(r, 0) for h in hits], sizes.get(r, 0), avgdl) for r in matched}

    def keyword(self, translation: Translation, words: Sequence[str], n: int,
                books: Sequence[str] = ()) -> list[tuple[int, float]]:
        norm = self.normaliser(translation, words)
        if not words or norm == 0.0:
            return []
        scores = self._bm25(translation, words)
        if books:
            allowed = self.keys.in_books(books)
            scores = {r: s for r, s in scores.items() if r < len(allowed) and allowed[r]}
        best = sorted(scores.items(), key=lambda rs: (rs[1], rs[0]))[:int(n)]
        return [(r, min(1.0, max(0.0, -s / norm))) for r, s in best]

    def keyword_scores(self, translation: Translation, words: Sequence[str], rowids: Iterable[int]) -> dict[int, float]:
        norm = self.normaliser(translation, words)
        ids = set(rowids)
        if not words or not ids or norm == 0.0:
            return {}
        return {r: min(1.0, max(0.0, -s / norm)) for r, s in self._bm25(translation, words).items() if r in ids}

    def phrase_scores(self, translation: Translation, pairs: Sequence[tuple[str, str]],
                      rowids: Iterable[int] | None = None) -> dict[int, float]:
        """As :meth:`~amicus_desktop.store.verses.VerseIndex.phrase_scores` (the same weights and sums)."""
        ids = None if rowids is None else set(rowids)
        self._statistics(translation)
        total = max(2, self.count)
        found: list[tuple[float, list[int]]] = []
        for a, b in dict.fromkeys(pairs):
            held = self._hits(translation, self._tokens(f"{a} {b}"))
            n = len(held)
            weight = math.log(total / n) if n else math.log(total)
            found.append((weight, sorted(r for r in held if ids is None or r in ids)))
        return phrase_shares(found)

    # -- text -----------------------------------------------------------------------------------------
    def texts(self, translation: Translation, rowids: Iterable[int]) -> dict[int, str]:
        ids = sorted({int(r) for r in rowids})
        if not ids:
            return {}
        return {int(r): str(t) for r, t in self.store.query(
            "SELECT rowid, text FROM verse_texts WHERE translation_id = %s AND rowid = ANY(%s::int[])",
            [translation.translation_id, ids])}

    def chapter(self, translation: Translation, book_id: str, chapter: int) -> list[tuple[int, str]]:
        return [(int(v), str(t)) for v, t in self.store.query(
            "SELECT k.verse_num, x.text FROM verse_texts x JOIN verse_keys k ON k.rowid = x.rowid "
            "WHERE x.translation_id = %s AND k.book_id = %s AND k.chapter_num = %s ORDER BY k.verse_num",
            [translation.translation_id, book_id, int(chapter)])]

"""Reading what verse search needs from scripture.db: the verses, their vectors, word indexes and Strong's numbers.

A :class:`VerseIndex` belongs to one :class:`~.scripture.ScriptureStore` (its connection, its thread).
It reads the optional tables of :mod:`.verse_tables` when the database has them and copes without:

* without ``verse_keys`` the verses of ``verses`` are numbered in canonical order in memory;
* without ``translations`` the database holds one translation, its ``verses`` table (the WEB when
  ``db_meta.corpus_sources`` says the builder read it);
* without a translation's ``verse_fts_<id>`` (or with one declared differently), the same index is built
  once in the user's cache folder — or, when that cannot be written, in memory — never in scripture.db;
* without ``verse_embeddings`` there is no meaning search (:attr:`VerseIndex.has_vectors`), and without
  ``verse_strongs`` no Strong's numbers.
"""

from __future__ import annotations

import json
import logging
import math
import re
import weakref
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import apsw
import numpy as np

from ..core.books import BY_ID
from .cache_files import cached_index
from .declarations import vec0_columns
from .errors import READ_ERRORS, db_error
from .fts import FTS_TOKENIZE
from .scripture import ScriptureStore
from .verse_keys import Key, RowidOf, VerseKeys
from .verse_scores import best_score, phrase_shares
from .verse_tables import TRANSLATIONS, VERSE_EMBEDDINGS, VERSE_KEYS, VERSE_STRONGS, fts_sql, fts_table

log = logging.getLogger("amicus.store")

_CACHE_VERSION = "1"
_MAX_K = 4096  # sqlite-vec's largest k


@dataclass(frozen=True)
class Translation:
    """A translation the database holds: ``verse_table`` has section 1's ``verses`` shape."""

    translation_id: str
    name: str
    abbreviation: str
    verse_table: str
    default: bool


def _match(words: Sequence[str]) -> str:
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in words)


class VerseIndex:
    """Verse search's view of one store (created on the store's thread by :meth:`for_store`)."""

    def __init__(self, store: ScriptureStore) -> None:
        self.store = store
        names = {str(n) for (n,) in store.rows("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
        self.has_verses = store.info.has_verses
        self.translations = self._translations(names)
        self.keys = self._keys(names)
        self.rowid_of = RowidOf(self.keys)
        self.has_vectors = self._vectors_usable(names)
        self.has_strongs = VERSE_STRONGS in names
        #: where each translation's word index lives: ``database``, ``cache`` or ``memory``
        self.fts_where: dict[str, str] = {}
        self._fts_schema: dict[str, str] = {}
        self._doc_counts: dict[tuple[str, str], int] = {}
        self._declared = {str(n): str(s or "") for n, s in store.rows(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name LIKE 'verse_fts_%'")}

    @classmethod
    def for_store(cls, store: ScriptureStore) -> VerseIndex:
        index = _INDEXES.get(store)
        if index is None:
            index = _INDEXES[store] = cls(store)
        return index

    # -- what the database holds ----------------------------------------------------------------
    def _translations(self, names: set[str]) -> dict[str, Translation]:
        if TRANSLATIONS in names:
            rows = self.store.rows(f"SELECT translation_id, name, abbreviation, verse_table, is_default "
                                   f"FROM {TRANSLATIONS} ORDER BY is_default DESC, translation_id")
            out = {str(t): Translation(str(t), str(n), str(a), str(v), bool(d)) for t, n, a, v, d in rows
                   if str(v) in names}
            if out:
                return out
        if not self.has_verses:
            return {}
        if "engWEB" in self.store.info.meta.get("corpus_sources", ""):
            return {"web": Translation("web", "World English Bible", "WEB", "verses", True)}
        return {"default": Translation("default", "the database's Bible text", "", "verses", True)}

    @property
    def default(self) -> Translation | None:
        return next((t for t in self.translations.values() if t.default), None)

    def _keys(self, names: set[str]) -> VerseKeys:
        """Index ``i`` is the verse with rowid ``i`` (index 0 unused)."""
        if VERSE_KEYS in names:  # row by row into arrays (the whole text: 31k verses)
            ((last,),) = self.store.rows(f"SELECT max(rowid) FROM {VERSE_KEYS}")
            try:
                rows = self.store.con.execute(
                    f"SELECT rowid, book_id, chapter_num, verse_num FROM {VERSE_KEYS} ORDER BY rowid")
                return VerseKeys(((int(r), str(b), int(c), int(v)) for r, b, c, v in rows), int(last or 0))
            except READ_ERRORS as exc:
                raise db_error(self.store.path, exc) from exc
        found: set[Key] = set()
        for t in self.translations.values():
            found |= {(str(b), int(c), int(v)) for b, c, v in
                      self.store.rows(f"SELECT book_id, chapter_num, verse_num FROM {t.verse_table}")}
        known = sorted((k for k in found if k[0] in BY_ID), key=lambda k: (BY_ID[k[0]].ordinal, k[1], k[2]))
        return VerseKeys.of([("", 0, 0), *known])

    def _vectors_usable(self, names: set[str]) -> bool:
        if VERSE_EMBEDDINGS not in names:
            return False
        (sql,) = self.store.rows("SELECT sql FROM sqlite_master WHERE name = ?", [VERSE_EMBEDDINGS])[0]
        column = (vec0_columns(str(sql or "")) or {}).get("embedding")
        usable = (column is not None and column.element == "float" and column.dims == self.store.info.dims
                  and column.options.get("distance_metric") == "cosine")
        if not usable:
            log.warning("verse_embeddings is not a cosine float table of the database's dimensions; ignored")
        return usable

    @property
    def count(self) -> int:
        return len(self.keys) - 1

    def neighbours(self, rowid: int) -> list[int]:
        """The verses before and after ``rowid`` in its chapter."""
        book, chapter, _ = self.keys[rowid]
        keys = self.keys
        return [r for r in (rowid - 1, rowid + 1) if 0 < r < len(keys) and keys.chapter_of(r) == (book, chapter)]

    def in_books(self, books: Iterable[str]) -> list[int]:
        return [int(i) for i in np.flatnonzero(self.keys.in_books(books)) if i]

    # -- meaning --------------------------------------------------------------------------------
    def nearest(self, vector: np.ndarray, n: int, books: Sequence[str] = ()) -> list[tuple[int, float]]:
        """The ``n`` verses nearest ``vector`` (in ``books`` when given) as ``(rowid, distance)``."""
        query = self.store.query_vector(vector).tobytes()
        where, params = "", []
        if books:
            where = f" AND book_id IN ({','.join('?' * len(books))})"
            params = list(books)
        rows = self.store.rows(
            f"SELECT rowid, distance FROM {VERSE_EMBEDDINGS} WHERE embedding MATCH ? AND k = ?{where} "
            "ORDER BY distance", [query, min(int(n), _MAX_K), *params])
        return [(int(r), float(d)) for r, d in rows if d is not None]

    def distances(self, vector: np.ndarray, rowids: Iterable[int]) -> dict[int, float]:
        """The exact cosine distance from ``vector`` to each of ``rowids`` that has a vector."""
        query = self.store.query_vector(vector).tobytes()
        ids = sorted(set(rowids))
        out: dict[int, float] = {}
        for start in range(0, len(ids), _MAX_K):
            part = ids[start: start + _MAX_K]
            for r, d in self.store.rows(
                f"SELECT rowid, distance FROM {VERSE_EMBEDDINGS} WHERE embedding MATCH ? AND k = ? "
                "AND rowid IN (SELECT value FROM json_each(?))", [query, len(part), json.dumps(part)]):
                if d is not None:
                    out[int(r)] = float(d)
        return out

    def vector_blocks(self, block: int, dtype: type = np.float32) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Every verse vector, ``block`` rows at a time: ``(rowids, matrix in dtype)``, one sequential read of
        ``verse_embeddings`` (never every row's bytes at once: at the whole Bible they are 48 MB)."""
        dims = self.store.info.dims
        size = 4 * dims
        rowids = np.empty(block, dtype=np.int64)
        matrix: np.ndarray = np.empty((block, dims), dtype=dtype)
        n = 0
        try:
            for r, b in self.store.con.execute(f"SELECT rowid, embedding FROM {VERSE_EMBEDDINGS}"):
                if isinstance(b, bytes) and len(b) == size:
                    rowids[n] = int(r)
                    matrix[n] = np.frombuffer(b, dtype="<f4")
                    n += 1
                    if n == block:
                        yield rowids.copy(), matrix.copy()
                        n = 0
        except READ_ERRORS as exc:
            raise db_error(self.store.path, exc) from exc
        if n:
            yield rowids[:n].copy(), matrix[:n].copy()

    def notes(self, source_types: Sequence[str]) -> list[tuple[int, str, str, int, int, int]]:
        """The chunks of ``source_types`` tied to verses: ``(rowid, chunk_id, book_id, chapter, first, last)``."""
        marks = ",".join("?" * len(source_types))
        return [(int(r), str(c), str(b), int(ch), int(v0), int(v1 if v1 is not None else v0)) for r, c, b, ch, v0, v1 in
                self.store.rows(
                    "SELECT t.rowid, t.chunk_id, m.book_id, m.chapter_num, m.verse_start, m.verse_end "
                    "FROM chunk_text t JOIN chunk_metadata m ON m.rowid = t.rowid "
                    f"WHERE t.source_type IN ({marks}) AND m.book_id IS NOT NULL AND m.chapter_num IS NOT NULL "
                    "AND m.verse_start IS NOT NULL", list(source_types))
                if isinstance(ch, int) and isinstance(v0, int)]

    def entries(self, source_types: Sequence[str]) -> list[tuple[int, str]]:
        """``(rowid, source_id)`` of the chunks of ``source_types`` (the lexicon's entries)."""
        marks = ",".join("?" * len(source_types))
        return [(int(r), str(sid)) for r, sid in self.store.rows(
            f"SELECT rowid, source_id FROM chunk_text WHERE source_type IN ({marks})", list(source_types))]

    def strongs_pairs(self, numbers: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
        """Every row of ``verse_strongs`` (none without it), in the table's order, as two int32 arrays: the verse
        rowid and the number's index in ``numbers`` (a number not in it yet is added). Read row by row into
        arrays the result then shares (no copy): a whole-text library holds ~ 250k rows, and a list of their
        tuples cost the app's start-up ~ 40 MB it never gave back."""
        rowids, ids = array("i"), array("i")
        if self.has_strongs:
            try:
                for s, r in self.store.con.execute(f"SELECT strongs, verse_rowid FROM {VERSE_STRONGS}"):
                    rowids.append(int(r))
                    ids.append(numbers.setdefault(str(s), len(numbers)))
            except READ_ERRORS as exc:
                raise db_error(self.store.path, exc) from exc
        return np.frombuffer(rowids, dtype=np.int32), np.frombuffer(ids, dtype=np.int32)

    # -- words ----------------------------------------------------------------------------------
    def _schema(self, translation: Translation) -> str:
        """Where the translation's word index is (found or built on first use)."""
        tid = translation.translation_id
        if tid not in self._fts_schema:
            table = fts_table(tid)
            flat = re.sub(r"\s+", " ", self._declared.get(table, "").lower().replace('"', "'"))
            if "using fts5" in flat and f"tokenize='{FTS_TOKENIZE}'" in flat:
                self._fts_schema[tid], self.fts_where[tid] = "main", "database"
            else:
                self._fts_schema[tid], self.fts_where[tid] = self._build(translation)
        return self._fts_schema[tid]

    def _build(self, translation: Translation) -> tuple[str, str]:
        tid = translation.translation_id
        schema = f"amicus_vfts_{tid}"
        try:
            path = self._cached(translation)
            self.store.con.execute(f"ATTACH DATABASE ? AS {schema}", [str(path)])
            return schema, "cache"
        except (OSError, apsw.Error) as exc:
            log.warning("verse word index not cached; building it in memory", extra={"error": type(exc).__name__})
        con = self.store.con
        con.execute(f"DROP TABLE IF EXISTS temp.{fts_table(tid)}")
        con.execute(fts_sql(tid, "temp"))
        con.executemany(f"INSERT INTO temp.{fts_table(tid)}(rowid, text) VALUES (?, ?)", self._rows(translation))
        return "temp", "memory"

    def _rows(self, translation: Translation) -> list[tuple[int, str]]:
        rows = self.store.rows(f"SELECT book_id, chapter_num, verse_num, text FROM {translation.verse_table}")
        return [(self.rowid_of[(str(b), int(c), int(v))], str(t)) for b, c, v, t in rows
                if (str(b), int(c), int(v)) in self.rowid_of]

    def _cached(self, translation: Translation) -> Path:
        tid = translation.translation_id

        def fill(con: apsw.Connection) -> None:
            con.execute(fts_sql(tid))
            con.executemany(f"INSERT INTO {fts_table(tid)}(rowid, text) VALUES (?, ?)", self._rows(translation))

        return cached_index(self.store.path, "verse-index", f"{FTS_TOKENIZE}|{_CACHE_VERSION}", fill, suffix=tid)[0]

    def doc_count(self, translation: Translation, word: str) -> int:
        key = (translation.translation_id, word)
        if key not in self._doc_counts:
            table = fts_table(translation.translation_id)
            ((n,),) = self.store.rows(f"SELECT count(*) FROM {self._schema(translation)}.{table} WHERE {table} MATCH ?",
                                      [_match([word])])
            self._doc_counts[key] = int(n)
        return self._doc_counts[key]

    def normaliser(self, translation: Translation, words: Sequence[str]) -> float:
        """The most a verse could score for ``words`` (:func:`best_score`)."""
        return best_score(lambda w: self.doc_count(translation, w), self.count, words)

    # ``+rowid IN (…)`` below: without the ``+`` FTS5 takes the rowid list as its own constraint and runs the
    # MATCH once per listed row (20 ms for 1,100 rows here); with it the list filters the matches (0.4 ms).
    def keyword(self, translation: Translation, words: Sequence[str], n: int,
                books: Sequence[str] = ()) -> list[tuple[int, float]]:
        """The ``n`` verses best matching any of ``words``: ``(rowid, score in [0, 1])``, best first."""
        norm = self.normaliser(translation, words)
        if not words or norm == 0.0:
            return []
        table = fts_table(translation.translation_id)
        sql = f"SELECT rowid, bm25({table}) AS s FROM {self._schema(translation)}.{table} WHERE {table} MATCH ?"
        params: list[object] = [_match(words)]
        if books:
            sql += " AND +rowid IN (SELECT value FROM json_each(?))"
            params.append(json.dumps(self.in_books(books)))
        rows = self.store.rows(sql + " ORDER BY s, rowid LIMIT ?", [*params, int(n)])
        return [(int(r), min(1.0, max(0.0, -float(s) / norm))) for r, s in rows]

    def keyword_scores(self, translation: Translation, words: Sequence[str], rowids: Iterable[int]) -> dict[int, float]:
        """The keyword score of each of ``rowids`` (verses holding none of the words are left out)."""
        norm = self.normaliser(translation, words)
        ids = sorted(set(rowids))
        if not words or not ids or norm == 0.0:
            return {}
        table = fts_table(translation.translation_id)
        rows = self.store.rows(
            f"SELECT rowid, bm25({table}) FROM {self._schema(translation)}.{table} WHERE {table} MATCH ? "
            "AND +rowid IN (SELECT value FROM json_each(?))", [_match(words), json.dumps(ids)])
        return {int(r): min(1.0, max(0.0, -float(s) / norm)) for r, s in rows}

    def phrase_scores(self, translation: Translation, pairs: Sequence[tuple[str, str]],
                      rowids: Iterable[int] | None = None) -> dict[int, float]:
        """For each of ``rowids`` (every verse when ``None``): the share of the pairs' weight found as phrases
        in the verse, where a pair weighs its rarity (``log(N / verses holding it)``; a pair no verse holds
        weighs ``log N``)."""
        ids = None if rowids is None else json.dumps(sorted(set(rowids)))
        table = fts_table(translation.translation_id)
        schema = self._schema(translation)
        total = max(2, self.count)
        found: list[tuple[float, list[int]]] = []
        for a, b in dict.fromkeys(pairs):
            phrase = '"' + f"{a} {b}".replace('"', '""') + '"'
            ((n,),) = self.store.rows(f"SELECT count(*) FROM {schema}.{table} WHERE {table} MATCH ?", [phrase])
            weight = math.log(total / n) if n else math.log(total)
            among, params = ("", [phrase]) if ids is None else (" AND +rowid IN (SELECT value FROM json_each(?))",
                                                                 [phrase, ids])
            rows = [int(r) for (r,) in self.store.rows(
                f"SELECT rowid FROM {schema}.{table} WHERE {table} MATCH ?{among}", params)] if n else []
            found.append((weight, rows))
        return phrase_shares(found)

    # -- text and Strong's numbers ----------------------------------------------------------------
    def texts(self, translation: Translation, rowids: Iterable[int]) -> dict[int, str]:
        ids = sorted(set(rowids))
        keys = [self.keys[r] for r in ids]
        rows = self.store.rows(
            f"SELECT v.book_id, v.chapter_num, v.verse_num, v.text FROM json_each(?) j "
            f"JOIN {translation.verse_table} v ON v.book_id = j.value ->> 0 AND v.chapter_num = j.value ->> 1 "
            "AND v.verse_num = j.value ->> 2", [json.dumps(keys)])
        return {self.rowid_of[(str(b), int(c), int(v))]: str(t) for b, c, v, t in rows}

    def chapter(self, translation: Translation, book_id: str, chapter: int) -> list[tuple[int, str]]:
        """``(verse_num, text)`` of one chapter in ``translation``, in order."""
        return [(int(v), str(t)) for v, t in self.store.rows(
            f"SELECT verse_num, text FROM {translation.verse_table} WHERE book_id = ? AND chapter_num = ? "
            "ORDER BY verse_num", [book_id, int(chapter)])]

    def strongs_of(self, rowids: Iterable[int]) -> dict[int, list[str]]:
        """The Strong's numbers each verse holds (empty without ``verse_strongs``)."""
        if not self.has_strongs:
            return {}
        out: dict[int, list[str]] = {}
        sql = f"SELECT strongs, verse_rowid FROM {VERSE_STRONGS} WHERE verse_rowid IN (SELECT value FROM json_each(?))"
        for number, r in self.store.rows(sql, [json.dumps(sorted(set(rowids)))]):
            out.setdefault(int(r), []).append(str(number))
        return out

    def verses_with(self, numbers: Iterable[str]) -> dict[str, list[int]]:
        """The verses holding each Strong's number."""
        if not self.has_strongs:
            return {}
        out: dict[str, list[int]] = {}
        for number, r in self.store.rows(
                f"SELECT strongs, verse_rowid FROM {VERSE_STRONGS} WHERE strongs IN (SELECT value FROM json_each(?))",
                [json.dumps(sorted(set(numbers)))]):
            out.setdefault(str(number), []).append(int(r))
        return out

    def strongs_counts(self, numbers: Iterable[str]) -> dict[str, int]:
        """How many verses hold each Strong's number."""
        if not self.has_strongs:
            return {}
        return {str(s): int(n) for s, n in self.store.rows(
            f"SELECT strongs, count(*) FROM {VERSE_STRONGS} WHERE strongs IN (SELECT value FROM json_each(?)) "
            "GROUP BY strongs", [json.dumps(sorted(set(numbers)))])}


_INDEXES: weakref.WeakKeyDictionary[ScriptureStore, VerseIndex] = weakref.WeakKeyDictionary()

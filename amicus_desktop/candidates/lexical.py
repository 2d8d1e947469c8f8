"""Keyword candidates: FTS5 BM25 over chunk text, with a normalised score and spelling suggestions.

Where the index comes from (:meth:`KeywordIndex.for_store`):

* ``database`` — the builder's ``chunk_fts`` inside scripture.db, when it is declared exactly as
  :mod:`amicus_desktop.store.fts` declares it;
* ``cache`` — otherwise the same index is built once into the user's cache folder (keyed by the
  database file's path, size and modification time) and attached read-only;
* ``memory`` — when the cache folder cannot be written, it is built in the connection's ``temp``
  schema for this session.

scripture.db itself is never written.

**The lexical score.** FTS5's ``bm25()`` is unbounded and depends on the question's length, so it is
normalised by the most a chunk could score for these words: ``Σ idf(t) × (k1 + 1)`` over the
question's words that the index knows (FTS5's ``k1`` is 1.2; ``idf`` as FTS5 computes it). The result,
in [0, 1], reads as "how much of the question's (rarity-weighted) words this chunk holds, and how
densely"; it does not depend on which other chunks matched, so it can be fused with a cosine
similarity and compared against a floor.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import logging
import math
import os
import re
import weakref
from collections.abc import Sequence
from pathlib import Path

import apsw

from .. import paths
from ..core.query import Filters
from ..store.fts import FTS_TABLE, FTS_TOKENIZE, create_sql
from ..store.scripture import ScriptureStore
from .filters import where_sql

log = logging.getLogger("amicus.candidates")

#: FTS5's bm25() constants (its defaults; we do not pass others).
K1 = 1.2
_CACHE_VERSION = "1"
_SIDE_SCHEMA = "amicus_fts"
_BATCH = 2000


def recognised(sql: str) -> bool:
    """Whether a ``chunk_fts`` declaration is the builder's (same content table and tokenizer)."""
    flat = re.sub(r"\s+", " ", sql.lower().replace('"', "'"))
    return (
        "using fts5" in flat
        and "content='chunk_text'" in flat
        and "content_rowid='rowid'" in flat
        and f"tokenize='{FTS_TOKENIZE}'" in flat
    )


def _match(words: Sequence[str]) -> str:
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in words)


class KeywordIndex:
    """Full-text search over one store's chunks (one instance per store connection, on its thread)."""

    def __init__(self, store: ScriptureStore, schema: str, where: str) -> None:
        self.store = store
        self.schema = schema
        #: ``database``, ``cache`` or ``memory``: where the index lives (shown by ``doctor``/diagnostics).
        self.where = where
        self._doc_freq: dict[str, int] = {}
        self._total: int | None = None
        self._tokenizer: apsw.FTS5Tokenizer | None = None

    # -- finding or building the index ------------------------------------------------------
    @classmethod
    def for_store(cls, store: ScriptureStore) -> KeywordIndex:
        """The store's index, found or built on first use (runs on the store's thread)."""
        index = _INDEXES.get(store)
        if index is None:
            index = cls._open(store)
            _INDEXES[store] = index
        return index

    @classmethod
    def _open(cls, store: ScriptureStore) -> KeywordIndex:
        declared = store.rows("SELECT sql FROM sqlite_master WHERE name = ? AND type = 'table'", [FTS_TABLE])
        if declared and recognised(str(declared[0][0] or "")):
            return cls(store, "main", "database")
        try:
            path = _cached_index(store)
            store.con.execute(f"ATTACH DATABASE ? AS {_SIDE_SCHEMA}", [str(path)])
            return cls(store, _SIDE_SCHEMA, "cache")
        except (OSError, apsw.Error) as exc:
            log.warning("keyword index not cached; building it in memory", extra={"error": type(exc).__name__})
        store.con.execute(f"DROP TABLE IF EXISTS temp.{FTS_TABLE}")
        store.con.execute(create_sql(schema="temp", external_content=False))
        _fill(store, store.con, "temp")
        return cls(store, "temp", "memory")

    # -- searching ----------------------------------------------------------------------------
    def search(self, words: Sequence[str], n: int, filters: Filters = Filters()) -> list[tuple[int, float]]:
        """The ``n`` best chunks holding any of ``words`` that ``filters`` allow: ``(rowid, lexical)``, best first."""
        norm = self.normaliser(words)
        if not words or norm == 0.0:
            return []
        sql = (
            f"SELECT rowid, bm25({FTS_TABLE}) AS s FROM {self.schema}.{FTS_TABLE} WHERE {FTS_TABLE} MATCH ?"
        )
        params: list[object] = [_match(words)]
        if filters.active:
            # "+rowid": FTS5 would take a bare rowid IN (…) as its own constraint and run the MATCH once per
            # allowed row (240 ms for the lexicon entries of Romans and John, against 0.7 ms as a filter).
            where, fparams = where_sql(filters)
            sql += (
                " AND +rowid IN (SELECT t.rowid FROM main.chunk_text t "
                f"LEFT JOIN main.chunk_metadata m ON m.rowid = t.rowid WHERE {where})"
            )
            params += fparams
        sql += " ORDER BY s, rowid LIMIT ?"
        params.append(int(n))
        return [(int(r), _clip(-float(s) / norm)) for r, s in self.store.rows(sql, params)]

    def scores(self, words: Sequence[str], rowids: Sequence[int]) -> dict[int, float]:
        """The lexical score of each of ``rowids`` (0.0 for a chunk holding none of ``words``)."""
        out = dict.fromkeys((int(r) for r in rowids), 0.0)
        norm = self.normaliser(words)
        if not words or not out or norm == 0.0:
            return out
        for r, s in self.store.rows(
            f"SELECT rowid, bm25({FTS_TABLE}) FROM {self.schema}.{FTS_TABLE} WHERE {FTS_TABLE} MATCH ? "
            "AND +rowid IN (SELECT value FROM json_each(?))",
            [_match(words), json.dumps(sorted(out))],
        ):
            out[int(r)] = _clip(-float(s) / norm)
        return out

    def best_among(self, words: Sequence[str], rowids: Sequence[int], n: int) -> list[tuple[int, float]]:
        """The ``n`` best of ``rowids`` by lexical score (ties, and chunks without the words, by rowid)."""
        scored = self.scores(words, rowids)
        return sorted(scored.items(), key=lambda item: (-item[1], item[0]))[:n]

    # -- statistics ------------------------------------------------------------------------------
    def doc_freq(self, word: str) -> int:
        """How many chunks hold ``word`` (after stemming)."""
        if word not in self._doc_freq:
            ((count,),) = self.store.rows(
                f"SELECT count(*) FROM {self.schema}.{FTS_TABLE} WHERE {FTS_TABLE} MATCH ?", [_match([word])]
            )
            self._doc_freq[word] = int(count)
        return self._doc_freq[word]

    @property
    def total(self) -> int:
        if self._total is None:
            ((count,),) = self.store.rows("SELECT count(*) FROM main.chunk_text")
            self._total = int(count)
        return self._total

    def idf(self, word: str) -> float:
        """FTS5's idf: ``log((N - n + 0.5) / (n + 0.5))``, at least 1e-6."""
        n = self.doc_freq(word)
        return max(1e-6, math.log((self.total - n + 0.5) / (n + 0.5)))

    def normaliser(self, words: Sequence[str]) -> float:
        """The most any chunk could score for ``words``: ``Σ idf × (k1 + 1)`` over the words the index knows."""
        return sum(self.idf(w) * (K1 + 1) for w in dict.fromkeys(words) if self.doc_freq(w) > 0)

    # -- spelling ----------------------------------------------------------------------------------
    def unknown(self, words: Sequence[str]) -> list[str]:
        """The ``words`` no chunk holds."""
        return [w for w in dict.fromkeys(words) if self.doc_freq(w) == 0]

    def suggestions(self, words: Sequence[str]) -> dict[str, str]:
        """For each word the index does not know, the closest word it does know (when one is close)."""
        out: dict[str, str] = {}
        for word in self.unknown(words):
            close = self._closest(word)
            if close is not None:
                out[word] = close
        return out

    def _stem(self, word: str) -> str:
        if self._tokenizer is None:
            self._tokenizer = self.store.con.fts5_tokenizer("porter", ["unicode61", "remove_diacritics", "2"])
        tokens = list(self._tokenizer(
            word.encode("utf-8"), apsw.FTS5_TOKENIZE_QUERY, None, include_offsets=False, include_colocated=False
        ))
        return tokens[0] if tokens and isinstance(tokens[0], str) else word

    def _closest(self, word: str) -> str | None:
        stem = self._stem(word)
        if len(stem) < 3:
            return None
        con = self.store.con
        vocab = f"amicus_vocab_{self.schema}"
        con.execute(
            f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{vocab} USING fts5vocab({self.schema}, {FTS_TABLE}, 'row')"
        )
        rows = self.store.rows(
            f"SELECT term, doc FROM temp.{vocab} WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?",
            [stem[0], chr(ord(stem[0]) + 1), len(stem) - 2, len(stem) + 2],
        )
        freq = {str(t): int(d) for t, d in rows}
        best = difflib.get_close_matches(stem, list(freq), n=8, cutoff=0.75)
        if not best:
            return None
        top = max(best, key=lambda t: (round(difflib.SequenceMatcher(None, stem, t).ratio(), 2), freq[t]))
        return self._surface(top) or top

    def _surface(self, term: str) -> str | None:
        """A word as chunks write it whose stem is ``term`` ("justifi" → "justified")."""
        hit = self.store.rows(
            f"SELECT rowid FROM {self.schema}.{FTS_TABLE} WHERE {FTS_TABLE} MATCH ? LIMIT 5", [_match([term])]
        )
        if not hit or self._tokenizer is None:
            return None
        for (rowid,) in hit:
            text = self.store.rows("SELECT text FROM main.chunk_text WHERE rowid = ?", [rowid])
            if not text:
                continue
            raw = str(text[0][0]).encode("utf-8")
            for token in self._tokenizer(raw, apsw.FTS5_TOKENIZE_DOCUMENT, None, include_colocated=False):
                match token:  # (start, end, token) with offsets and without colocated tokens
                    case (int(start), int(end), str(found)) if found == term:
                        return raw[start:end].decode("utf-8", "replace").lower()
        return None


_INDEXES: weakref.WeakKeyDictionary[ScriptureStore, KeywordIndex] = weakref.WeakKeyDictionary()


def _clip(value: float) -> float:
    return min(1.0, max(0.0, value))


def _fill(store: ScriptureStore, target: apsw.Connection, schema: str) -> None:
    """Copy every chunk's text into the index ``schema.chunk_fts`` of ``target``."""
    last = 0
    while True:
        batch = store.rows("SELECT rowid, text FROM main.chunk_text WHERE rowid > ? ORDER BY rowid LIMIT ?",
                           [last, _BATCH])
        if not batch:
            break
        target.executemany(f"INSERT INTO {schema}.{FTS_TABLE}(rowid, text) VALUES (?, ?)", batch)
        last = int(batch[-1][0])


def _cached_index(store: ScriptureStore) -> Path:
    """The path of this database's keyword index in the cache folder, building it when missing or stale."""
    st = os.stat(store.path)
    where = str(store.path.resolve())
    path_key = hashlib.sha256(where.encode("utf-8")).hexdigest()[:16]
    stat_key = hashlib.sha256(
        f"{st.st_size}|{st.st_mtime_ns}|{FTS_TOKENIZE}|{_CACHE_VERSION}".encode()
    ).hexdigest()[:16]
    folder = paths.cache_dir() / "keyword-index"
    target = folder / f"{path_key}-{stat_key}.sqlite"
    if target.exists():
        return target
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{target.name}.{os.getpid()}.tmp"
    con = apsw.Connection(str(tmp), flags=apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE)
    try:
        con.execute("PRAGMA journal_mode=OFF")
        con.execute("BEGIN")
        con.execute(create_sql(schema="main", external_content=False))
        _fill(store, con, "main")
        con.execute("COMMIT")
    except BaseException:
        con.close()
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    con.close()
    os.replace(tmp, target)
    for old in folder.glob(f"{path_key}-*.sqlite"):  # indexes of earlier versions of the same file
        if old != target:
            with contextlib.suppress(OSError):
                old.unlink()
    log.info("keyword index built in the cache folder", extra={"chunks": store.info.chunk_count})
    return target

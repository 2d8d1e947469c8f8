"""The keyword index of one store: where it lives, and the FTS5 queries the keyword search makes.

Where the index comes from (:attr:`FullTextIndex.where`):

* ``database`` — the builder's ``chunk_fts`` inside scripture.db, when :func:`.fts.database_index_problem`
  finds nothing wrong with it;
* ``cache`` — otherwise the same index is built once into the user's cache folder (keyed by the
  database file's path, size and modification time) and attached read-only;
* ``memory`` — when the cache folder cannot be written, it is built in the connection's ``temp``
  schema for this session.

scripture.db itself is never written. The app's own index is disposable: one that cannot be read
(a damaged cache file) is deleted and built again, once; a database index that fails or turns out
stale while it is used (a hit whose text no longer holds any of the words) is dropped for the
app's own for the rest of the session. :attr:`FullTextIndex.problem` says why the database's own
index is not used, for ``doctor`` and the diagnostics.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import apsw

from ..core.query import Filters
from . import conditions, fts
from .cache_files import cached_index
from .errors import READ_ERRORS, db_error
from .fts import FTS_TABLE, create_sql, match_expression

if TYPE_CHECKING:
    from .scripture import ScriptureStore

log = logging.getLogger("amicus.store")

_CACHE_VERSION = "1"
_SIDE_SCHEMA = "amicus_fts"
_BATCH = 2000


class FullTextIndex:
    """Full-text search over one store's chunks (one per store connection, on its thread)."""

    def __init__(self, store: ScriptureStore) -> None:
        self._store = store
        self._tokenize = fts.tokenizer(store.con)
        self._doc_counts: dict[str, int] = {}
        self._total: int | None = None
        self._rebuilt = False
        #: ``database``, ``cache`` or ``memory``: where the index lives (shown by ``doctor``/diagnostics).
        self.where = ""
        #: Why the database's own index is not used (``None`` when it is).
        self.problem: str | None = None
        self._schema = "main"
        problem = store.keyword_index_problem()
        if problem is None:
            self.where = "database"
        else:
            self._use_own(problem)

    # -- searching --------------------------------------------------------------------------
    def search(self, words: Sequence[str], n: int, filters: Filters = Filters()) -> list[tuple[int, float]]:
        """The ``n`` best chunks holding any of ``words`` that ``filters`` allow: ``(rowid, bm25)``, best first."""

        def sql(schema: str) -> tuple[str, list[object]]:
            text = f"SELECT rowid, bm25({FTS_TABLE}) AS s FROM {schema}.{FTS_TABLE} WHERE {FTS_TABLE} MATCH ?"
            params: list[object] = [match_expression(words)]
            if filters.active:
                # "+rowid" (here and in bm25_of): FTS5 would take a bare rowid IN (…) as its own constraint and run
                # the MATCH once per allowed row (240 ms for the lexicon entries of Romans and John; 0.7 ms so).
                where, fparams = conditions.filter_condition(filters, self._store.info.loose_columns)
                text += (
                    " AND +rowid IN (SELECT t.rowid FROM main.chunk_text t "
                    f"LEFT JOIN main.chunk_metadata m ON m.rowid = t.rowid WHERE {where})"
                )
                params += fparams
            return text + " ORDER BY s, rowid LIMIT ?", [*params, int(n)]

        hits = [(int(r), float(s)) for r, s in self._query(sql)]
        if self.where == "database" and not self._hits_hold_words(words, [r for r, _ in hits]):
            return self.search(words, n, filters)  # now on the app's own index
        return hits

    def bm25_of(self, words: Sequence[str], rowids: Iterable[int]) -> list[tuple[int, float]]:
        """``(rowid, bm25)`` of those of ``rowids`` that hold any of ``words``."""
        ids = conditions.json_list(sorted({int(r) for r in rowids}))
        return [(int(r), float(s)) for r, s in self._query(lambda schema: (
            f"SELECT rowid, bm25({FTS_TABLE}) FROM {schema}.{FTS_TABLE} WHERE {FTS_TABLE} MATCH ? "
            f"AND {conditions.among('+rowid')}", [match_expression(words), ids]))]

    def doc_count(self, word: str) -> int:
        """How many chunks hold ``word`` (after stemming)."""
        if word not in self._doc_counts:
            ((count,),) = self._query(lambda schema: (
                f"SELECT count(*) FROM {schema}.{FTS_TABLE} WHERE {FTS_TABLE} MATCH ?", [match_expression([word])]))
            self._doc_counts[word] = int(count)
        return self._doc_counts[word]

    @property
    def total(self) -> int:
        """How many chunks there are (the ``N`` of FTS5's idf)."""
        if self._total is None:
            ((count,),) = self._store.rows("SELECT count(*) FROM main.chunk_text")
            self._total = int(count)
        return self._total

    # -- words -------------------------------------------------------------------------------
    def stem(self, word: str) -> str:
        """``word`` as the index stores it ("justified" → "justifi")."""
        tokens = list(self._tokenize(word.encode("utf-8"), apsw.FTS5_TOKENIZE_QUERY, None,
                                     include_offsets=False, include_colocated=False))
        return tokens[0] if tokens and isinstance(tokens[0], str) else word

    def terms(self, first: str, shortest: int, longest: int) -> dict[str, int]:
        """The index's terms starting with the letter ``first``, of ``shortest``..``longest`` characters,
        with how many chunks hold each."""
        con = self._store.con
        vocab = f"amicus_vocab_{self._schema}"
        con.execute(
            f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{vocab} USING fts5vocab({self._schema}, {FTS_TABLE}, 'row')"
        )
        rows = self._store.rows(
            f"SELECT term, doc FROM temp.{vocab} WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?",
            [first, chr(ord(first) + 1), shortest, longest],
        )
        return {str(t): int(d) for t, d in rows}

    def written_form(self, term: str) -> str | None:
        """A word as chunks write it whose stem is ``term`` ("justifi" → "justified")."""
        hits = self._query(lambda schema: (
            f"SELECT rowid FROM {schema}.{FTS_TABLE} WHERE {FTS_TABLE} MATCH ? LIMIT 5", [match_expression([term])]))
        for (rowid,) in hits:
            text = self._store.rows("SELECT text FROM main.chunk_text WHERE rowid = ?", [rowid])
            if not text:
                continue
            raw = str(text[0][0]).encode("utf-8")
            for start, end, token in fts.token_spans(self._tokenize, raw):
                if token == term:
                    return raw[start:end].decode("utf-8", "replace").lower()
        return None

    # -- where the index lives -----------------------------------------------------------------
    def _query(self, sql: Callable[[str], tuple[str, list[object]]]) -> list[tuple[Any, ...]]:
        """Rows of ``sql(schema)``; an index that fails is replaced by the app's own, once."""
        while True:
            text, params = sql(self._schema)
            try:
                return list(self._store.con.execute(text, params))
            except READ_ERRORS as exc:
                if not self._recover(exc):
                    raise db_error(self._store.path, exc) from exc

    def _recover(self, exc: BaseException) -> bool:
        """Replace a failing index by the app's own; ``False`` when that was done already."""
        if self.where == "database":
            self._use_own(f"its {FTS_TABLE} cannot be read ({exc})")
            return True
        if self.where == "cache" and not self._rebuilt:
            log.warning("keyword index cache unreadable; building it again", extra={"error": type(exc).__name__})
            self._detach()
            self._use_own(self.problem, rebuild=True)
            return True
        return False

    def _hits_hold_words(self, words: Sequence[str], rowids: Sequence[int]) -> bool:
        """Whether every hit's text still holds one of ``words``; if not, switch to the app's own index."""
        if not rowids:
            return True
        wanted = {self.stem(w) for w in words}
        texts = self._store.rows(
            f"SELECT rowid, text FROM main.chunk_text WHERE {conditions.among('rowid')}",
            [conditions.json_list(rowids)],
        )
        found = {int(r) for r, _ in texts}
        for rowid, text in texts:
            if not wanted & set(fts.document_tokens(self._tokenize, str(text))):
                self._use_own(f"its {FTS_TABLE} is out of date: row {rowid} has changed since it was indexed")
                return False
        missing = [r for r in rowids if r not in found]
        if missing:
            self._use_own(f"its {FTS_TABLE} is out of date: it lists row {missing[0]}, which chunk_text lacks")
            return False
        return True

    def _use_own(self, problem: str | None, *, rebuild: bool = False) -> None:
        """Search the app's own index from now on: the cache folder's (built again when it cannot be
        read, or when ``rebuild``), else one in memory."""
        if self.where in ("", "database"):
            level = logging.INFO if problem == fts.NO_INDEX else logging.WARNING
            log.log(level, "keyword index: using the app's own", extra={"reason": problem})
        self.problem = problem
        self._doc_counts.clear()
        store = self._store
        for fresh in (True,) if rebuild else (False, True):
            try:
                path = _cached_index(store, rebuild=fresh)
            except (OSError, apsw.Error) as exc:
                log.warning("keyword index not cached; building it in memory", extra={"error": type(exc).__name__})
                break
            try:
                store.con.execute(f"ATTACH DATABASE ? AS {_SIDE_SCHEMA}", [str(path)])
                if _own_index_problem(store, _SIDE_SCHEMA) is None:
                    self._schema, self.where = _SIDE_SCHEMA, "cache"
                    self._rebuilt = self._rebuilt or fresh
                    return
            except apsw.Error:
                pass
            self._detach()
            if not fresh:  # a cache is disposable: build it again
                log.warning("keyword index cache unreadable; building it again")
        self._rebuilt = True
        store.con.execute(f"DROP TABLE IF EXISTS temp.{FTS_TABLE}")
        store.con.execute(create_sql(schema="temp", external_content=False))
        _fill(store, store.con, "temp")
        self._schema, self.where = "temp", "memory"

    def _detach(self) -> None:
        with contextlib.suppress(apsw.Error):
            self._store.con.execute(f"DETACH DATABASE {_SIDE_SCHEMA}")
        self._schema = "main"


def _own_index_problem(store: ScriptureStore, schema: str) -> str | None:
    """Whether the app's own index in ``schema`` indexes every chunk (a cheap check of a cache file)."""
    try:
        ((indexed,),) = store.con.execute(f"SELECT count(*) FROM {schema}.{FTS_TABLE}_docsize").fetchall()
        store.con.execute(f"SELECT rowid FROM {schema}.{FTS_TABLE} WHERE {FTS_TABLE} MATCH 'a' LIMIT 1").fetchall()
    except READ_ERRORS as exc:
        return f"unreadable ({type(exc).__name__})"
    ((chunks,),) = store.rows("SELECT count(*) FROM main.chunk_text")
    return None if indexed == chunks else f"it indexes {indexed} chunks, not {chunks}"


def _fill(store: ScriptureStore, target: apsw.Connection, schema: str) -> None:
    """Copy every chunk's text into the index ``schema.chunk_fts`` of ``target``."""
    last = 0
    while True:
        batch = store.rows("SELECT rowid, text FROM main.chunk_text WHERE rowid > ? ORDER BY rowid LIMIT ?",
                           [last, _BATCH])
        if not batch:
            break
        target.executemany(f"INSERT INTO {schema}.{FTS_TABLE}(rowid, text) VALUES (?, ?)", batch)
        last = int(str(batch[-1][0]))


def _cached_index(store: ScriptureStore, *, rebuild: bool = False) -> Path:
    """The path of this database's keyword index in the cache folder, building it when missing,
    stale, or (``rebuild``) found unreadable."""
    def fill(con: apsw.Connection) -> None:
        con.execute(create_sql(schema="main", external_content=False))
        _fill(store, con, "main")

    target, built = cached_index(store.path, "keyword-index", f"{fts.FTS_TOKENIZE}|{_CACHE_VERSION}", fill,
                                 rebuild=rebuild)
    if not built:
        return target
    log.info("keyword index built in the cache folder", extra={"chunks": store.info.chunk_count})
    return target

"""A library on PostgreSQL, read as :class:`~amicus_desktop.store.library.LibraryStore` (see :mod:`.pg`).

:class:`PgLibrary` holds one connection (autocommit, ``search_path`` set to the library's schema), used on one
thread — the retriever's database thread, as the SQLite store's. The catalogue's questions are
:class:`~amicus_desktop.store.catalogue.Catalogue`'s own statements where they are plain SQL (``?``
placeholders read as psycopg's), the rest are written here. Every value still goes through
:mod:`~amicus_desktop.store.values`. A connection that fails (the server restarted) is dropped: the call answers
``DB_UNAVAILABLE`` and the next one connects again.

Verse search (CONTRACT section 14) reads :class:`~.verses.PgVerseIndex` (:meth:`verse_index`), over the verse
tables ``export-db`` writes. A library exported before they were (no ``verse_keys``) says it has no verses
(``has_verses`` false): the pipeline leaves out what needs them and verse search is ``VERSES_NOT_INDEXED``.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ...core.errors import AmicusError, ErrorCode
from ...core.query import Filters
from ...core.references import PassageRef
from ...core.results import Candidate
from ...core.scholars import Scholar
from ...core.vectors import VectorIndex
from .. import values
from ..catalogue import Catalogue
from ..schema import REQUIRED_META_KEYS, SCHEMA_VERSION, SUPPORTED_SCHEMA_VERSIONS
from ..validate import StoreInfo
from .conditions import covering_condition, filter_condition
from .schema import SCHEMA, connect, pg_errors, shown

if TYPE_CHECKING:
    import psycopg

    from ..verse_reader import VerseReader
    from .fulltext import PgFullText
    from .verses import PgVerseIndex

_CHUNK_SELECT = ("t.rowid, t.chunk_id, t.source_type, t.source_id, t.text, m.scholar_id, m.tradition, m.book_id, "
                 "m.chapter_num, m.verse_start, m.verse_end, m.panel_type")
_CHUNKS = "chunk_text t LEFT JOIN chunk_metadata m ON m.rowid = t.rowid"
#: Seconds between two checks of whether the library was replaced (:meth:`PgLibrary.replaced`).
RECHECK = 1.0


class PgLibrary(Catalogue):
    """A validated library in a PostgreSQL database (see the module docstring)."""

    def __init__(self, url: str) -> None:
        self.url = url
        #: what messages name the library by (no password: :func:`.schema.shown`)
        self.path = Path(shown(url))
        self._con: psycopg.Connection[Any] | None = None
        self._scholars: dict[str, Scholar] | None = None
        self._coverage = None
        self._full_text: PgFullText | None = None
        self._vectors: VectorIndex | None = None
        self._verses: PgVerseIndex | None = None
        self._checked = time.monotonic()
        self.info = self._validate()
        self._schema_oid = self._current_schema()

    # -- the connection ----------------------------------------------------------------------
    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """All rows of a read-only statement (``%s`` parameters); failures as the contract's codes."""
        if self._con is None or self._con.closed:
            self._con = connect(self.url)
            with pg_errors(self.url):
                self._con.execute(f"SET search_path TO {SCHEMA}, public")
        try:
            with pg_errors(self.url):
                return list(self._con.execute(sql, list(params)).fetchall())
        except AmicusError as exc:
            if exc.code is ErrorCode.DB_UNAVAILABLE:  # reached no more, or cancelled: connect again next call
                self._drop()
            raise

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """:class:`Catalogue`'s hook: its SQLite-style statements (``?``), read as psycopg's."""
        return self.query(sql.replace("?", "%s"), params)

    def _current_schema(self) -> int | None:
        found = self.query("SELECT oid FROM pg_namespace WHERE nspname = %s", [SCHEMA])
        return int(found[0][0]) if found else None

    def replaced(self) -> bool:
        """Whether ``export-db`` replaced the library since it was opened (a new schema), or the database cannot be
        reached now: checked at most once every :data:`RECHECK` seconds, so a replica reads a new library within
        that time of its commit, and ``/health`` says 503 while the database is away."""
        now = time.monotonic()
        if now - self._checked < RECHECK:
            return False
        self._checked = now
        try:
            return self._current_schema() != self._schema_oid
        except AmicusError:  # unreachable now: open it again (which says why, until it can be read)
            return True

    def _drop(self) -> None:
        if self._con is not None:
            try:
                self._con.close()
            finally:
                self._con = None

    def _validate(self) -> StoreInfo:
        try:
            meta = {str(k): str(v) for k, v in self.query("SELECT key, value FROM db_meta")}
            missing = [k for k in REQUIRED_META_KEYS if k not in meta]
            if missing:
                raise AmicusError(ErrorCode.DB_INVALID, f"The library at {self.path} lacks db_meta {missing[0]}.")
            if meta["schema_version"] not in SUPPORTED_SCHEMA_VERSIONS:
                raise AmicusError(ErrorCode.DB_INVALID, f"The library at {self.path} has schema_version "
                                                        f"{meta['schema_version'][:20]!r}; this app reads "
                                                        f"{SCHEMA_VERSION}.")
            try:
                dims = int(meta["embedding_dims"])
            except ValueError:
                raise AmicusError(ErrorCode.DB_INVALID, f"The library at {self.path} has no whole embedding_dims.") \
                    from None
            ((chunks,),) = self.query("SELECT count(*) FROM chunk_text")
            ((books, scholars, verses),) = self.query(
                "SELECT (SELECT count(*) FROM books), (SELECT count(*) FROM scholars), (SELECT count(*) FROM verses)")
            version = self.query("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
            ((keyed,),) = self.query("SELECT to_regclass('verse_keys') IS NOT NULL")
        except AmicusError:
            self.close()
            raise
        optional = tuple(name for name, n in (("books", books), ("verses", verses), ("scholars", scholars)) if n)
        return StoreInfo(path=self.path, model_id=meta["embedding_model"], dims=dims,
                         schema_version=meta["schema_version"], chunk_count=int(chunks), meta=meta,
                         has_books=bool(books), has_verses=bool(verses and keyed), has_scholars=bool(scholars),
                         fts_table="fts_postings", vec_version=f"pgvector {version[0][0] if version else '?'}",
                         optional_tables=optional)

    # -- meaning and words --------------------------------------------------------------------
    def query_vector(self, vector: np.ndarray) -> np.ndarray:
        query = np.ascontiguousarray(vector, dtype=np.float32)
        if query.shape != (self.info.dims,):
            raise AmicusError(ErrorCode.DIMENSION_MISMATCH,
                              f"The query vector has {query.size} dimensions; the database holds {self.info.dims}.")
        return query

    def vector_index(self, mode: str | None = None) -> VectorIndex:
        """The exact scan (:class:`~.vectors.PgVectors`) whatever ``mode`` asks: it has no other way yet."""
        from .vectors import PgVectors

        if self._vectors is None:
            self._vectors = PgVectors(self)
        return self._vectors

    def vectors(self, rowids: Iterable[int]) -> dict[int, np.ndarray]:
        ids = sorted({int(r) for r in rowids})
        if not ids:
            return {}
        rows = self.query("SELECT rowid, embedding::real[] FROM embeddings WHERE rowid = ANY(%s::bigint[])", [ids])
        return {int(r): np.asarray(v, dtype=np.float32) for r, v in rows}

    @property
    def full_text(self) -> PgFullText:
        from .fulltext import PgFullText

        if self._full_text is None:
            self._full_text = PgFullText(self)
        return self._full_text

    def keyword_index_problem(self) -> str | None:
        return None

    def vector_bytes(self) -> int | None:
        ((size,),) = self.query("SELECT pg_total_relation_size('embeddings')")
        return int(size or 0)

    def verse_index(self) -> VerseReader:
        """Verse search's view of the library (:class:`~.verses.PgVerseIndex`), read on first use."""
        from .verses import PgVerseIndex

        if not self.info.has_verses:
            raise AmicusError(ErrorCode.VERSES_NOT_INDEXED,
                              "This library holds no Bible verses to search (export it again with "
                              "'amicus-desktop export-db' to add them).")
        if self._verses is None:
            self._verses = PgVerseIndex(self)
        return self._verses

    # -- chunks ---------------------------------------------------------------------------------
    def fetch(self, rowids: Iterable[int]) -> dict[int, values.ChunkRow]:
        ids = sorted({int(r) for r in rowids})
        if not ids:
            return {}
        rows = self.query(f"SELECT {_CHUNK_SELECT} FROM {_CHUNKS} WHERE t.rowid = ANY(%s::bigint[])", [ids])
        return {int(row[0]): values.chunk_row(self.path, row) for row in rows}

    def rowids_for(self, chunk_ids: Iterable[str]) -> dict[str, int]:
        wanted = list(dict.fromkeys(chunk_ids))
        if not wanted:
            return {}
        rows = self.query("SELECT chunk_id, rowid FROM chunk_text WHERE chunk_id = ANY(%s::text[])", [wanted])
        return {str(c): int(r) for c, r in rows}

    def allowed_rowids(self, filters: Filters) -> list[int]:
        where, params = filter_condition(filters)
        return [int(r) for (r,) in self.query(f"SELECT t.rowid FROM {_CHUNKS} WHERE {where} ORDER BY t.rowid", params)]

    def covering(self, ref: PassageRef, filters: Filters = Filters()) -> list[int]:
        cover, cparams = covering_condition(ref)
        where, fparams = filter_condition(filters)
        rows = self.query("SELECT t.rowid FROM chunk_text t JOIN chunk_metadata m ON m.rowid = t.rowid "
                          f"WHERE {cover} AND {where} ORDER BY t.rowid", [*cparams, *fparams])
        return [int(r) for (r,) in rows]

    def covers_any(self, ref: PassageRef) -> bool:
        cover, params = covering_condition(ref)
        return bool(self.query(f"SELECT 1 FROM chunk_metadata m WHERE {cover} LIMIT 1", params))

    def chapter_chunks(self, book_id: str, chapter: int, source_types: Sequence[str],
                       limit: int = 1000) -> list[Candidate]:
        """As :meth:`ScriptureStore.chapter_chunks <amicus_desktop.store.scripture.ScriptureStore.chapter_chunks>`
        (SQLite's order: NULLs first, text bytewise)."""
        if not source_types:
            return []
        rows = self.query(
            f"""SELECT {_CHUNK_SELECT} FROM chunk_metadata m JOIN chunk_text t ON t.rowid = m.rowid
                WHERE m.book_id = %s AND m.chapter_num = %s AND t.source_type = ANY(%s::text[])
                ORDER BY array_position(%s::text[], t.source_type), m.verse_start IS NOT NULL,
                         m.verse_start NULLS FIRST, m.verse_end NULLS FIRST, m.scholar_id COLLATE "C" NULLS FIRST,
                         t.rowid
                LIMIT %s""",
            [book_id, chapter, list(source_types), list(source_types), limit])
        out: list[Candidate] = []
        for row in rows:
            chunk_id, source_type, source_id, text, meta = values.chunk_row(self.path, row)
            out.append(Candidate(int(row[0]), chunk_id, source_type, source_id, text, meta, distance=None))
        return out

    # -- the catalogue (the rest is Catalogue's) --------------------------------------------------
    def chapters_of(self, source_types: Sequence[str]) -> list[tuple[str, int]]:
        rows = self.query(
            "SELECT m.book_id, m.chapter_num, min(t.rowid) FROM chunk_metadata m "
            "JOIN chunk_text t ON t.rowid = m.rowid "
            "WHERE t.source_type = ANY(%s::text[]) AND m.book_id IS NOT NULL AND m.chapter_num IS NOT NULL "
            "GROUP BY 1, 2", [list(source_types)])
        first: dict[str, int] = {}
        for b, _c, rowid in rows:
            first[str(b)] = min(first.get(str(b), rowid), rowid)
        return sorted(((str(b), int(c)) for b, c, _ in rows), key=lambda bc: (first[bc[0]], bc[1]))

    def chapter(self, book_id: str, chapter: int) -> list[tuple[int, str]]:
        """``(verse_num, text)`` of one chapter, in order (the verses are exported without their index)."""
        rows = self.query("SELECT verse_num, text FROM verses WHERE book_id = %s AND chapter_num = %s "
                          "ORDER BY verse_num", [book_id, int(chapter)])
        return [(int(v), str(t)) for v, t in rows]

    def scholar_table(self) -> dict[str, Scholar]:
        return {str(sid): Scholar(str(sid), str(name), tradition or None, work or None)
                for sid, name, tradition, work in self.query("SELECT scholar_id, name, tradition, work FROM scholars")
                if sid and name and str(name).strip()}

    def close(self) -> None:
        self._drop()
        self._full_text = None
        self._vectors = None
        self._verses = None

    def __enter__(self) -> PgLibrary:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

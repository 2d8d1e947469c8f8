"""Reading scripture.db (CONTRACT section 1): KNN, chunks, passages, the reader's tables.

A :class:`ScriptureStore` owns one read-only apsw connection. It is not shared between threads:
the app gives the store its own worker thread (see ``amicus_desktop.retrieval.Retriever``).

The store owns its SQL: the rest of the app asks it typed questions (the nearest rows inside a
filter, the chunks covering a passage, the rowids of chunk ids, vectors of rowids …) and decides
only *what* to fetch; how — which statement, whether a filter runs inside sqlite-vec's scan — is
decided here. The table and column names are :mod:`.schema`'s, the filter and coverage conditions
:mod:`.conditions`'s, the keyword index's queries :mod:`.keyword`'s.

The file is opened without writing anything, beside it included (see
:func:`amicus_desktop.store.sqlite.connect_readonly`), and checked by :mod:`.validate`. Whatever
the file holds, reading it raises only :class:`~amicus_desktop.core.errors.AmicusError` (see
:mod:`.errors`), and every value comes out as the app's type or ``DB_INVALID`` (see :mod:`.values`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import apsw
import numpy as np

from ..core.bundle import Coverage
from ..core.errors import AmicusError, ErrorCode
from ..core.query import Filters
from ..core.references import PassageRef
from ..core.results import Candidate
from ..core.scholars import Scholar
from ..core.vectors import VectorIndex

if TYPE_CHECKING:
    from .verses import VerseIndex
from . import conditions, fts, values
from .catalogue import BookRow, Catalogue, whole_statements
from .chunk_counts import ChunkCounts, file_state
from .errors import READ_ERRORS, db_error, invalid
from .keyword import FullTextIndex
from .schema import CHUNK_FROM, CHUNK_SELECT, EMBEDDINGS, VECTOR_COLUMN
from .sqlite import connect_readonly, vec_version
from .validate import StoreInfo, check_header, validate

log = logging.getLogger("amicus.store")

#: sqlite-vec answers at most this many rows per KNN (its ``k`` limit).
VEC0_MAX_K = 4096
#: Rowids per statement when rows are read by rowid (one JSON parameter each).
_ROWS_PER_READ = 500

__all__ = ["BookRow", "ScriptureStore", "StoreInfo"]


class ScriptureStore(Catalogue):
    """A validated, read-only scripture.db (its reader's and facets' questions: :class:`.catalogue.Catalogue`)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._con: apsw.Connection | None = None
        self._scholars: dict[str, Scholar] | None = None
        self._coverage: Coverage | None = None
        self._full_text: FullTextIndex | None = None
        self._vector_indexes: dict[str, VectorIndex] = {}
        #: The file's first 100 bytes as they were when it was opened (its change counter, page count …).
        self.header = b""
        self.info = self._open()

    def _open(self) -> StoreInfo:
        path = self.path
        if not path.exists():
            raise AmicusError(
                ErrorCode.DB_NOT_FOUND,
                f"No database at {path}. Build the demo with 'amicus-desktop build-db' or pass --db PATH.",
            )
        if not path.is_file():
            raise invalid(f"{path} is not a file. Choose a scripture.db file.")
        vec_version()  # EXTENSION_NOT_LOADED comes before anything about the file's content
        state = file_state(path)
        header = self.header = check_header(path)
        try:
            con = connect_readonly(path, header)
        except apsw.CantOpenError as exc:
            raise invalid(f"{path.name} cannot be opened ({exc}); check its permissions.", exc) from exc
        except apsw.Error as exc:
            raise db_error(path, exc) from exc
        self._con = con
        try:
            info = validate(con, path, str(con.execute("select vec_version()").get))
        except READ_ERRORS as exc:
            self.close()
            raise db_error(path, exc) from exc
        except AmicusError:
            self.close()
            raise
        if state is not None and file_state(path) != state:
            state = None  # changed while it opened: its counts are read from it, never cached
        self._counts = ChunkCounts(path, state, whole_statements(info.loose_columns), self.rows)
        return info

    # -- the connection ----------------------------------------------------------------------
    @property
    def con(self) -> apsw.Connection:
        """The connection, for the store's own modules (the rest of the app asks typed questions)."""
        if self._con is None:
            raise AmicusError(ErrorCode.DB_INVALID, f"{self.path.name} is closed.")
        return self._con

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """All rows of a read-only statement; SQLite errors become the contract's DB codes.

        For the store's own modules, tests and scripts: the app's code outside ``store/`` asks
        typed questions instead (``tests/test_architecture.py`` holds it to that).
        """
        try:
            return list(self.con.execute(sql, params))
        except READ_ERRORS as exc:
            raise db_error(self.path, exc) from exc

    def keyword_index_problem(self) -> str | None:
        """Why the database's own full-text index would not be used (a sentence), or ``None`` when it would.

        The check :attr:`full_text` makes first (:func:`.fts.database_index_problem`), without building
        anything: for ``doctor``.
        """
        try:
            return fts.database_index_problem(self.rows, fts.tokenizer(self.con))
        except AmicusError as exc:  # a damaged index: the app's own would do
            return f"its {fts.FTS_TABLE} cannot be read ({exc.message})"

    @property
    def full_text(self) -> FullTextIndex:
        """The keyword index (found, checked or built on first use; see :mod:`.keyword`)."""
        if self._full_text is None:
            self._full_text = FullTextIndex(self)
        return self._full_text

    # -- vectors -----------------------------------------------------------------------------
    def query_vector(self, vector: np.ndarray) -> np.ndarray:
        """``vector`` as the contiguous float32 array the database compares, or DIMENSION_MISMATCH."""
        query = np.ascontiguousarray(vector, dtype=np.float32)  # float64 bytes would read as 2× the dims
        if query.shape != (self.info.dims,):
            raise AmicusError(
                ErrorCode.DIMENSION_MISMATCH,
                f"The query vector has {query.size} dimensions; the database holds {self.info.dims}.",
            )
        return query

    def vector_index(self, mode: str | None = None) -> VectorIndex:
        """The library's meaning search (:class:`~.vector_search.LibraryVectors`: sqlite-vec's exact scan or
        the two-stage file), decided on first use per ``mode`` (``None``: ``AMICUS_TWO_STAGE``, else ``auto``)."""
        from .twostage import configured_mode  # twostage and vector_search read this module's store
        from .vector_search import LibraryVectors

        mode = mode or configured_mode()
        if mode not in self._vector_indexes:
            self._vector_indexes[mode] = LibraryVectors.open(self, mode)
        return self._vector_indexes[mode]

    def verse_index(self) -> VerseIndex:
        """Verse search's view of the database (:class:`~.verses.VerseIndex`), made on first use."""
        from .verses import VerseIndex  # verses.py reads this module's store

        return VerseIndex.for_store(self)

    def filters_in_vec0(self, filters: Filters) -> bool:
        """Whether :meth:`knn` applies ``filters`` inside sqlite-vec's scan (on vec0 metadata columns)
        rather than over the rowids they allow."""
        return conditions.vec0_filter_condition(filters, self.info.vec_filter_columns) is not None

    def knn(self, vector: np.ndarray, k: int, filters: Filters = Filters()) -> list[tuple[int, float]]:
        """The ``k`` nearest rows ``filters`` allow as ``(rowid, distance)``, nearest first (sqlite-vec's exact scan).

        The filter runs inside the KNN, so ``k`` rows come back whenever that many match: on vec0
        metadata columns when the database has them, else over the rowids it allows (sqlite-vec's
        ``rowid IN`` pre-filter). Filtering after the KNN would silently return fewer rows.
        """
        if not filters.active:
            return self._knn(vector, k)
        pushed = conditions.vec0_filter_condition(filters, self.info.vec_filter_columns)
        if pushed is not None:
            return self._knn(vector, k, *pushed)
        rowids = self.allowed_rowids(filters)
        if not rowids:
            return []
        return self._knn(vector, min(k, len(rowids)), f" AND {conditions.among('rowid')}",
                         [conditions.json_list(rowids)])

    def knn_among(self, vector: np.ndarray, rowids: Iterable[int], k: int) -> list[tuple[int, float]]:
        """The ``k`` rows of ``rowids`` nearest ``vector``, nearest first (ties by rowid)."""
        self.query_vector(vector)
        ids = sorted({int(r) for r in rowids})
        found: list[tuple[int, float]] = []
        # sqlite-vec's k is at most VEC0_MAX_K: measure larger sets in parts and merge.
        for start in range(0, len(ids), VEC0_MAX_K):
            part = ids[start : start + VEC0_MAX_K]
            found += self._knn(vector, min(k, len(part)), f" AND {conditions.among('rowid')}",
                               [conditions.json_list(part)])
        found.sort(key=lambda row: (row[1], row[0]))
        return found[:k]

    def _knn(self, vector: np.ndarray, k: int, constraints: str = "", params: Sequence[Any] = ()) -> list[
            tuple[int, float]]:
        rows = self.rows(
            f"SELECT rowid, distance FROM {EMBEDDINGS} WHERE {VECTOR_COLUMN} MATCH ? AND k = ?{constraints} "
            "ORDER BY distance",
            [self.query_vector(vector).tobytes(), int(k), *params],
        )
        dropped = sum(1 for _, d in rows if d is None)
        if dropped:  # a zero vector in the DB has no cosine distance
            log.warning("skipped rows without a distance", extra={"count": dropped})
        return [(int(r), float(d)) for r, d in rows if d is not None]

    def vectors(self, rowids: Iterable[int]) -> dict[int, np.ndarray]:
        """The stored float32 vector of each of ``rowids`` that has one (read from ``vec0``, a rowid at a time)."""
        out: dict[int, np.ndarray] = {}
        for rowid in dict.fromkeys(int(r) for r in rowids):
            found = self.rows(f"SELECT {VECTOR_COLUMN} FROM {EMBEDDINGS} WHERE rowid = ?", [rowid])
            if found and isinstance(found[0][0], bytes):
                out[rowid] = np.frombuffer(found[0][0], dtype=np.float32)
        return out

    def vector_bytes(self) -> int | None:
        """Bytes of the pages holding vec0's vectors (``None`` where SQLite lacks ``dbstat``)."""
        try:
            ((size,),) = self.con.execute(
                "SELECT sum(pgsize) FROM dbstat WHERE name LIKE ?", [f"{EMBEDDINGS}_vector_chunks%"]
            ).fetchall()
        except apsw.Error:
            return None
        return int(size or 0)

    # -- chunks -------------------------------------------------------------------------------
    def fetch(self, rowids: Iterable[int]) -> dict[int, values.ChunkRow]:
        """Text and metadata for ``rowids``: ``rowid → (chunk_id, source_type, source_id, text, meta)``."""
        ids = list(dict.fromkeys(int(r) for r in rowids))
        out: dict[int, values.ChunkRow] = {}
        for start in range(0, len(ids), _ROWS_PER_READ):
            part = ids[start : start + _ROWS_PER_READ]
            for row in self.rows(
                f"SELECT {CHUNK_SELECT} FROM {CHUNK_FROM} WHERE {conditions.among('t.rowid')}",
                [conditions.json_list(part)],
            ):
                out[int(row[0])] = values.chunk_row(self.path, row)
        return out

    def rowids_for(self, chunk_ids: Iterable[str]) -> dict[str, int]:
        """The rowid of each of ``chunk_ids`` the database holds."""
        wanted = list(dict.fromkeys(chunk_ids))
        chunk_id = conditions.column("t", "chunk_id", self.info.loose_columns)
        found: dict[str, int] = {}
        for start in range(0, len(wanted), _ROWS_PER_READ):
            for rowid, cid in self.rows(
                f"SELECT t.rowid, t.chunk_id FROM chunk_text t WHERE {conditions.among(chunk_id)}",
                [conditions.json_list(wanted[start : start + _ROWS_PER_READ])],
            ):
                found[values.text(self.path, cid, "chunk_text.chunk_id", rowid)] = int(rowid)
        return found

    def allowed_rowids(self, filters: Filters) -> list[int]:
        """Every rowid ``filters`` allow, ascending."""
        where, params = conditions.filter_condition(filters, self.info.loose_columns)
        rows = self.rows(f"SELECT t.rowid FROM {CHUNK_FROM} WHERE {where} ORDER BY t.rowid", params)
        return [int(r[0]) for r in rows]

    def covering(self, ref: PassageRef, filters: Filters = Filters()) -> list[int]:
        """Rowids of the chunks covering ``ref`` that ``filters`` allow, ascending (CONTRACT section 6)."""
        cover, cparams = conditions.covering_condition(ref, self.info.loose_columns)
        where, fparams = conditions.filter_condition(filters, self.info.loose_columns)
        rows = self.rows(
            "SELECT t.rowid FROM chunk_text t JOIN chunk_metadata m ON m.rowid = t.rowid "
            f"WHERE {cover} AND {where} ORDER BY t.rowid",
            [*cparams, *fparams],
        )
        return [int(r[0]) for r in rows]

    def covers_any(self, ref: PassageRef) -> bool:
        """Whether any chunk in the database covers ``ref`` (filters aside)."""
        cover, params = conditions.covering_condition(ref, self.info.loose_columns)
        return bool(self.rows(f"SELECT 1 FROM chunk_metadata m WHERE {cover} LIMIT 1", params))

    def chapter_chunks(self, book_id: str, chapter: int, source_types: Sequence[str],
                       limit: int = 1000) -> list[Candidate]:
        """The chunks of ``source_types`` on one chapter (at most ``limit``): a browse over ``chunk_metadata``
        (no vector), the types in the order given (the reader's commentary before the chapter's word studies),
        each by verse, the chunks on the whole chapter (no verses) first; ``distance`` is ``None``."""
        if not source_types:
            return []
        loose = self.info.loose_columns
        book, chap = conditions.column("m", "book_id", loose), conditions.column("m", "chapter_num", loose)
        kind = conditions.column("t", "source_type", loose)
        listed = conditions.json_list(source_types)
        rows = self.rows(
            f"""SELECT {CHUNK_SELECT} FROM chunk_metadata m JOIN chunk_text t ON t.rowid = m.rowid
                WHERE {book} = ? AND {chap} = ? AND {conditions.among(kind)}
                ORDER BY (SELECT min(j.key) FROM json_each(?) j WHERE j.value = {kind}),
                         m.verse_start IS NOT NULL, m.verse_start, m.verse_end, m.scholar_id, t.rowid
                LIMIT ?""",
            [book_id, chapter, listed, listed, limit],
        )
        out: list[Candidate] = []
        for row in rows:
            chunk_id, source_type, source_id, text, meta = values.chunk_row(self.path, row)
            out.append(Candidate(int(row[0]), chunk_id, source_type, source_id, text, meta, distance=None))
        return out

    def replaced(self) -> bool:
        """``False``: a new file is seen by its identity (the retriever compares the file's ``stat``)."""
        return False

    def close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None
        self._full_text = None

    def __enter__(self) -> ScriptureStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

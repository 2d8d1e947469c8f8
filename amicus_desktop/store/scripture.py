"""Reading scripture.db: validation, KNN and row fetches (CONTRACT section 1).

A :class:`ScriptureStore` owns one read-only apsw connection. It is not shared between threads:
the app gives the store its own worker thread (see ``amicus_desktop.retrieval.Retriever``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import apsw
import numpy as np

from ..core.errors import AmicusError, ErrorCode
from ..core.scholars import Scholar
from ..core.scholars import resolve as resolve_scholar
from ..core.types import Candidate, ChunkMetadata
from .sqlite import connect, vec_version

log = logging.getLogger("amicus.store")

SUPPORTED_SCHEMA_VERSIONS = ("1",)
REQUIRED_META_KEYS = ("schema_version", "embedding_model", "embedding_dims", "distance_metric")
REQUIRED_COLUMNS: dict[str, tuple[str, ...]] = {
    "chunk_text": ("chunk_id", "source_type", "source_id", "text"),
    "chunk_metadata": (
        "scholar_id", "tradition", "book_id", "chapter_num", "verse_start", "verse_end", "panel_type",
    ),
    "db_meta": ("key", "value"),
}
#: The optional ``scholars`` table (written by ``build-db``): who each ``scholar_id`` is.
SCHOLAR_COLUMNS = ("scholar_id", "name", "tradition", "work")
#: Optional vec0 metadata columns that let a filter run inside the KNN.
VEC_FILTER_COLUMNS = ("source_type", "scholar_id", "tradition", "book_id", "chapter_num")

_VEC_DIMS = re.compile(r"\bembedding\s+float\s*\[\s*(\d+)\s*\]", re.I)
_VEC_METRIC = re.compile(r"distance_metric\s*=\s*(\w+)", re.I)


@dataclass(frozen=True)
class StoreInfo:
    """What a validated scripture.db holds (for the status bar and ``doctor``)."""

    path: Path
    model_id: str
    dims: int
    schema_version: str
    chunk_count: int
    meta: Mapping[str, str]
    vec_filter_columns: tuple[str, ...] = ()
    has_books: bool = False
    has_verses: bool = False
    has_scholars: bool = False
    fts_table: str | None = None
    vec_version: str = ""
    optional_tables: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class BookRow:
    book_id: str
    name: str
    ordinal: int
    chapters: int


def _invalid(message: str, exc: BaseException | None = None) -> AmicusError:
    err = AmicusError(ErrorCode.DB_INVALID, message)
    if exc is not None:
        err.__cause__ = exc
    return err


def _db_error(path: Path, exc: apsw.Error) -> AmicusError:
    """Turn an apsw error met while reading into the contract's DB code."""
    if isinstance(exc, apsw.NotADBError):
        return _invalid(f"{path.name} is not a SQLite database. Choose a scripture.db file.", exc)
    if isinstance(exc, apsw.CorruptError):
        return _invalid(
            f"{path.name} is damaged ({exc}). Rebuild it with 'amicus-desktop build-db' or restore a copy.",
            exc,
        )
    if isinstance(exc, apsw.BusyError):
        return _invalid(f"{path.name} is locked by another program; close it and try again.", exc)
    if "no such module: vec0" in str(exc):
        return AmicusError(
            ErrorCode.EXTENSION_NOT_LOADED,
            "The database needs the sqlite-vec extension, which is not loaded. Reinstall sqlite-vec.",
        )
    return _invalid(f"{path.name} could not be read ({exc}).", exc)


_MAGIC = b"SQLite format 3\x00"


def _check_header(path: Path) -> None:
    """Refuse a file that is not SQLite, or whose header promises more pages than it holds.

    Read straight from the header (before SQLite or the extension touch the file), so a truncated
    copy gets a message that says so rather than "malformed".
    """
    size = path.stat().st_size
    if size == 0:
        raise _invalid(f"{path.name} is empty: it is not a scripture.db.")
    try:
        with open(path, "rb") as fh:
            header = fh.read(100)
    except OSError as exc:
        raise _invalid(f"{path.name} cannot be read ({exc.strerror}); check its permissions.") from exc
    if len(header) < 100 or not header.startswith(_MAGIC):
        raise _invalid(f"{path.name} is not a SQLite database. Choose a scripture.db file.")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    page_count = int.from_bytes(header[28:32], "big")
    counter_valid = header[24:28] == header[92:96]
    if counter_valid and page_count and size < page_size * page_count:
        raise _invalid(
            f"{path.name} is truncated: {size:,} bytes on disk, {page_size * page_count:,} expected. "
            "Rebuild it or restore a complete copy."
        )


class ScriptureStore:
    """A validated, read-only scripture.db."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._con: apsw.Connection | None = None
        self._scholars: dict[str, Scholar] | None = None
        self.info = self._open()

    # -- opening and validation -------------------------------------------------------------
    def _open(self) -> StoreInfo:
        path = self.path
        if not path.exists():
            raise AmicusError(
                ErrorCode.DB_NOT_FOUND,
                f"No database at {path}. Build the demo with 'amicus-desktop build-db' or pass --db PATH.",
            )
        if not path.is_file():
            raise _invalid(f"{path} is not a file. Choose a scripture.db file.")
        vec_version()  # EXTENSION_NOT_LOADED comes before anything about the file's content
        _check_header(path)
        try:
            con = connect(path, readonly=True)
        except apsw.CantOpenError as exc:
            raise _invalid(f"{path.name} cannot be opened ({exc}); check its permissions.", exc) from exc
        except apsw.Error as exc:
            raise _db_error(path, exc) from exc
        self._con = con
        try:
            (version,) = con.execute("select vec_version()").fetchone()
            return self._validate(con, str(version))
        except apsw.Error as exc:
            self.close()
            raise _db_error(path, exc) from exc
        except AmicusError:
            self.close()
            raise

    def _validate(self, con: apsw.Connection, vec_version: str) -> StoreInfo:
        path = self.path
        objects = {
            name: (kind, sql or "")
            for name, kind, sql in con.execute("SELECT name, type, sql FROM sqlite_master")
        }
        missing = [t for t in ("embeddings", *REQUIRED_COLUMNS) if t not in objects]
        if missing:
            raise _invalid(
                f"{path.name} is not a scripture.db: missing table(s) {', '.join(missing)}."
            )
        vec_sql = objects["embeddings"][1]
        if "vec0" not in vec_sql.lower():
            raise _invalid(f"{path.name}: 'embeddings' is not a sqlite-vec vec0 table.")
        for table, cols in REQUIRED_COLUMNS.items():
            have = {row[1] for row in con.execute(f"PRAGMA table_info({table})")}
            lacking = [c for c in cols if c not in have]
            if lacking:
                raise _invalid(f"{path.name}: table {table} lacks column(s) {', '.join(lacking)}.")
        meta = {str(k): str(v) for k, v in con.execute("SELECT key, value FROM db_meta")}
        lacking = [k for k in REQUIRED_META_KEYS if k not in meta]
        if lacking:
            raise _invalid(f"{path.name}: db_meta lacks required key(s) {', '.join(lacking)}.")
        if meta["schema_version"] not in SUPPORTED_SCHEMA_VERSIONS:
            raise _invalid(
                f"{path.name} has schema_version {meta['schema_version']!r}; this version of "
                f"Amicus Desktop reads schema_version {', '.join(SUPPORTED_SCHEMA_VERSIONS)}. "
                "Update Amicus Desktop or rebuild the database."
            )
        try:
            dims = int(meta["embedding_dims"])
            if dims <= 0:
                raise ValueError
        except ValueError:
            raise _invalid(
                f"{path.name}: db_meta embedding_dims is {meta['embedding_dims']!r}, not a positive integer."
            ) from None
        if meta["distance_metric"].lower() != "cosine":
            raise _invalid(
                f"{path.name}: distance_metric is {meta['distance_metric']!r}; only 'cosine' is supported."
            )
        m = _VEC_DIMS.search(vec_sql)
        if m and int(m.group(1)) != dims:
            raise _invalid(
                f"{path.name}: db_meta says {dims} dimensions but the embeddings table holds "
                f"{m.group(1)}. The database is inconsistent; rebuild it."
            )
        metric = _VEC_METRIC.search(vec_sql)
        if not metric or metric.group(1).lower() != "cosine":
            raise _invalid(
                f"{path.name}: the embeddings table does not declare distance_metric=cosine, "
                "so 1 - distance would not be a cosine similarity. Rebuild it."
            )
        # Touch the vec0 table and the text table so a broken module or page fails now, not mid-search.
        con.execute("SELECT rowid FROM embeddings LIMIT 1").fetchall()
        (max_rowid,) = con.execute("SELECT max(rowid) FROM chunk_text").fetchone()
        try:
            chunk_count = int(meta["chunk_count"])
        except (KeyError, ValueError):
            (chunk_count,) = con.execute("SELECT count(*) FROM chunk_text").fetchone()
        vec_cols = tuple(
            row[1] for row in con.execute("PRAGMA table_info(embeddings)") if row[1] in VEC_FILTER_COLUMNS
        )
        fts = next(
            (
                name
                for name, (kind, sql) in objects.items()
                if kind == "table" and "using fts5" in sql.lower() and "chunk_text" in sql.lower()
            ),
            None,
        )
        has_scholars = "scholars" in objects and self._scholars_readable(con)
        optional = (
            tuple(t for t in ("books", "verses") if t in objects)
            + (("scholars",) if has_scholars else ())
            + ((fts,) if fts else ())
        )
        log.info(
            "opened scripture.db",
            extra={"dims": dims, "chunks": chunk_count, "max_rowid": max_rowid, "optional": optional},
        )
        return StoreInfo(
            path=path,
            model_id=meta["embedding_model"],
            dims=dims,
            schema_version=meta["schema_version"],
            chunk_count=chunk_count,
            meta=meta,
            vec_filter_columns=vec_cols,
            has_books="books" in objects,
            has_verses="verses" in objects,
            has_scholars=has_scholars,
            fts_table=fts,
            vec_version=vec_version,
            optional_tables=optional,
        )

    def _scholars_readable(self, con: apsw.Connection) -> bool:
        """Whether the optional ``scholars`` table has the columns this app reads. A table that
        does not is ignored (names then come from the built-in table), never an error."""
        have = {row[1] for row in con.execute("PRAGMA table_info(scholars)")}
        if {"scholar_id", "name"} <= have:
            return True
        log.warning("ignoring a scholars table without scholar_id and name columns")
        return False

    # -- queries ---------------------------------------------------------------------------
    @property
    def con(self) -> apsw.Connection:
        if self._con is None:
            raise AmicusError(ErrorCode.DB_INVALID, f"{self.path.name} is closed.")
        return self._con

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """All rows of a read-only statement; SQLite errors become the contract's DB codes."""
        return self._rows(sql, params)

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        try:
            return list(self.con.execute(sql, params))
        except apsw.Error as exc:
            raise _db_error(self.path, exc) from exc

    def knn(
        self,
        vector: np.ndarray,
        k: int,
        filters: Mapping[str, str | int] | None = None,
    ) -> list[tuple[int, float]]:
        """The ``k`` nearest rows as ``(rowid, distance)``, nearest first.

        ``filters`` (column → value) run inside the KNN, so ``k`` rows still come back when enough
        match; that needs the optional vec0 metadata columns. Filtering on a joined table after the
        KNN would silently return fewer rows, so it is refused instead.
        """
        query = np.ascontiguousarray(vector, dtype=np.float32)  # float64 would read as 2× dims
        if query.shape != (self.info.dims,):
            raise AmicusError(
                ErrorCode.DIMENSION_MISMATCH,
                f"The query vector has {query.size} dimensions; the database holds {self.info.dims}.",
            )
        sql = "SELECT rowid, distance FROM embeddings WHERE embedding MATCH ? AND k = ?"
        params: list[Any] = [query.tobytes(), int(k)]
        for column, value in (filters or {}).items():
            if column not in self.info.vec_filter_columns:
                raise ValueError(
                    f"cannot filter on {column!r}: the database has no such vec0 metadata column"
                )
            sql += f" AND {column} = ?"
            params.append(value)
        sql += " ORDER BY distance"
        rows = self._rows(sql, params)
        dropped = sum(1 for _, d in rows if d is None)
        if dropped:  # a zero vector in the DB has no cosine distance
            log.warning("skipped rows without a distance", extra={"count": dropped})
        return [(int(r), float(d)) for r, d in rows if d is not None]

    def fetch(self, rowids: Iterable[int]) -> dict[int, tuple[str, str, str, str, ChunkMetadata]]:
        """Text and metadata for ``rowids``: ``rowid → (chunk_id, source_type, source_id, text, meta)``."""
        ids = list(dict.fromkeys(int(r) for r in rowids))
        out: dict[int, tuple[str, str, str, str, ChunkMetadata]] = {}
        # SQLite's default limit on host parameters is 32766; chunk to stay far below it.
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            marks = ",".join("?" * len(part))
            for row in self._rows(
                f"""SELECT t.rowid, t.chunk_id, t.source_type, t.source_id, t.text,
                           m.scholar_id, m.tradition, m.book_id, m.chapter_num,
                           m.verse_start, m.verse_end, m.panel_type
                    FROM chunk_text t LEFT JOIN chunk_metadata m ON m.rowid = t.rowid
                    WHERE t.rowid IN ({marks})""",
                part,
            ):
                meta = ChunkMetadata(*(None if v is None else v for v in row[5:]))
                out[int(row[0])] = (str(row[1]), str(row[2]), str(row[3]), str(row[4]), meta)
        return out

    def candidates(
        self, vector: np.ndarray, k: int, filters: Mapping[str, str | int] | None = None
    ) -> list[Candidate]:
        """KNN rows joined with their text and metadata, nearest first."""
        hits = self.knn(vector, k, filters)
        rows = self.fetch(r for r, _ in hits)
        missing = [r for r, _ in hits if r not in rows]
        if missing:
            log.warning("KNN rows without chunk_text", extra={"count": len(missing)})
        return [
            Candidate(rowid, *rows[rowid][:4], metadata=rows[rowid][4], distance=distance)
            for rowid, distance in hits
            if rowid in rows
        ]

    # -- reader and facets -----------------------------------------------------------------
    def books(self) -> list[BookRow]:
        """Books for the reader, in canonical order (empty without the optional ``books`` table)."""
        if not self.info.has_books:
            return []
        return [BookRow(*r) for r in self._rows("SELECT book_id, name, ordinal, chapters FROM books ORDER BY ordinal")]

    def chapter(self, book_id: str, chapter: int) -> list[tuple[int, str]]:
        """``(verse_num, text)`` of one chapter, in order (empty without ``verses``)."""
        if not self.info.has_verses:
            return []
        return [
            (int(v), str(t))
            for v, t in self._rows(
                "SELECT verse_num, text FROM verses WHERE book_id = ? AND chapter_num = ? ORDER BY verse_num",
                (book_id, int(chapter)),
            )
        ]

    def book_ids(self) -> set[str]:
        """Every ``book_id`` the chunks or the reader know."""
        ids = {r[0] for r in self._rows("SELECT DISTINCT book_id FROM chunk_metadata WHERE book_id IS NOT NULL")}
        if self.info.has_books:
            ids |= {r[0] for r in self._rows("SELECT book_id FROM books")}
        return ids

    def facets(self) -> dict[str, list[tuple[str, int]]]:
        """Scholars and traditions present, with chunk counts, for the profile editor."""
        out: dict[str, list[tuple[str, int]]] = {}
        for column in ("scholar_id", "tradition"):
            out[column] = [
                (str(v), int(n))
                for v, n in self._rows(
                    f"SELECT {column}, count(*) FROM chunk_metadata WHERE {column} IS NOT NULL "
                    f"GROUP BY {column} ORDER BY {column}"
                )
            ]
        return out

    def scholar_table(self) -> dict[str, Scholar]:
        """The rows of the database's own ``scholars`` table (empty without one). A row with an
        empty name is passed over; a tradition or work that is not text reads as absent."""
        own: dict[str, Scholar] = {}
        if self.info.has_scholars:
            have = {row[1] for row in self._rows("PRAGMA table_info(scholars)")}
            cols = ", ".join(c if c in have else "NULL" for c in SCHOLAR_COLUMNS)
            for sid, name, tradition, work in self._rows(f"SELECT {cols} FROM scholars"):
                if isinstance(sid, str) and sid and isinstance(name, str) and name.strip():
                    own[sid] = Scholar(
                        sid, name.strip(),
                        tradition if isinstance(tradition, str) and tradition else None,
                        work if isinstance(work, str) and work else None,
                    )
        return own

    def scholars(self) -> dict[str, Scholar]:
        """Every scholar the chunks name (and every one the ``scholars`` table lists), by id.

        Names come from the database's own ``scholars`` table when it has the id, else from the
        app's table of known scholars, else from the id itself (``c-i-scofield`` → "C. I.
        Scofield"), so a database with only the contract's minimal schema still shows names.
        """
        if self._scholars is None:
            own = self.scholar_table()
            ids = {
                str(r[0])
                for r in self._rows("SELECT DISTINCT scholar_id FROM chunk_metadata WHERE scholar_id IS NOT NULL")
            }
            self._scholars = {sid: resolve_scholar(sid, own) for sid in sorted(ids | set(own))}
        return dict(self._scholars)

    def source_type_counts(self) -> dict[str, int]:
        return {str(t): int(n) for t, n in self._rows("SELECT source_type, count(*) FROM chunk_text GROUP BY source_type")}

    def close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None

    def __enter__(self) -> ScriptureStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

"""Reading scripture.db: validation, KNN and row fetches (CONTRACT section 1).

A :class:`ScriptureStore` owns one read-only apsw connection. It is not shared between threads:
the app gives the store its own worker thread (see ``amicus_desktop.retrieval.Retriever``).

The file is opened without writing anything, beside it included (see
:func:`amicus_desktop.store.sqlite.connect_readonly`). Whatever the file holds, reading it raises
only :class:`~amicus_desktop.core.errors.AmicusError`: text that is not UTF-8 (a damaged page, a
bit flip) is ``DB_INVALID``, and row values of the wrong type are coerced when nothing is lost
(``3.0`` or ``'3'`` in ``chapter_num`` → ``3``, a number in a text column → its text) and refused
with ``DB_INVALID`` otherwise (a BLOB anywhere, ``'three'`` or ``3.5`` in an integer column, NULL
in a required text column), naming the chunk and the column.
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
from ..core.results import Candidate, ChunkMetadata
from ..core.scholars import Scholar
from ..core.scholars import resolve as resolve_scholar
from .sqlite import connect_readonly, vec_version

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

#: the vector column of ``embeddings`` (CONTRACT section 1).
VECTOR_COLUMN = "embedding"


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


def _db_error(path: Path, exc: apsw.Error | UnicodeDecodeError) -> AmicusError:
    """Turn an error met while reading into the contract's DB code."""
    if isinstance(exc, UnicodeDecodeError):  # apsw decodes TEXT as UTF-8 while it hands rows out
        return _invalid(
            f"{path.name} is damaged: it holds text that is not valid UTF-8. Rebuild it with "
            "'amicus-desktop build-db' or restore a copy.",
            exc,
        )
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


def _check_header(path: Path) -> bytes:
    """The file's 100-byte header; refuses a file that is not SQLite or holds fewer pages than it says.

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
    return header


@dataclass(frozen=True)
class VectorColumn:
    """A vector column as declared in a vec0 table: ``embedding float[384] distance_metric=cosine``."""

    name: str
    element: str  # float, int8 or bit
    dims: int
    options: Mapping[str, str]


def vec0_columns(sql: str) -> dict[str, VectorColumn] | None:
    """The vector columns of a ``CREATE VIRTUAL TABLE … USING vec0(…)`` statement, by name.

    ``None`` when ``sql`` does not create a vec0 table. Read the way SQLite hands the arguments to
    sqlite-vec: comments dropped, arguments split at the top-level commas; each vector column's
    options (``distance_metric=cosine``) belong to that column alone, the last of a repeated
    option wins, and names and values are compared lower-cased.
    """
    text = _without_comments(sql)
    start = re.search(r"\busing\s+vec0\s*\(", text, re.IGNORECASE)
    end = text.rfind(")")
    if start is None or end < start.end():
        return None
    columns: dict[str, VectorColumn] = {}
    for argument in _split_arguments(text[start.end() : end]):
        # as sqlite-vec reads it: "float [ 4 ]" is "float[4]", "]" ends a word, "a = b" is "a=b"
        argument = re.sub(r"\s*\[\s*", "[", argument)
        argument = re.sub(r"\s*=\s*", "=", re.sub(r"\s*\]\s*", "] ", argument))
        words = argument.split()
        if len(words) < 2:
            continue
        kind = re.fullmatch(r"(float|f32|int8|i8|bit)\[(\d+)\]", words[1], re.IGNORECASE)
        if kind is None:
            continue
        name = words[0].lower()
        element = {"f32": "float", "i8": "int8"}.get(kind.group(1).lower(), kind.group(1).lower())
        options = dict(w.lower().split("=", 1) for w in words[2:] if "=" in w)
        columns[name] = VectorColumn(name, element, int(kind.group(2)), options)
    return columns


def _without_comments(sql: str) -> str:
    """``sql`` with ``-- …`` and ``/* … */`` comments replaced by a space (quotes respected)."""
    out: list[str] = []
    i, n = 0, len(sql)
    closing = {"'": "'", '"': '"', "`": "`", "[": "]"}
    while i < n:
        c = sql[i]
        if c in closing:
            j = sql.find(closing[c], i + 1)
            j = n - 1 if j < 0 else j
            out.append(sql[i : j + 1])
            i = j + 1
        elif sql.startswith("--", i):
            j = sql.find("\n", i)
            i = n if j < 0 else j
            out.append(" ")
        elif sql.startswith("/*", i):
            j = sql.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _split_arguments(body: str) -> list[str]:
    """Split at commas outside quotes, brackets and parentheses."""
    parts: list[str] = []
    depth, quote = 0, ""
    current: list[str] = []
    closing = {"'": "'", '"': '"', "`": "`", "[": "]"}
    for c in body:
        if quote:
            quote = "" if c == closing[quote] else quote
        elif c in closing:
            quote = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(c)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def _chunk_row(path: Path, row: Sequence[Any]) -> tuple[str, str, str, str, ChunkMetadata]:
    """``(chunk_id, source_type, source_id, text, metadata)`` from a :meth:`ScriptureStore.fetch` row."""
    chunk_id = _text(path, row[1], "chunk_id", row[0])
    source_type, source_id, text = (_text(path, v, c, chunk_id) for v, c in
                                    zip(row[2:5], ("source_type", "source_id", "text"), strict=True))
    scholar, tradition, book, chapter, start, end, panel = row[5:12]
    meta = ChunkMetadata(
        scholar_id=_opt_text(path, scholar, "scholar_id", chunk_id),
        tradition=_opt_text(path, tradition, "tradition", chunk_id),
        book_id=_opt_text(path, book, "book_id", chunk_id),
        chapter_num=_opt_int(path, chapter, "chapter_num", chunk_id),
        verse_start=_opt_int(path, start, "verse_start", chunk_id),
        verse_end=_opt_int(path, end, "verse_end", chunk_id),
        panel_type=_opt_text(path, panel, "panel_type", chunk_id),
    )
    return chunk_id, source_type, source_id, text, meta


def _text(path: Path, value: object, column: str, chunk: object) -> str:
    """A required ``chunk_text`` value: a number becomes its text; NULL or a BLOB is ``DB_INVALID``."""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return str(value)
    raise _bad_value(path, value, f"chunk_text.{column}", chunk, "text")


def _opt_text(path: Path, value: object, column: str, chunk: object) -> str | None:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return str(value)
    raise _bad_value(path, value, f"chunk_metadata.{column}", chunk, "text")


def _opt_int(path: Path, value: object, column: str, chunk: object) -> int | None:
    if value is None or isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d{1,18}\s*", value):
        return int(value)
    raise _bad_value(path, value, f"chunk_metadata.{column}", chunk, "an integer")


def _bad_value(path: Path, value: object, column: str, chunk: object, wanted: str) -> AmicusError:
    kind = "a BLOB" if isinstance(value, bytes) else "NULL" if value is None else repr(value)[:40]
    where = f"row {chunk}" if isinstance(chunk, int) else f"chunk {str(chunk)[:80]!r}"
    return _invalid(
        f"{path.name} is damaged: {column} of {where} holds {kind}, not {wanted}. "
        "Rebuild it with 'amicus-desktop build-db' or fix that row."
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
        header = _check_header(path)
        try:
            con = connect_readonly(path, header)
        except apsw.CantOpenError as exc:
            raise _invalid(f"{path.name} cannot be opened ({exc}); check its permissions.", exc) from exc
        except apsw.Error as exc:
            raise _db_error(path, exc) from exc
        self._con = con
        try:
            version = con.execute("select vec_version()").get
            return self._validate(con, str(version))
        except (apsw.Error, UnicodeDecodeError) as exc:
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
        columns = vec0_columns(vec_sql)
        if columns is None:
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
        vector = columns.get(VECTOR_COLUMN)
        if vector is None:
            raise _invalid(f"{path.name}: the embeddings table has no vector column named {VECTOR_COLUMN!r}.")
        if vector.element != "float":
            raise _invalid(
                f"{path.name}: the embeddings table holds {vector.element} vectors; only float vectors "
                "are supported. Rebuild it."
            )
        if vector.dims != dims:
            raise _invalid(
                f"{path.name}: db_meta says {dims} dimensions but the embeddings table holds "
                f"{vector.dims}. The database is inconsistent; rebuild it."
            )
        if vector.options.get("distance_metric") != "cosine":
            raise _invalid(
                f"{path.name}: the embeddings table does not declare distance_metric=cosine on its "
                f"{VECTOR_COLUMN!r} column, so 1 - distance would not be a cosine similarity. Rebuild it."
            )
        # Touch the vec0 table and the text table so a broken module or page fails now, not mid-search.
        con.execute("SELECT rowid FROM embeddings LIMIT 1").fetchall()
        max_rowid = con.execute("SELECT max(rowid) FROM chunk_text").get
        try:
            chunk_count = int(meta["chunk_count"])
        except (KeyError, ValueError):
            chunk_count = int(con.execute("SELECT count(*) FROM chunk_text").get)
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
        try:
            return list(self.con.execute(sql, params))
        except (apsw.Error, UnicodeDecodeError) as exc:
            raise _db_error(self.path, exc) from exc

    def query_vector(self, vector: np.ndarray) -> np.ndarray:
        """``vector`` as the contiguous float32 array the database compares, or DIMENSION_MISMATCH."""
        query = np.ascontiguousarray(vector, dtype=np.float32)  # float64 bytes would read as 2× the dims
        if query.shape != (self.info.dims,):
            raise AmicusError(
                ErrorCode.DIMENSION_MISMATCH,
                f"The query vector has {query.size} dimensions; the database holds {self.info.dims}.",
            )
        return query

    def knn(
        self, vector: np.ndarray, k: int, constraints: str = "", params: Sequence[Any] = ()
    ) -> list[tuple[int, float]]:
        """The ``k`` nearest rows as ``(rowid, distance)``, nearest first (sqlite-vec's exact scan).

        ``constraints`` (``" AND …"`` with ``params``) run inside the KNN, so ``k`` rows still come
        back when enough match: vec0 metadata columns (:func:`~amicus_desktop.candidates.filters.
        vec0_pushdown`) or ``rowid IN (…)``. Filtering a joined table after the KNN would silently
        return fewer rows.
        """
        rows = self.rows(
            f"SELECT rowid, distance FROM embeddings WHERE embedding MATCH ? AND k = ?{constraints} ORDER BY distance",
            [self.query_vector(vector).tobytes(), int(k), *params],
        )
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
            for row in self.rows(
                f"""SELECT t.rowid, t.chunk_id, t.source_type, t.source_id, t.text,
                           m.scholar_id, m.tradition, m.book_id, m.chapter_num,
                           m.verse_start, m.verse_end, m.panel_type
                    FROM chunk_text t LEFT JOIN chunk_metadata m ON m.rowid = t.rowid
                    WHERE t.rowid IN ({marks})""",
                part,
            ):
                out[int(row[0])] = _chunk_row(self.path, row)
        return out

    # -- reader and facets -----------------------------------------------------------------
    def chapter_chunks(self, book_id: str, chapter: int, source_types: Sequence[str],
                       limit: int = 1000) -> list[Candidate]:
        """The chunks of ``source_types`` on one chapter, by verse (at most ``limit``): a browse over
        ``chunk_metadata`` (no vector). Chunks on the whole chapter (no verses) come first;
        ``distance`` is ``None``."""
        if not source_types:
            return []
        marks = ",".join("?" * len(source_types))
        rows = self.rows(
            f"""SELECT t.rowid, t.chunk_id, t.source_type, t.source_id, t.text,
                       m.scholar_id, m.tradition, m.book_id, m.chapter_num,
                       m.verse_start, m.verse_end, m.panel_type
                FROM chunk_metadata m JOIN chunk_text t ON t.rowid = m.rowid
                WHERE m.book_id = ? AND m.chapter_num = ? AND t.source_type IN ({marks})
                ORDER BY m.verse_start IS NOT NULL, m.verse_start, m.verse_end, t.source_type, m.scholar_id,
                         t.rowid
                LIMIT ?""",
            [book_id, chapter, *source_types, limit],
        )
        out: list[Candidate] = []
        for row in rows:
            chunk_id, source_type, source_id, text, meta = _chunk_row(self.path, row)
            out.append(Candidate(int(row[0]), chunk_id, source_type, source_id, text, meta, distance=None))
        return out

    def books(self) -> list[BookRow]:
        """Books for the reader, in canonical order (empty without the optional ``books`` table)."""
        if not self.info.has_books:
            return []
        return [BookRow(*r) for r in self.rows("SELECT book_id, name, ordinal, chapters FROM books ORDER BY ordinal")]

    def chapter(self, book_id: str, chapter: int) -> list[tuple[int, str]]:
        """``(verse_num, text)`` of one chapter, in order (empty without ``verses``)."""
        if not self.info.has_verses:
            return []
        return [
            (int(v), str(t))
            for v, t in self.rows(
                "SELECT verse_num, text FROM verses WHERE book_id = ? AND chapter_num = ? ORDER BY verse_num",
                (book_id, int(chapter)),
            )
        ]

    def book_ids(self) -> set[str]:
        """Every ``book_id`` the chunks or the reader know."""
        ids = {r[0] for r in self.rows("SELECT DISTINCT book_id FROM chunk_metadata WHERE book_id IS NOT NULL")}
        if self.info.has_books:
            ids |= {r[0] for r in self.rows("SELECT book_id FROM books")}
        return ids

    def facets(self) -> dict[str, list[tuple[str, int]]]:
        """Scholars and traditions present, with chunk counts, for the profile editor."""
        out: dict[str, list[tuple[str, int]]] = {}
        for column in ("scholar_id", "tradition"):
            out[column] = [
                (str(v), int(n))
                for v, n in self.rows(
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
            have = {row[1] for row in self.rows("PRAGMA table_info(scholars)")}
            cols = ", ".join(c if c in have else "NULL" for c in SCHOLAR_COLUMNS)
            for sid, name, tradition, work in self.rows(f"SELECT {cols} FROM scholars"):
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
                for r in self.rows("SELECT DISTINCT scholar_id FROM chunk_metadata WHERE scholar_id IS NOT NULL")
            }
            self._scholars = {sid: resolve_scholar(sid, own) for sid in sorted(ids | set(own))}
        return dict(self._scholars)

    def source_type_counts(self) -> dict[str, int]:
        rows = self.rows("SELECT source_type, count(*) FROM chunk_text GROUP BY source_type")
        return {str(t): int(n) for t, n in rows}

    def close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None

    def __enter__(self) -> ScriptureStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

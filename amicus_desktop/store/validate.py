"""Checking that a file is a scripture.db this app can read (CONTRACT section 1), before any search.

:func:`check_header` reads the file's first 100 bytes before SQLite or the extension touch it;
:func:`validate` reads the schema through the store's connection and returns a :class:`StoreInfo`,
or raises ``DB_INVALID`` with a sentence naming what is wrong (a missing table, column or
``db_meta`` key, an unknown ``schema_version``, dimensions that disagree, a metric other than cosine
on the vector column itself).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import apsw

from .declarations import vec0_columns
from .errors import invalid
from .schema import (
    EMBEDDINGS,
    INTEGER_METADATA,
    REQUIRED_COLUMNS,
    REQUIRED_META_KEYS,
    SUPPORTED_SCHEMA_VERSIONS,
    VEC_FILTER_COLUMNS,
    VECTOR_COLUMN,
)

log = logging.getLogger("amicus.store")


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
    #: ``chunk_text``/``chunk_metadata`` columns declared without the affinity their comparisons
    #: need (a database from elsewhere, without column types): compared through ``CAST``.
    loose_columns: tuple[str, ...] = ()


_MAGIC = b"SQLite format 3\x00"


def check_header(path: Path) -> bytes:
    """The file's 100-byte header; refuses a file that is not SQLite or holds fewer pages than it says.

    Read straight from the header (before SQLite or the extension touch the file), so a truncated
    copy gets a message that says so rather than "malformed".
    """
    size = path.stat().st_size
    if size == 0:
        raise invalid(f"{path.name} is empty: it is not a scripture.db.")
    try:
        with open(path, "rb") as fh:
            header = fh.read(100)
    except OSError as exc:
        raise invalid(f"{path.name} cannot be read ({exc.strerror}); check its permissions.") from exc
    if len(header) < 100 or not header.startswith(_MAGIC):
        raise invalid(f"{path.name} is not a SQLite database. Choose a scripture.db file.")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    page_count = int.from_bytes(header[28:32], "big")
    counter_valid = header[24:28] == header[92:96]
    if counter_valid and page_count and size < page_size * page_count:
        raise invalid(
            f"{path.name} is truncated: {size:,} bytes on disk, {page_size * page_count:,} expected. "
            "Rebuild it or restore a complete copy."
        )
    return header


def affinity(declared: str) -> str:
    """SQLite's column affinity for a declared type (its rules, in their order)."""
    t = declared.upper()
    if "INT" in t:
        return "INTEGER"
    if any(s in t for s in ("CHAR", "CLOB", "TEXT")):
        return "TEXT"
    if "BLOB" in t or not t.strip():
        return "BLOB"
    if any(s in t for s in ("REAL", "FLOA", "DOUB")):
        return "REAL"
    return "NUMERIC"


def _loose(table: str, declared: Mapping[str, str]) -> list[str]:
    """Columns of ``table`` whose affinity would compare a stored value otherwise than the reader reads it."""
    out = []
    for name in REQUIRED_COLUMNS[table]:
        kind = affinity(declared.get(name, ""))
        wanted = ("INTEGER", "REAL", "NUMERIC") if name in INTEGER_METADATA else ("TEXT",)
        if kind not in wanted:
            out.append(name)
    return out


def validate(con: apsw.Connection, path: Path, vec_version: str) -> StoreInfo:
    """What the database behind ``con`` holds, or ``DB_INVALID`` saying what is wrong."""
    objects = {
        str(name): (str(kind), str(sql or ""))
        for name, kind, sql in con.execute("SELECT name, type, sql FROM sqlite_master")
    }
    missing = [t for t in (EMBEDDINGS, *REQUIRED_COLUMNS) if t not in objects]
    if missing:
        raise invalid(f"{path.name} is not a scripture.db: missing table(s) {', '.join(missing)}.")
    columns = vec0_columns(objects[EMBEDDINGS][1])
    if columns is None:
        raise invalid(f"{path.name}: '{EMBEDDINGS}' is not a sqlite-vec vec0 table.")
    loose: list[str] = []
    for table, cols in REQUIRED_COLUMNS.items():
        declared = {str(row[1]): str(row[2] or "") for row in con.execute(f"PRAGMA table_info({table})")}
        lacking = [c for c in cols if c not in declared]
        if lacking:
            raise invalid(f"{path.name}: table {table} lacks column(s) {', '.join(lacking)}.")
        if table != "db_meta":
            loose += _loose(table, declared)
    meta = {str(k): str(v) for k, v in con.execute("SELECT key, value FROM db_meta")}
    dims = _check_meta(path, meta)
    vector = columns.get(VECTOR_COLUMN)
    if vector is None:
        raise invalid(f"{path.name}: the embeddings table has no vector column named {VECTOR_COLUMN!r}.")
    if vector.element != "float":
        raise invalid(
            f"{path.name}: the embeddings table holds {vector.element} vectors; only float vectors "
            "are supported. Rebuild it."
        )
    if vector.dims != dims:
        raise invalid(
            f"{path.name}: db_meta says {dims} dimensions but the embeddings table holds "
            f"{vector.dims}. The database is inconsistent; rebuild it."
        )
    if vector.options.get("distance_metric") != "cosine":
        raise invalid(
            f"{path.name}: the embeddings table does not declare distance_metric=cosine on its "
            f"{VECTOR_COLUMN!r} column, so 1 - distance would not be a cosine similarity. Rebuild it."
        )
    # Touch the text table and the vec0 table so a broken module or page fails now, not mid-search: one vec0 row
    # by its rowid (a scan's first row costs sqlite-vec a read of every chunk's rowids: 20 ms at 62k rows).
    max_rowid = con.execute("SELECT max(rowid) FROM chunk_text").get
    con.execute(f"SELECT rowid FROM {EMBEDDINGS} WHERE rowid = ?", (max_rowid,)).fetchall()
    try:
        chunk_count = int(meta["chunk_count"])
    except (KeyError, ValueError):
        chunk_count = int(con.execute("SELECT count(*) FROM chunk_text").get)
    vec_cols = tuple(
        row[1] for row in con.execute(f"PRAGMA table_info({EMBEDDINGS})") if row[1] in VEC_FILTER_COLUMNS
    )
    fts = next(
        (
            name
            for name, (kind, sql) in objects.items()
            if kind == "table" and "using fts5" in sql.lower() and "chunk_text" in sql.lower()
        ),
        None,
    )
    has_scholars = "scholars" in objects and _scholars_readable(con)
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
        loose_columns=tuple(loose),
    )


def _check_meta(path: Path, meta: Mapping[str, str]) -> int:
    """The dimensions ``db_meta`` declares, once its required keys, version and metric are checked."""
    lacking = [k for k in REQUIRED_META_KEYS if k not in meta]
    if lacking:
        raise invalid(f"{path.name}: db_meta lacks required key(s) {', '.join(lacking)}.")
    if meta["schema_version"] not in SUPPORTED_SCHEMA_VERSIONS:
        raise invalid(
            f"{path.name} has schema_version {meta['schema_version']!r}; this version of "
            f"Amicus Desktop reads schema_version {', '.join(SUPPORTED_SCHEMA_VERSIONS)}. "
            "Update Amicus Desktop or rebuild the database."
        )
    try:
        dims = int(meta["embedding_dims"])
        if dims <= 0:
            raise ValueError
    except ValueError:
        raise invalid(
            f"{path.name}: db_meta embedding_dims is {meta['embedding_dims']!r}, not a positive integer."
        ) from None
    if meta["distance_metric"].lower() != "cosine":
        raise invalid(
            f"{path.name}: distance_metric is {meta['distance_metric']!r}; only 'cosine' is supported."
        )
    return dims


def _scholars_readable(con: apsw.Connection) -> bool:
    """Whether the optional ``scholars`` table has the columns this app reads. A table that
    does not is ignored (names then come from the built-in table), never an error."""
    have = {row[1] for row in con.execute("PRAGMA table_info(scholars)")}
    if {"scholar_id", "name"} <= have:
        return True
    log.warning("ignoring a scholars table without scholar_id and name columns")
    return False

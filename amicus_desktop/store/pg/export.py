"""A SQLite library copied into PostgreSQL (``export-db LIBRARY --to postgresql://…``), in one transaction.

:func:`export_library` reads scripture.db through the validated reader (every value typed as the app reads it)
and writes :mod:`.schema`'s tables into a schema of a fresh name, then — in the same transaction — drops the
library that was there and renames the new one into its place. A failure anywhere (the source, the network,
the database) rolls everything back: readers keep the library they had, and nothing half-written stays. A
library already exported from the same source (the same content id and build id, ``db_meta.exported_from``)
is left as it is unless ``replace`` is given: re-running is idempotent.

The keyword index is made here: each chunk's text is tokenized by SQLite's own FTS5 tokenizer as
:data:`~amicus_desktop.store.fts.FTS_TOKENIZE` declares it (the tokenizer of the SQLite library's
``chunk_fts``), and its token count, terms and term frequencies are written as rows (:mod:`.schema`).
"""

from __future__ import annotations

import secrets
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import apsw
import numpy as np

from ...core.errors import AmicusError, ErrorCode
from ...core.query import Filters
from .. import content_id, fts
from ..schema import BUILD_STATE, EMBEDDINGS, GROWING, VECTOR_COLUMN
from ..scripture import ScriptureStore
from .export_verses import write_verses
from .schema import EXPORTED_FROM, SCHEMA, connect, indexes, layout, pg_errors

if TYPE_CHECKING:
    import psycopg

#: The tables' layout: a library exported in an older one is written again (it lacks the verse tables).
LAYOUT = "layout 2"
#: Chunks read from SQLite at a time.
_BATCH = 2000


@dataclass(frozen=True)
class ExportReport:
    """What :func:`export_library` did."""

    chunks: int
    vectors: int
    terms: int
    verses: int
    #: the library there was already this one (nothing written)
    unchanged: bool
    seconds: float


def vector_text(vector: np.ndarray) -> str:
    """A float32 vector as pgvector reads it, every value exact (a float32 printed as a double reads back)."""
    return "[" + ",".join(repr(x) for x in np.asarray(vector, dtype=np.float32).tolist()) + "]"


def source_marker(store: ScriptureStore) -> str:
    """What tells one SQLite library from another: its content id and build id."""
    return f"{content_id.library_id(store)}|{store.info.meta.get('build_id', '')}|{LAYOUT}"


def exported_marker(con: psycopg.Connection[Any]) -> str | None:
    """The ``exported_from`` of the library in the database, or ``None`` when there is none."""
    found = con.execute("SELECT to_regclass(%s)", [f"{SCHEMA}.db_meta"]).fetchone()
    if found is None or found[0] is None:
        return None
    row = con.execute(f"SELECT value FROM {SCHEMA}.db_meta WHERE key = %s", [EXPORTED_FROM]).fetchone()
    return str(row[0]) if row else None


def export_library(source: str | Path, url: str, *, replace: bool = False,
                   progress: Callable[[str], None] = lambda _m: None) -> ExportReport:
    """Copy the SQLite library at ``source`` into the PostgreSQL database at ``url`` (module docstring)."""
    t0 = time.perf_counter()
    with ScriptureStore(source) as store:
        if store.info.meta.get(BUILD_STATE) == GROWING:
            raise AmicusError(ErrorCode.DB_INVALID, f"{Path(source).name} is still being built (build-db --resume); "
                                                    "export it once its last book is in.")
        marker = source_marker(store)
        con = connect(url, reader=False)
        try:
            with pg_errors(url):
                _check_vector(con, url)
                if not replace and exported_marker(con) == marker:
                    progress("the database holds this library already: nothing to do")
                    return ExportReport(store.info.chunk_count, 0, 0, 0, True, time.perf_counter() - t0)
                with con.transaction():
                    report = _write(store, con, marker, progress)
        finally:
            con.close()
    return ExportReport(*report, False, time.perf_counter() - t0)


def _check_vector(con: psycopg.Connection[Any], url: str) -> None:
    if con.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone() is None:
        try:
            con.execute("CREATE EXTENSION IF NOT EXISTS vector")
        except Exception as exc:  # a role that may not create it: the administrator's step
            from .schema import shown

            raise AmicusError(ErrorCode.EXTENSION_NOT_LOADED,
                              f"The database at {shown(url)} lacks pgvector and this role cannot add it "
                              f"({type(exc).__name__}): an administrator runs CREATE EXTENSION vector in it "
                              "once.") from None


def _write(store: ScriptureStore, con: psycopg.Connection[Any], marker: str,
           progress: Callable[[str], None]) -> tuple[int, int, int, int]:
    """(In the caller's transaction) the library into a new schema, which then takes :data:`SCHEMA`'s place."""
    new = f"{SCHEMA}_new_{secrets.token_hex(4)}"
    con.execute(layout(new, store.info.dims))
    meta = dict(store.info.meta)
    meta[EXPORTED_FROM] = marker
    meta.setdefault(content_id.CONTENT_ID_KEY, marker.split("|")[0])
    _copy(con, f"{new}.db_meta (key, value)", sorted(meta.items()))
    rowids = store.allowed_rowids(Filters())
    progress(f"{len(rowids):,} chunks")
    tokenize = fts.tokenizer(apsw.Connection(":memory:"))
    doc_counts: Counter[str] = Counter()
    total_tokens = 0
    for start in range(0, len(rowids), _BATCH):  # one COPY at a time per connection: a batch per table
        part = rowids[start:start + _BATCH]
        rows = store.fetch(part)
        texts, metas, docs, postings = [], [], [], []
        for rowid in part:
            chunk_id, source_type, source_id, text, m = rows[rowid]
            texts.append((rowid, chunk_id, source_type, source_id, text))
            metas.append((rowid, m.scholar_id, m.tradition, m.book_id, m.chapter_num, m.verse_start, m.verse_end,
                          m.panel_type))
            tokens = fts.document_tokens(tokenize, text)
            total_tokens += len(tokens)
            docs.append((rowid, len(tokens)))
            for term, tf in Counter(tokens).items():
                postings.append((term, rowid, tf))
                doc_counts[term] += 1
        _copy(con, f"{new}.chunk_text (rowid, chunk_id, source_type, source_id, text)", texts)
        _copy(con, f"{new}.chunk_metadata (rowid, scholar_id, tradition, book_id, chapter_num, verse_start, "
                   "verse_end, panel_type)", metas)
        _copy(con, f"{new}.fts_docs (rowid, tokens)", docs)
        _copy(con, f"{new}.fts_postings (term, rowid, tf)", postings)
    _copy(con, f"{new}.fts_terms (term, docs)", sorted(doc_counts.items()))
    con.execute(f"INSERT INTO {new}.fts_stats (rows, tokens) VALUES (%s, %s)", [len(rowids), total_tokens])
    vectors = _copy(con, f"{new}.embeddings (rowid, embedding)", _vectors(store))
    progress(f"{vectors:,} vectors, {len(doc_counts):,} terms")
    _copy(con, f"{new}.books (book_id, name, ordinal, chapters)",
          [(b.book_id, b.name, b.ordinal, b.chapters) for b in store.books()])
    verses = _copy(con, f"{new}.verses (book_id, chapter_num, verse_num, text)",
                   store.rows("SELECT book_id, chapter_num, verse_num, text FROM verses") if store.info.has_verses
                   else [])
    progress(f"{write_verses(store, con, new, _copy, vector_text):,} verse texts")
    _copy(con, f"{new}.scholars (scholar_id, name, tradition, work)",
          [(s.scholar_id, s.name, s.tradition, s.work) for s in store.scholar_table().values()])
    con.execute(indexes(new))
    con.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")
    con.execute(f"ALTER SCHEMA {new} RENAME TO {SCHEMA}")
    return len(rowids), vectors, len(doc_counts), verses


def _vectors(store: ScriptureStore) -> Iterable[tuple[int, str]]:
    """Every stored vector, read by one scan of vec0 (a row at a time, not the whole table in memory)."""
    for rowid, blob in store.con.execute(f"SELECT rowid, {VECTOR_COLUMN} FROM {EMBEDDINGS}"):
        if isinstance(blob, bytes):
            yield int(rowid), vector_text(np.frombuffer(blob, dtype=np.float32))


def _copy(con: psycopg.Connection[Any], target: str, rows: Iterable[Iterable[object]]) -> int:
    n = 0
    with con.cursor().copy(f"COPY {target} FROM STDIN") as copy:
        for row in rows:
            copy.write_row(tuple(row))
            n += 1
    return n

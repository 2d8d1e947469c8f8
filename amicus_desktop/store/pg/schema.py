"""The library's layout on PostgreSQL, and the connection every reader and writer of it opens.

One schema, :data:`SCHEMA` (``amicus_library``), holds one library: scripture.db's tables of CONTRACT section 1
in PostgreSQL's types (``chunk_text``, ``chunk_metadata``, ``db_meta``, ``books``, ``verses``, ``scholars``),
``embeddings`` with a pgvector ``vector(D)`` per rowid, and the keyword index as tables:

* ``fts_docs(rowid, tokens)`` — how many tokens each chunk's text has (FTS5's ``docsize``);
* ``fts_terms(term, docs)`` — how many chunks hold each term (FTS5's ``doc`` of ``fts5vocab``);
* ``fts_postings(term, rowid, tf)`` — how often each term stands in each chunk;
* ``fts_stats(rows, tokens)`` — the number of chunks and of tokens (FTS5's averages record).

Terms are the tokens of :data:`~amicus_desktop.store.fts.FTS_TOKENIZE` (porter, unicode61, diacritics
removed), made by SQLite's own tokenizer at export; they sort bytewise (``COLLATE "C"``) as FTS5's do.
Another schema may live in the same database (the notes store's tables, for one): nothing here touches it.
Failures become the contract's codes (:func:`pg_errors`): a database that cannot be reached is
``DB_NOT_FOUND`` (the library is not there now; the next call connects again), one without pgvector
``EXTENSION_NOT_LOADED``, anything else ``DB_INVALID``. A URL is shown only redacted (no password).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ...core.errors import AmicusError, ErrorCode
from ...http.urls import redact_url

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger("amicus.store")

#: The schema a library lives in.
SCHEMA = "amicus_library"
#: ``db_meta`` key: what the library was exported from (the SQLite library's content id and build id).
EXPORTED_FROM = "exported_from"


def layout(schema: str, dims: int) -> str:
    """The statements creating a library's tables in ``schema`` (vectors of ``dims`` dimensions)."""
    s = schema
    return f"""
CREATE SCHEMA {s};
CREATE TABLE {s}.db_meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE {s}.chunk_text (rowid bigint PRIMARY KEY, chunk_id text NOT NULL UNIQUE,
  source_type text NOT NULL, source_id text NOT NULL, text text NOT NULL);
CREATE TABLE {s}.chunk_metadata (rowid bigint PRIMARY KEY, scholar_id text, tradition text, book_id text,
  chapter_num integer, verse_start integer, verse_end integer, panel_type text);
CREATE TABLE {s}.embeddings (rowid bigint PRIMARY KEY, embedding vector({int(dims)}) NOT NULL);
CREATE TABLE {s}.books (book_id text PRIMARY KEY, name text NOT NULL, ordinal integer NOT NULL,
  chapters integer NOT NULL);
CREATE TABLE {s}.verses (book_id text NOT NULL, chapter_num integer NOT NULL, verse_num integer NOT NULL,
  text text NOT NULL, PRIMARY KEY (book_id, chapter_num, verse_num));
CREATE TABLE {s}.scholars (scholar_id text PRIMARY KEY, name text NOT NULL, tradition text, work text);
CREATE TABLE {s}.fts_docs (rowid bigint PRIMARY KEY, tokens integer NOT NULL);
CREATE TABLE {s}.fts_terms (term text COLLATE "C" PRIMARY KEY, docs integer NOT NULL);
CREATE TABLE {s}.fts_postings (term text COLLATE "C" NOT NULL, rowid bigint NOT NULL, tf integer NOT NULL,
  PRIMARY KEY (term, rowid));
CREATE TABLE {s}.fts_stats (rows bigint NOT NULL, tokens bigint NOT NULL);
"""


#: Indexes made after the rows are in (faster than keeping them up to date row by row).
def indexes(schema: str) -> str:
    return f"""
CREATE INDEX ON {schema}.chunk_metadata (book_id, chapter_num);
CREATE INDEX ON {schema}.chunk_text (source_type);
ANALYZE {schema}.chunk_text; ANALYZE {schema}.chunk_metadata; ANALYZE {schema}.embeddings;
ANALYZE {schema}.fts_postings; ANALYZE {schema}.fts_docs;
"""


def shown(url: str) -> str:
    """``url`` as it may be shown or logged: user-info and secret-looking parameters masked."""
    return redact_url(url)


def connect(url: str) -> psycopg.Connection[tuple[object, ...]]:
    """A connection to ``url`` (autocommit: each read is its own statement), or ``DB_NOT_FOUND``."""
    try:
        import psycopg
    except ImportError as exc:
        raise AmicusError(ErrorCode.EXTENSION_NOT_LOADED,
                          "A library on PostgreSQL needs psycopg: pip install 'amicus-desktop[postgres]'.") from exc
    with pg_errors(url):
        return psycopg.connect(url, autocommit=True, connect_timeout=10,
                               application_name="amicus-library")


@contextlib.contextmanager
def pg_errors(url: str) -> Iterator[None]:
    """PostgreSQL's failures as the contract's codes (see the module docstring); never the statement."""
    import psycopg
    from psycopg import errors as pge

    try:
        yield
    except (psycopg.OperationalError, pge.AdminShutdown, pge.QueryCanceled) as exc:
        log.warning("library database unavailable", extra={"error": type(exc).__name__})
        raise AmicusError(ErrorCode.DB_NOT_FOUND,
                          f"The library database at {shown(url)} cannot be reached now ({type(exc).__name__}). "
                          "Check that PostgreSQL is running; the next request connects again.") from None
    except pge.UndefinedTable:
        raise AmicusError(ErrorCode.DB_NOT_FOUND,
                          f"The database at {shown(url)} holds no library (no schema {SCHEMA}). Export one with "
                          f"'amicus-desktop export-db scripture.db --to URL'.") from None
    except (pge.UndefinedObject, pge.UndefinedFunction, pge.FeatureNotSupported) as exc:
        raise AmicusError(ErrorCode.EXTENSION_NOT_LOADED,
                          f"The database at {shown(url)} lacks pgvector ({type(exc).__name__}): an administrator "
                          "runs CREATE EXTENSION vector in it once.") from None
    except psycopg.Error as exc:
        log.warning("library database failed", extra={"error": type(exc).__name__})
        raise AmicusError(ErrorCode.DB_INVALID,
                          f"The library database at {shown(url)} failed ({type(exc).__name__}). See its log.") from None

"""The library's layout on PostgreSQL, and the connection every reader and writer of it opens.

One schema, :data:`SCHEMA` (``amicus_library``), holds one library: scripture.db's tables of CONTRACT section 1
in PostgreSQL's types (``chunk_text``, ``chunk_metadata``, ``db_meta``, ``books``, ``verses``, ``scholars``),
``embeddings`` with a pgvector ``vector(D)`` per rowid, and the keyword index as tables:

* ``fts_docs(rowid, tokens)`` — how many tokens each chunk's text has (FTS5's ``docsize``);
* ``fts_terms(term, docs)`` — how many chunks hold each term (FTS5's ``doc`` of ``fts5vocab``);
* ``fts_postings(term, rowid, tf)`` — how often each term stands in each chunk;
* ``fts_stats(rows, tokens)`` — the number of chunks and of tokens (FTS5's averages record);
* verse search's tables (:mod:`.verses`): ``verse_keys``, ``translations`` (``position``: SQLite's order),
  ``verse_texts(translation_id, rowid, text)`` (every translation's text, the default's too),
  ``verse_embeddings``, ``verse_strongs`` and each translation's word index with token positions
  (``verse_fts_docs``, ``verse_fts_postings(translation_id, term, rowid, positions)``, ``verse_fts_stats``),
  so phrases match as FTS5's do.

Terms are the tokens of :data:`~amicus_desktop.store.fts.FTS_TOKENIZE` (porter, unicode61, diacritics
removed), made by SQLite's own tokenizer at export; they sort bytewise (``COLLATE "C"``) as FTS5's do.
Another schema may live in the same database (the notes store's tables, for one): nothing here touches it.
Failures become the contract's codes (:func:`pg_errors`): a database that cannot be reached *now* (connection
refused or cut, the server starting, restarting or shutting down, too many connections, a statement cancelled by
its timeout) is ``DB_UNAVAILABLE`` (503 with ``Retry-After`` in the service: try again, the next call connects
again); a database that is reached but holds no library, or that names no database or role of the server, is
``DB_NOT_FOUND``; one without pgvector ``EXTENSION_NOT_LOADED``; anything else ``DB_INVALID``. Connecting waits
at most :data:`CONNECT_TIMEOUT_ENV` seconds, and a reader's statement runs (or waits for a lock) at most
:data:`STATEMENT_TIMEOUT_ENV` seconds; a reader waits for a server that does not answer at all (gone, frozen) that
long and :data:`.deadline.ANSWER_GRACE` more, then its connection is closed (:mod:`.deadline`). A URL is shown
only redacted (no password).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ...config import seconds_from_env
from ...core.errors import AmicusError, ErrorCode
from ...http.urls import redact_url
from .deadline import answer_within, connection_class, tcp_options

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger("amicus.store")

#: The schema a library lives in.
SCHEMA = "amicus_library"
#: ``db_meta`` key: what the library was exported from (the SQLite library's content id and build id).
EXPORTED_FROM = "exported_from"
#: Seconds a connection attempt waits for the server before the call answers ``DB_UNAVAILABLE``.
CONNECT_TIMEOUT_ENV = "AMICUS_LIBRARY_CONNECT_TIMEOUT"
DEFAULT_CONNECT_TIMEOUT = 3
#: Seconds one statement of a reader may run (or wait for a lock) before the database cancels it: ``DB_UNAVAILABLE``.
STATEMENT_TIMEOUT_ENV = "AMICUS_LIBRARY_STATEMENT_TIMEOUT"
DEFAULT_STATEMENT_TIMEOUT = 10.0
#: libpq's words for a server that was reached and refused who or what was asked for (not "try again").
_REFUSALS = ("does not exist", "authentication failed", "no pg_hba.conf entry", "permission denied")


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
CREATE TABLE {s}.verse_keys (rowid integer PRIMARY KEY, book_id text NOT NULL, chapter_num integer NOT NULL,
  verse_num integer NOT NULL);
CREATE TABLE {s}.translations (translation_id text PRIMARY KEY, name text NOT NULL, abbreviation text NOT NULL,
  verse_table text NOT NULL, is_default boolean NOT NULL, position integer NOT NULL);
CREATE TABLE {s}.verse_texts (translation_id text NOT NULL, rowid integer NOT NULL, text text NOT NULL,
  PRIMARY KEY (translation_id, rowid));
CREATE TABLE {s}.verse_embeddings (rowid integer PRIMARY KEY, embedding vector({int(dims)}) NOT NULL);
CREATE TABLE {s}.verse_strongs (strongs text COLLATE "C" NOT NULL, verse_rowid integer NOT NULL,
  PRIMARY KEY (strongs, verse_rowid));
CREATE TABLE {s}.verse_fts_docs (translation_id text NOT NULL, rowid integer NOT NULL, tokens integer NOT NULL,
  PRIMARY KEY (translation_id, rowid));
CREATE TABLE {s}.verse_fts_postings (translation_id text NOT NULL, term text COLLATE "C" NOT NULL,
  rowid integer NOT NULL, positions integer[] NOT NULL, PRIMARY KEY (translation_id, term, rowid));
CREATE TABLE {s}.verse_fts_stats (translation_id text PRIMARY KEY, rows bigint NOT NULL, tokens bigint NOT NULL);
"""


#: Indexes made after the rows are in (faster than keeping them up to date row by row).
def indexes(schema: str) -> str:
    return f"""
CREATE INDEX ON {schema}.chunk_metadata (book_id, chapter_num);
CREATE INDEX ON {schema}.chunk_text (source_type);
ANALYZE {schema}.chunk_text; ANALYZE {schema}.chunk_metadata; ANALYZE {schema}.embeddings;
ANALYZE {schema}.fts_postings; ANALYZE {schema}.fts_docs;
ANALYZE {schema}.verse_fts_postings; ANALYZE {schema}.verse_fts_docs; ANALYZE {schema}.verse_texts;
"""


def shown(url: str) -> str:
    """``url`` as it may be shown or logged: user-info and secret-looking parameters masked."""
    return redact_url(url)


def _setting(name: str, default: float, low: float) -> float:
    try:
        return seconds_from_env(name, default, low)
    except ValueError as exc:
        raise AmicusError(ErrorCode.DB_INVALID, str(exc)) from None


def connect(url: str, *, reader: bool = True) -> psycopg.Connection[tuple[object, ...]]:
    """A connection to ``url`` (autocommit: each read is its own statement), or the code of why not (see the
    module docstring). A ``reader``'s statements are cancelled after ``$AMICUS_LIBRARY_STATEMENT_TIMEOUT``
    seconds; an export's (``reader=False``) run as long as they need."""
    try:
        import psycopg
    except ImportError as exc:
        raise AmicusError(ErrorCode.EXTENSION_NOT_LOADED,
                          "A library on PostgreSQL needs psycopg: pip install 'amicus-desktop[postgres]'.") from exc
    timeout = max(1, round(_setting(CONNECT_TIMEOUT_ENV, DEFAULT_CONNECT_TIMEOUT, 1)))  # libpq: whole seconds
    if not reader:  # an export: statement_timeout 0 (none), and its COPY may be silent a long while
        with pg_errors(url):
            return psycopg.connect(url, autocommit=True, connect_timeout=timeout, application_name="amicus-library",
                                   options="-c statement_timeout=0")
    statement = _setting(STATEMENT_TIMEOUT_ENV, DEFAULT_STATEMENT_TIMEOUT, 0.05)
    answer = answer_within(statement)  # a server silent that long is taken for gone (.deadline)
    with pg_errors(url):
        return connection_class(answer).connect(url, autocommit=True, connect_timeout=timeout,
                                                application_name="amicus-library",
                                                options=f"-c statement_timeout={round(1000 * statement)}",
                                                **tcp_options(answer))


def unavailable(url: str, why: str) -> AmicusError:
    """``DB_UNAVAILABLE``: the library's database cannot answer now (``why``: the exception's class name)."""
    return AmicusError(ErrorCode.DB_UNAVAILABLE,
                       f"The library database at {shown(url)} cannot be reached now ({why}). Nothing is lost; "
                       "try again in a moment (the next request connects again).")


@contextlib.contextmanager
def pg_errors(url: str) -> Iterator[None]:
    """PostgreSQL's failures as the contract's codes (see the module docstring); never the statement."""
    import psycopg
    from psycopg import errors as pge

    try:
        yield
    except (pge.OperatorIntervention, pge.TooManyConnections, pge.LockNotAvailable) as exc:
        # cancelled by its timeout (QueryCanceled), the server shutting down or starting (AdminShutdown,
        # CannotConnectNow…), no free connection: all are gone in a moment
        log.warning("library database unavailable", extra={"error": type(exc).__name__})
        raise unavailable(url, type(exc).__name__) from None
    except psycopg.OperationalError as exc:
        if exc.sqlstate is None and any(words in str(exc) for words in _REFUSALS):  # reached, and refused
            log.warning("library database refused the connection", extra={"error": type(exc).__name__})
            raise AmicusError(ErrorCode.DB_NOT_FOUND,
                              f"The server at {shown(url)} has no such database or role, or refused the login. "
                              "Check the URL (and the password) given with --db.") from None
        log.warning("library database unavailable", extra={"error": type(exc).__name__})
        raise unavailable(url, type(exc).__name__) from None
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

"""The notes store on PostgreSQL, for ``serve`` and ``mcp`` shared by several hosts (docs/DEPLOY.md).

:class:`PgNotesStore` is :class:`~.store.NotesStore`'s twin over a ``postgresql://`` database: the same one
door (:meth:`PgNotesStore.workspace`), the same :class:`~.workspace.Workspace` methods
(:class:`~.pgworkspace.PgWorkspace`), the same errors. Any replica can serve any workspace: nothing of a
workspace is kept in one process but a search index, which follows the database by the workspace's change
counter as it follows a SQLite file another process writes (:mod:`.search`).

Each operation is one transaction on a connection of a pool (``psycopg_pool``) shared by every store of the
process that names the same database. It starts by setting the workspace for the row-level security
policies (:mod:`.pgschema`), so the database itself refuses another workspace's rows. The pool holds up to
:data:`POOL_SIZE_ENV` connections (default :data:`DEFAULT_POOL_SIZE`); an operation waits at most
:data:`POOL_TIMEOUT_ENV` seconds for one, and each statement runs at most :data:`STATEMENT_TIMEOUT_ENV` seconds
(PostgreSQL's ``statement_timeout``, set on every connection: a writer waiting on a lock another host holds, or
a database too loaded to answer, gives up rather than holding a request and a connection for ever). A server
that does not answer at all (gone, frozen, a socket left silent by a restart) is given that long and
:data:`~amicus_desktop.store.pg.deadline.ANSWER_GRACE` more on each wait, then the connection is closed
(:mod:`amicus_desktop.store.pg.deadline`): no operation waits for ever. Failures
become the store's codes: a database that cannot be reached, was restarted, has no free connection or ran out
of time is ``NOTES_STORE_BUSY`` (503, try again: the pool reconnects by itself); anything else
``NOTES_STORE_INVALID``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

import apsw

from ..config import seconds_from_env
from ..store.pg import is_postgres_url
from ..store.pg.deadline import answer_within, connection_class, tcp_options
from .errors import NotesCode, NotesError
from .model import check_workspace
from .pgschema import LISTING_SETTING, WORKSPACE_SETTING, prepare
from .search import IndexCache
from .store import NotesStore

if TYPE_CHECKING:
    from psycopg_pool import ConnectionPool

    from .pgworkspace import PgWorkspace

log = logging.getLogger("amicus.notes")

#: Where ``serve`` and ``mcp`` keep notes when ``--notes-store`` is not given (a ``postgresql://`` URL).
STORE_ENV = "AMICUS_NOTES_STORE"
#: The most connections one process holds to the notes database.
POOL_SIZE_ENV = "AMICUS_NOTES_POOL_SIZE"
DEFAULT_POOL_SIZE = 4
#: Seconds an operation waits for a free connection before it answers ``NOTES_STORE_BUSY``.
POOL_TIMEOUT_ENV = "AMICUS_NOTES_POOL_TIMEOUT"
DEFAULT_POOL_TIMEOUT = 5.0
#: Seconds one statement may run (or wait for a lock) before the database cancels it: ``NOTES_STORE_BUSY``.
STATEMENT_TIMEOUT_ENV = "AMICUS_NOTES_STATEMENT_TIMEOUT"
DEFAULT_STATEMENT_TIMEOUT = 10.0
#: Seconds one connection attempt may take (libpq's ``connect_timeout``): without it, an attempt made while the
#: server shut down could wait for ever, and the pool's few workers with it, so nothing reconnected.
CONNECT_TIMEOUT = 3
#: Seconds one chain of reconnection attempts (1 s, 2 s, 4 s … apart) goes on before it ends; the next operation
#: that finds no connection starts a new chain at once. Unbounded, the waits doubled past the database's return
#: (a restart under load failed connections for seconds, and the next try came 16 or 32 s later).
RECONNECT_WINDOW = 5.0


def _setting(name: str, default: float, low: float) -> float:
    try:
        return seconds_from_env(name, default, low)
    except ValueError as exc:
        raise NotesError(NotesCode.NOTES_STORE_INVALID, str(exc)) from None


def busy(why: str) -> NotesError:
    return NotesError(NotesCode.NOTES_STORE_BUSY,
                      f"The notes database {why}. Nothing is lost; try again in a moment.")


@contextlib.contextmanager
def pg_errors() -> Iterator[None]:
    """PostgreSQL's failures as the store's codes (see the module docstring). Never the statement or a note."""
    import psycopg
    from psycopg import errors as pge
    from psycopg_pool import PoolTimeout

    try:
        yield
    except PoolTimeout:
        log.warning("notes database: no free connection")
        raise busy("has no free connection for this process now (all are in use)") from None
    except (psycopg.OperationalError, pge.SerializationFailure, pge.DeadlockDetected, pge.LockNotAvailable,
            pge.QueryCanceled, pge.AdminShutdown) as exc:
        log.warning("notes database unavailable", extra={"error": type(exc).__name__})
        raise busy("cannot be reached or ended the operation (restarted, overloaded)") from None
    except psycopg.Error as exc:
        log.warning("notes database failed", extra={"error": type(exc).__name__})
        raise NotesError(NotesCode.NOTES_STORE_INVALID,
                         f"The notes database failed ({type(exc).__name__}). See its log.") from None


class _Pools:
    """One pool per database per process, shared by its stores (counted, closed with the last)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pools: dict[str, tuple[ConnectionPool, int]] = {}

    def take(self, url: str) -> ConnectionPool:
        from psycopg_pool import ConnectionPool

        with self._lock:
            held = self._pools.get(url)
            if held is None:
                size = int(_setting(POOL_SIZE_ENV, DEFAULT_POOL_SIZE, 1))
                timeout = _setting(POOL_TIMEOUT_ENV, DEFAULT_POOL_TIMEOUT, 0.05)
                statement = _setting(STATEMENT_TIMEOUT_ENV, DEFAULT_STATEMENT_TIMEOUT, 0.05)
                answer = answer_within(statement)
                pool = ConnectionPool(url, min_size=1, max_size=size, timeout=timeout, open=False,
                                      connection_class=connection_class(answer),
                                      kwargs={"options": f"-c statement_timeout={round(1000 * statement)}",
                                              "connect_timeout": CONNECT_TIMEOUT, **tcp_options(answer)},
                                      check=ConnectionPool.check_connection, reconnect_timeout=RECONNECT_WINDOW,
                                      name="amicus-notes")
                pool.open(wait=False)
                held = (pool, 0)
            self._pools[url] = (held[0], held[1] + 1)
            return held[0]

    def give_back(self, url: str) -> None:
        with self._lock:
            pool, count = self._pools[url]
            if count > 1:
                self._pools[url] = (pool, count - 1)
                return
            del self._pools[url]
        pool.close()


POOLS = _Pools()


class PgNotesStore:
    """The notes store in the PostgreSQL database at ``url`` (see the module docstring).

    Raises :class:`~.errors.NotesError`: ``NOTES_STORE_BUSY`` when the database cannot be reached now,
    ``NOTES_STORE_INVALID`` when it is not (and cannot become) a notes store this program reads, or is
    reached as a role row-level security does not hold for.
    """

    def __init__(self, url: str) -> None:
        try:
            import psycopg_pool  # noqa: F401  (the optional extra: say so plainly when it is missing)
        except ImportError:
            raise NotesError(NotesCode.NOTES_STORE_INVALID, "A PostgreSQL notes store needs psycopg and "
                             "psycopg_pool: pip install 'amicus-desktop[postgres]'.") from None
        self.url = url
        self._pool: ConnectionPool | None = POOLS.take(url)
        try:
            with self._transaction(None) as cur:
                prepare(cur)
        except BaseException:
            self.close()
            raise
        # the workspaces' search indexes (as NotesStore's) and the keyword tokenizer's own SQLite
        self._indexes = IndexCache()
        self._words = apsw.Connection(":memory:")

    @contextlib.contextmanager
    def _transaction(self, workspace_id: str | None, *, snapshot: bool = False) -> Iterator[Any]:
        """A cursor in one transaction, committed at the end (rolled back on an exception), in which the
        policies show ``workspace_id``'s rows only (none with ``None``). ``snapshot``: a read-only
        repeatable read (every statement sees the same moment)."""
        if self._pool is None:
            raise NotesError(NotesCode.NOTES_STORE_INVALID, "The notes store is closed.")
        with pg_errors(), self._pool.connection() as conn, conn.cursor() as cur:
            if snapshot:
                cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            cur.execute("SELECT set_config(%s, %s, true)", [WORKSPACE_SETTING, workspace_id or ""])
            yield cur

    def workspace(self, workspace_id: str) -> PgWorkspace:
        """The notes of ``workspace_id`` (``WORKSPACE_INVALID`` unless 1–64 characters of ``[a-z0-9-]``)."""
        from .pgworkspace import PgWorkspace

        return PgWorkspace(self, check_workspace(workspace_id))

    def workspace_ids(self) -> list[str]:
        """The ids of every workspace — for moving a whole store (``notes copy``), never for a question.

        The one read across workspaces, and of ids only: the ``workspaces`` table's policy shows every id
        to a transaction that sets ``amicus.listing`` (:mod:`.pgschema`); no other table shows anything to it.
        """
        with self._transaction(None) as cur:
            cur.execute("SELECT set_config(%s, 'on', true)", [LISTING_SETTING])
            rows = cur.execute("SELECT workspace_id FROM workspaces ORDER BY workspace_id").fetchall()
        return [str(r[0]) for r in rows]

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            POOLS.give_back(self.url)

    def __enter__(self) -> PgNotesStore:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


def open_store(location: str | Path | None = None) -> NotesStore | PgNotesStore:
    """The notes store at ``location``: a ``postgresql://`` URL opens :class:`PgNotesStore`, a path (or
    ``None``: the user's data folder) the SQLite :class:`~.store.NotesStore`."""
    if is_postgres_url(location):
        assert isinstance(location, str)
        return PgNotesStore(location)
    return NotesStore(location)


def store_location(given: str | None) -> str | None:
    """Where ``serve``/``mcp`` keep notes: ``--notes-store`` when given, else :data:`STORE_ENV`, else ``None``
    (the SQLite file of the data folder). A value that is neither a ``postgresql://`` URL nor empty is a path."""
    value = given if given is not None else os.environ.get(STORE_ENV, "").strip() or None
    return value


def check_store(location: str | None) -> str | None:
    """Why ``serve``/``mcp`` cannot start with the notes store at ``location`` (a sentence), or ``None``.

    Only a PostgreSQL store is opened here (a missing pgvector, a superuser role, a newer layout stop the
    start); one that cannot be *reached* now is not a reason to refuse — requests answer 503 until it is.
    """
    if not is_postgres_url(location):
        return None
    assert isinstance(location, str)
    try:
        PgNotesStore(location).close()
    except NotesError as exc:
        if exc.code is NotesCode.NOTES_STORE_BUSY:
            log.warning("notes database not reachable at start; requests scoped to a workspace answer 503 until it is")
            return None
        return f"--notes-store: {exc.message}"
    return None

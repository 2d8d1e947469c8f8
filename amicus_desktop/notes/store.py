"""The notes store: one SQLite file in the user's data folder, shared by the app, the CLI and ``serve``.

:class:`NotesStore` opens the file (creating it, or upgrading an older layout: :mod:`.schema`) and
hands out :class:`~.workspace.Workspace` objects — the only way to read or write a note. It has no
method that reads notes itself, and a workspace reads only its own: **scoping by construction**. A
caller cannot ask for "every workspace", so a forgotten filter cannot leak one reader's notes into
another's answer.

Several processes may hold the store at once (the app, a ``notes`` command, a service): the file is in
WAL mode, so readers never wait for a writer, and a writer waits up to :data:`BUSY_TIMEOUT_MS` for
another writer. Every change is one ``BEGIN IMMEDIATE`` transaction with ``synchronous=FULL``: once a
save returns, the note survives a crash of the process or of the machine.

One :class:`NotesStore` is one connection, for one thread at a time (the retriever keeps it on its
database thread, as it does the library).
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

import apsw

from .. import paths
from . import schema
from .errors import NotesCode, NotesError
from .model import check_workspace
from .search import IndexCache
from .workspace import Workspace

log = logging.getLogger("amicus.notes")

#: How long a write waits for another process's write before giving up (ms).
BUSY_TIMEOUT_MS = 10_000


def _private(path: Path) -> None:
    """Owner-only permissions where the platform has them (the reader's notes are nobody else's)."""
    with contextlib.suppress(OSError, NotImplementedError):
        os.chmod(path, 0o700 if path.is_dir() else 0o600)


@contextlib.contextmanager
def store_errors() -> Iterator[None]:
    """Turn a failure of SQLite inside a notes operation into a sentence for people: another writer holding
    the lock is ``NOTES_STORE_BUSY`` (try again), anything else (a damaged file, a full disk)
    ``NOTES_STORE_INVALID``."""
    try:
        yield
    except (apsw.BusyError, apsw.LockedError) as exc:
        log.warning("notes store busy", extra={"error": type(exc).__name__})
        raise busy_error() from None
    except apsw.Error as exc:
        log.warning("notes store failed", extra={"error": type(exc).__name__})
        raise NotesError(
            NotesCode.NOTES_STORE_INVALID,
            f"The notes store could not be read or written ({type(exc).__name__}: {exc}). Check the disk; if "
            f"the file {paths.notes_path().name} is damaged, move it aside and restore an export.",
        ) from None


def busy_error() -> NotesError:
    """``NOTES_STORE_BUSY``: another process holds the store's write lock (a healthy store: never "move it
    aside")."""
    return NotesError(
        NotesCode.NOTES_STORE_BUSY,
        f"The notes store is busy: another program (another window, a 'notes' command or a service) is "
        f"writing to it and did not finish within {BUSY_TIMEOUT_MS // 1000} s. Nothing is wrong with it; "
        "try again in a moment.",
    )


class NotesStore:
    """The reader's notes store at ``path`` (default :func:`amicus_desktop.paths.notes_path`).

    Raises :class:`~.errors.NotesError` (``NOTES_STORE_INVALID``) when the file cannot be opened, is
    not a notes store, or was written by a newer version.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else paths.notes_path()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _private(self.path.parent)
            con = apsw.Connection(str(self.path), flags=apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE)
        except (OSError, apsw.Error) as exc:
            raise self._unusable(exc) from None
        try:
            con.set_busy_timeout(BUSY_TIMEOUT_MS)
            con.execute("PRAGMA journal_mode = WAL")
            con.execute("PRAGMA synchronous = FULL")
            con.execute("PRAGMA foreign_keys = ON")
            schema.prepare(con)
        except NotesError:
            con.close()
            raise
        except apsw.Error as exc:
            con.close()
            raise self._unusable(exc) from None
        _private(self.path)
        self._con: apsw.Connection | None = con
        # the workspaces' search indexes, by (workspace, model): see .search. Private, as the
        # connection is: a workspace reaches them with its own id only.
        self._indexes = IndexCache()

    def _unusable(self, exc: BaseException) -> NotesError:
        if isinstance(exc, apsw.BusyError | apsw.LockedError):
            log.warning("notes store busy", extra={"error": type(exc).__name__})
            return busy_error()
        log.warning("notes store unusable", extra={"error": type(exc).__name__})
        return NotesError(
            NotesCode.NOTES_STORE_INVALID,
            f"The notes store {self.path} cannot be opened ({type(exc).__name__}: {exc}). Check that the "
            "folder can be written; if the file is damaged, move it aside (the notes are in it) and restore "
            "an export.",
        )

    def _connection(self) -> apsw.Connection:
        if self._con is None:
            raise NotesError(NotesCode.NOTES_STORE_INVALID, "The notes store is closed.")
        return self._con

    def workspace(self, workspace_id: str) -> Workspace:
        """The notes of ``workspace_id`` (``WORKSPACE_INVALID`` unless 1–64 characters of ``[a-z0-9-]``).

        A workspace exists as soon as it is asked for; it holds no note until one is added.
        """
        return Workspace(self, check_workspace(workspace_id))

    def workspace_ids(self) -> list[str]:
        """The ids of every workspace — for moving a whole store (``notes copy``), never for a question."""
        return [str(w) for (w,) in self._connection().execute("SELECT workspace_id FROM workspaces ORDER BY 1")]

    def close(self) -> None:
        con, self._con = self._con, None
        if con is not None:
            con.close()

    def __enter__(self) -> NotesStore:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

"""Opening SQLite with sqlite-vec loaded, through apsw.

The stdlib ``sqlite3`` on this project's machines (and on many macOS builds) cannot load
extensions, so every connection goes through apsw. ``import sqlite_vec`` always succeeds; only
loading the library and calling ``vec_version()`` proves it works.
"""

from __future__ import annotations

import os
from pathlib import Path

import apsw
import sqlite_vec

from ..core.errors import AmicusError, ErrorCode

#: Set to a path to load sqlite-vec from somewhere else (tests use it to simulate a missing library).
EXTENSION_ENV = "AMICUS_SQLITE_VEC_PATH"


def extension_path() -> str:
    """Where sqlite-vec's loadable library is (the package data file unless overridden)."""
    return os.environ.get(EXTENSION_ENV) or sqlite_vec.loadable_path()


_proven: dict[str, str] = {}


def vec_version() -> str:
    """Prove sqlite-vec loads (in a memory database) and return its version.

    Raises ``EXTENSION_NOT_LOADED``. Proving it apart from the user's file matters: loading into
    a connection to a damaged file fails too, and that is the file's fault, not the extension's.
    """
    path = extension_path()
    if path in _proven:
        return _proven[path]
    con = apsw.Connection(":memory:")
    try:
        con.enable_load_extension(True)
        con.load_extension(path)
        version = con.execute("select vec_version()").get
    except apsw.Error as exc:
        raise AmicusError(
            ErrorCode.EXTENSION_NOT_LOADED,
            f"The sqlite-vec extension could not be loaded from {path} ({exc}). "
            "Reinstall the sqlite-vec package (pip install --force-reinstall 'sqlite-vec>=0.1.9').",
        ) from exc
    finally:
        con.close()
    _proven[path] = str(version)
    return _proven[path]


def load_vec(con: apsw.Connection) -> str:
    """Load sqlite-vec into ``con`` and return its version.

    ``EXTENSION_NOT_LOADED`` when the library itself does not load; an ``apsw.Error`` (for the
    caller to classify) when it loads elsewhere but not into this file's connection.
    """
    version = vec_version()
    con.enable_load_extension(True)
    try:
        con.load_extension(extension_path())
    finally:
        con.enable_load_extension(False)
    return version


def connect(path: str | Path, *, readonly: bool, load_extension: bool = True) -> apsw.Connection:
    """A connection to ``path`` with sqlite-vec loaded.

    Read-only connections never create the file (``SQLITE_OPEN_READONLY`` without
    ``SQLITE_OPEN_CREATE``) and cannot write to it; the app opens scripture.db with
    :func:`connect_readonly`, which also leaves the folder beside it alone.
    """
    flags = apsw.SQLITE_OPEN_READONLY if readonly else apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE
    return _prepared(apsw.Connection(str(path), flags=flags), load_extension)


#: the first 8 bytes of a rollback journal that still holds a write (zeroed once it is done).
_JOURNAL_MAGIC = bytes.fromhex("d9d505f920a163d7")


def growing_marker(path: Path) -> Path:
    """The file beside a library that ``build-db --resume`` is still growing (``scripture.db-growing``)."""
    return path.with_name(path.name + "-growing")


def connect_readonly(path: Path, header: bytes) -> apsw.Connection:
    """Open an existing database to read it without writing anything, beside it included.

    ``header`` is the file's first 100 bytes. SQLite would otherwise touch side files:

    * a WAL database (header bytes 18–19 = 2) read normally creates or writes ``-wal`` and
      ``-shm`` beside it, and in a read-only folder is refused with the misleading "attempt to
      write a readonly database". It is opened ``immutable=1`` (no locks, no side files), which
      is exact as long as no ``-wal`` holds changes not yet in the file: those are refused here;
    * a rollback journal that still holds a write (a writer at work, or one that stopped
      half-way) must be finished or rolled back before the file can be read, which a reader
      that may not write cannot do: refused here, saying so.

    A WAL database with the marker of a library being grown (:func:`growing_marker`) is read through SQLite's
    WAL locking, the builder's side files beside it: each read sees the books committed so far.

    A rollback-journal database without such a journal opens normally (``SQLITE_OPEN_READONLY``,
    which creates nothing), so a writer elsewhere still holds a read back through its lock.
    Raises :class:`~amicus_desktop.core.errors.AmicusError` (``DB_INVALID``) or ``apsw.Error``.
    """
    journal = path.with_name(path.name + "-journal")
    if _starts_with(journal, _JOURNAL_MAGIC):
        raise AmicusError(
            ErrorCode.DB_INVALID,
            f"{path.name} is being written, or a write to it stopped half-way: {journal.name} beside it "
            "holds that write, and a reader cannot finish or undo it. Close the program writing it; if "
            f"none is, open it once with a program allowed to write there (sqlite3 {path.name} "
            "'PRAGMA integrity_check;') or restore a copy.",
        )
    if 2 in header[18:20] and growing_marker(path).exists():
        # A library ``build-db --resume`` is growing, one book per transaction: read with SQLite's own WAL
        # locking (its -wal and -shm are the builder's), so each read sees whole books, the last one committed.
        con = apsw.Connection(str(path), flags=apsw.SQLITE_OPEN_READONLY)
    elif 2 in header[18:20]:
        wal = path.with_name(path.name + "-wal")
        if _size(wal) > 0:
            raise AmicusError(
                ErrorCode.DB_INVALID,
                f"{path.name} has changes in {wal.name} that are not in the file itself yet (a program is "
                "writing it, or stopped before checkpointing). Close that program; if none is, run "
                f"sqlite3 {path.name} 'PRAGMA wal_checkpoint(TRUNCATE);' where the folder may be written, "
                "or rebuild it.",
            )
        uri = path.resolve().as_uri() + "?immutable=1"
        con = apsw.Connection(uri, flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
    else:
        con = apsw.Connection(str(path), flags=apsw.SQLITE_OPEN_READONLY)
    # Temporary tables and sorts stay in memory: nothing is written anywhere.
    con.execute("PRAGMA temp_store = MEMORY")
    return _prepared(con, True)


def _prepared(con: apsw.Connection, load_extension: bool) -> apsw.Connection:
    # A busy writer elsewhere should delay a read briefly, not fail it at once.
    con.set_busy_timeout(2000)
    if load_extension:
        try:
            load_vec(con)
        except BaseException:
            con.close()
            raise
    return con


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _starts_with(path: Path, magic: bytes) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(len(magic)) == magic
    except OSError:
        return False


def sqlite_version() -> str:
    return apsw.sqlite_lib_version()


def apsw_version() -> str:
    return apsw.apsw_version()

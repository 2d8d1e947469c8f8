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
        (version,) = con.execute("select vec_version()").fetchone()
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
    ``SQLITE_OPEN_CREATE``) and cannot write to it.
    """
    flags = apsw.SQLITE_OPEN_READONLY if readonly else apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE
    con = apsw.Connection(str(path), flags=flags)
    # A busy writer elsewhere should delay a read briefly, not fail it at once.
    con.set_busy_timeout(2000)
    if load_extension:
        try:
            load_vec(con)
        except BaseException:
            con.close()
            raise
    return con


def sqlite_version() -> str:
    return apsw.sqlite_lib_version()

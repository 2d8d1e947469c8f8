"""What goes wrong reading scripture.db, as the contract's error codes (CONTRACT section 5).

Whatever the file holds, reading it raises only :class:`~amicus_desktop.core.errors.AmicusError`:
SQLite's errors and apsw's ``UnicodeDecodeError`` (text that is not UTF-8) are turned into
``DB_INVALID`` (or ``EXTENSION_NOT_LOADED``) with a sentence on what to do.
"""

from __future__ import annotations

from pathlib import Path

import apsw

from ..core.errors import AmicusError, ErrorCode

#: What reading a damaged file may raise besides AmicusError.
READ_ERRORS = (apsw.Error, UnicodeDecodeError)
#: What SQLite raises when it refuses a write (outside store/, caught by this name, never by apsw's).
SQLITE_ERROR = apsw.Error


def invalid(message: str, exc: BaseException | None = None) -> AmicusError:
    """A ``DB_INVALID`` error saying ``message`` (caused by ``exc``)."""
    err = AmicusError(ErrorCode.DB_INVALID, message)
    if exc is not None:
        err.__cause__ = exc
    return err


def db_error(path: Path, exc: apsw.Error | UnicodeDecodeError) -> AmicusError:
    """Turn an error met while reading ``path`` into the contract's DB code."""
    if isinstance(exc, UnicodeDecodeError):  # apsw decodes TEXT as UTF-8 while it hands rows out
        return invalid(
            f"{path.name} is damaged: it holds text that is not valid UTF-8. Rebuild it with "
            "'amicus-desktop build-db' or restore a copy.",
            exc,
        )
    if isinstance(exc, apsw.NotADBError):
        return invalid(f"{path.name} is not a SQLite database. Choose a scripture.db file.", exc)
    if isinstance(exc, apsw.CorruptError):
        return invalid(
            f"{path.name} is damaged ({exc}). Rebuild it with 'amicus-desktop build-db' or restore a copy.",
            exc,
        )
    if isinstance(exc, apsw.BusyError):
        return invalid(f"{path.name} is locked by another program; close it and try again.", exc)
    if "no such module: vec0" in str(exc):
        return AmicusError(
            ErrorCode.EXTENSION_NOT_LOADED,
            "The database needs the sqlite-vec extension, which is not loaded. Reinstall sqlite-vec.",
        )
    return invalid(f"{path.name} could not be read ({exc}).", exc)

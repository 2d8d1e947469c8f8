"""The user's files the app reads and writes, safely. No Qt.

The one home of two rules:

* **reading** a small file a person points the app at (a golden set, a snapshot, the settings):
  :func:`read_small` reads a *regular* file only — a FIFO would block for ever, ``/dev/zero`` never
  ends — and at most ``limit`` bytes of it;
* **writing** a file the person names (an export, a ``--screenshot``): :func:`check_target` refuses a
  target that is a database (by name, by its first bytes whatever its name, or because it is the open one
  — through a link too), a folder,
  anything but a regular file (a FIFO or device node must not be replaced), a name the file system
  cannot hold, or a name without an expected suffix; :func:`write_atomic` writes through a
  temporary file with a *short* name in the same folder and ``os.replace`` — on failure nothing is
  left behind and an existing file keeps its old contents.

Refusals and failures are :class:`FileWriteError` / :class:`FileReadError` with a sentence for the user.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

#: Suffixes nothing is ever written over: database files, whichever database is open.
DATABASE_SUFFIXES = (".db", ".sqlite", ".sqlite3", ".db-wal", ".db-shm", ".db-journal")
#: the temporary file's name: short, so a target name near the file system's limit still fits.
TEMP_PREFIX, TEMP_SUFFIX = ".amicus-", ".part"


class FileReadError(OSError):
    """A file that cannot be read as asked (not a regular file, too large); ``str()`` says why."""


class FileWriteError(Exception):
    """Writing a file was refused or failed; ``message`` says why and what to do, for the user."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# -- reading --------------------------------------------------------------------------------------
def _open_regular_fd(path: str | os.PathLike[str]) -> int:
    """A descriptor of the regular file at ``path``, opened without blocking (a FIFO with no writer
    would block ``open`` for ever) and checked before any read; :class:`FileReadError` otherwise."""
    name = Path(path).name or str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileReadError(errno.EINVAL, f"{name} is not a regular file")
    except BaseException:
        os.close(fd)
        raise
    return fd


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """The regular file at ``path`` opened for reading in binary, of any size (an ingest corpus, read a
    line at a time): :class:`FileReadError` for a FIFO, a device or a folder, as :func:`read_small`."""
    return os.fdopen(_open_regular_fd(path), "rb")


def read_small(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    :class:`FileReadError` for a FIFO, a device or a folder (opened without blocking and checked
    before any read) and for a file larger than ``limit``; other ``OSError`` as the system raises them.
    """
    name = Path(path).name or str(path)
    fd = _open_regular_fd(path)
    try:
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise FileReadError(errno.EFBIG, f"{name} is larger than {_size(limit)}")
        return b"".join(chunks)
    finally:
        os.close(fd)


def _size(n: int) -> str:
    return f"{n / (1 << 20):g} MB" if n >= 1 << 20 else f"{n:,} bytes"


# -- writing --------------------------------------------------------------------------------------
def check_target(path: Path, protected: Sequence[Path] = (), *, what: str = "results",
                 suffixes: Sequence[str] = (), hint: str = "a name ending in .json or .csv") -> None:
    """Refuse (:class:`FileWriteError`) a target ``what`` must not be written to.

    ``protected`` are files never written over (the open database); ``suffixes``, when given, are the
    only ones allowed (``(".png",)`` for a screenshot); ``hint`` says what to choose instead.
    """
    if path.name.lower().endswith(DATABASE_SUFFIXES):
        raise FileWriteError(f"{path.name} looks like a database file; {what} are never written over a database. "
                             f"Choose {hint}.")
    if suffixes and not path.name.lower().endswith(tuple(s.lower() for s in suffixes)):
        raise FileWriteError(f"{path.name or path} does not end in {' or '.join(suffixes)}. Choose {hint}.")
    name_max = _name_max(path.parent)
    if len(os.fsencode(path.name)) > name_max:
        raise FileWriteError(f"The name {path.name[:40]}… is {len(os.fsencode(path.name))} bytes long; this folder "
                             f"holds names of at most {name_max}. Choose a shorter name.")
    for p in protected:
        if _same_file(path, p):
            raise FileWriteError(f"{path} is the open scripture database; {what} are never written over it. "
                                 "Choose another file.")
    try:
        info = path.stat()
    except ValueError as exc:  # a NUL byte in the name
        raise FileWriteError(f"Cannot write {path.name}: {_reason(exc)}. Choose another name.") from exc
    except OSError:  # no such file yet, or a folder that cannot be read: writing will say which
        return
    if stat.S_ISDIR(info.st_mode):
        raise FileWriteError(f"{path} is a folder. Choose a file name inside it.")
    if not stat.S_ISREG(info.st_mode):
        raise FileWriteError(f"{path} is not a regular file (a pipe or a device); it is never replaced. "
                             "Choose another name.")
    if _is_sqlite(path):
        raise FileWriteError(f"{path.name} is a SQLite database; {what} are never written over a database, "
                             f"whatever its name. Choose {hint}.")


#: the first 16 bytes of every SQLite database file
SQLITE_HEADER = b"SQLite format 3\x00"


def _is_sqlite(path: Path) -> bool:
    """Whether the regular file at ``path`` begins as a SQLite database does (a notes store, a library)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def _name_max(folder: Path) -> int:
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):  # no such folder, or no pathconf (Windows)
        return 255


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def write_atomic(path: Path, data: str | bytes, *, mode: int = 0o644) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` through a temporary file in the same folder and
    ``os.replace``. On failure nothing is left behind and an existing ``path`` keeps its old contents.
    A new file gets ``mode`` (an existing one keeps its own)."""
    folder = path.parent
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX, dir=folder)
    except OSError as exc:
        raise FileWriteError(f"Cannot write in {folder}: {_reason(exc)}. Choose another folder.") from exc
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        else:
            os.chmod(tmp, mode)  # mkstemp makes 0o600; what the user saves is an ordinary document
        os.replace(tmp, path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise FileWriteError(f"Could not write {path.name}: {_reason(exc)}. "
                             "Nothing was changed; free some space or choose another folder.") from exc
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _reason(exc: Exception) -> str:
    strerror = getattr(exc, "strerror", None)
    return strerror.lower() if isinstance(strerror, str) and strerror else str(exc) or type(exc).__name__

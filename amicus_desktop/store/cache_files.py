"""Index files the app builds beside a library, in its own cache folder (never next to scripture.db, which
it never writes): named after the library's path and state, so a changed library gets a new file; written to
a temporary file and renamed into place, so a reader never sees half of one; the files of the library's
earlier states removed. The keyword index of a database without one (:mod:`.keyword`) and the verse search's
full-text index per translation (:mod:`.verses`) are built this way. No Qt.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Callable
from pathlib import Path

import apsw

from .. import paths


def cached_index(db: Path, folder: str, fingerprint: str, fill: Callable[[apsw.Connection], None], *,
                 suffix: str = "", rebuild: bool = False) -> tuple[Path, bool]:
    """The index file of ``db`` in the cache's ``folder`` and whether it was built now: the one there when
    ``db``'s size, time and ``fingerprint`` (how the index is made) still match it, else a new one that
    ``fill`` writes (inside one transaction) — also when ``rebuild`` says the one there is unreadable.
    ``suffix`` tells apart several indexes of one library (one per translation)."""
    st = os.stat(db)
    path_key = hashlib.sha256(str(db.resolve()).encode("utf-8")).hexdigest()[:16]
    stat_key = hashlib.sha256(f"{st.st_size}|{st.st_mtime_ns}|{fingerprint}".encode()).hexdigest()[:16]
    tail = f"-{suffix}" if suffix else ""
    where = paths.cache_dir() / folder
    target = where / f"{path_key}-{stat_key}{tail}.sqlite"
    if target.exists() and not rebuild:
        return target, False
    where.mkdir(parents=True, exist_ok=True)
    tmp = where / f".{target.name}.{os.getpid()}.tmp"
    con = apsw.Connection(str(tmp), flags=apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE)
    try:
        con.execute("PRAGMA journal_mode=OFF")
        con.execute("BEGIN")
        fill(con)
        con.execute("COMMIT")
    except BaseException:
        con.close()
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    con.close()
    os.replace(tmp, target)
    for old in where.glob(f"{path_key}-*{tail}.sqlite"):  # the indexes of the library's earlier states
        if old != target:
            with contextlib.suppress(OSError):
                old.unlink()
    return target, True

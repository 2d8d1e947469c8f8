"""The catalogue's questions over every chunk, answered from the app's cache while the library is unchanged.

The filter bar's facets (chunks per scholar and per tradition), the source types and the books and scholars
the chunks name are ``GROUP BY`` / ``DISTINCT`` scans of every chunk (:mod:`.catalogue`): ≈ 40 ms on the
database thread when the whole Bible (61,704 chunks) opens, where the demo's 4,645 cost ≈ 3 ms. Their rows
depend on nothing but the library's content, so the first time one of them is asked of a library in a given
state all of them are read, the rows kept in one small JSON file of the app's cache folder (``chunk-counts/``),
named after the library's path and its state, and a later launch on the same state reads that file instead.

*The same state* is the file's inode, size, modification and change times and its 100-byte SQLite header
(whose change counter every committed write moves) — as they were when the store opened it **and** as they
are now: a file changed or replaced since it was opened is read directly, as before. A library in WAL mode
(one a background build is still growing) is always read directly, since its header and times do not move
with each commit. The rows are kept only when every value is text, an integer or NULL (anything else is read
directly every time); what the catalogue makes of them is unchanged, so every answer is the same. A damaged
file is written again; a cache that cannot be written leaves the reading as it was. The library itself is never
written. No Qt.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .. import paths
from ..core.errors import AmicusError

FOLDER = "chunk-counts"
_VERSION = 1

Rows = list[tuple[Any, ...]]


def file_state(path: Path) -> str | None:
    """What tells this state of the file at ``path`` from any other (``None``: not cacheable now)."""
    try:
        st = os.stat(path)
        with open(path, "rb") as fh:
            header = fh.read(100)
    except OSError:
        return None
    if len(header) < 100 or 2 in header[18:20]:  # not a whole header, or WAL: read the library directly
        return None
    return f"{st.st_ino}|{st.st_size}|{st.st_mtime_ns}|{st.st_ctime_ns}|{header.hex()}"


class ChunkCounts:
    """The rows of :attr:`statements`, read together once per library state and kept in the cache.

    ``opened`` is :func:`file_state` when the store opened the file; ``read(sql)`` runs a statement on the
    store's connection.
    """

    def __init__(self, path: Path, opened: str | None, statements: Sequence[str],
                 read: Callable[[str], Rows]) -> None:
        self.path = path
        self.opened = opened
        self.statements = tuple(statements)
        self._read = read
        self._rows: dict[str, Rows] | None = None

    def rows(self, sql: str) -> Rows:
        """The rows of ``sql`` (one of :attr:`statements`): from the cache when the file is as it was opened."""
        if sql not in self.statements or self.opened is None or file_state(self.path) != self.opened:
            return self._read(sql)
        if self._rows is None:
            self._rows = self._load()
        found = self._rows.get(sql)
        return list(found) if found is not None else self._read(sql)

    def forget(self) -> None:
        """Ask the cache again next time (the library grew)."""
        self._rows = None

    # -- the file ----------------------------------------------------------------------------------
    def _target(self) -> Path:
        path_key = hashlib.sha256(str(self.path.resolve()).encode("utf-8")).hexdigest()[:16]
        made = hashlib.sha256("\n".join((str(_VERSION), self.opened or "", *self.statements)).encode()).hexdigest()
        return paths.cache_dir() / FOLDER / f"{path_key}-{made[:16]}.json"

    def _load(self) -> dict[str, Rows]:
        target = self._target()
        with contextlib.suppress(OSError, ValueError, TypeError):
            kept = json.loads(target.read_text(encoding="utf-8"))
            if isinstance(kept, dict) and sorted(kept) == sorted(self.statements):
                found = {sql: [tuple(row) for row in rows] for sql, rows in kept.items()}
                if all(_plain(rows) for rows in found.values()):
                    return found
        try:
            fresh = {sql: self._read(sql) for sql in self.statements}
        except AmicusError:  # a damaged table: each question reads (and fails) on its own, as before
            return {}
        if file_state(self.path) == self.opened and all(_plain(rows) for rows in fresh.values()):
            with contextlib.suppress(OSError):
                _write(target, fresh)
        return fresh


def _plain(rows: Rows) -> bool:
    """Whether JSON gives these rows back exactly: text, integers (not booleans) and NULL only."""
    return all(v is None or type(v) in (str, int) for row in rows for v in row)


def _write(target: Path, rows: dict[str, Rows]) -> None:
    """``rows`` into ``target`` atomically; the files of the library's earlier states removed."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.parent / f".{target.name}.{os.getpid()}.tmp"
    try:
        tmp.write_text(json.dumps({sql: [list(r) for r in found] for sql, found in rows.items()}), encoding="utf-8")
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    prefix = target.name.split("-")[0]
    for old in target.parent.glob(f"{prefix}-*.json"):
        if old != target:
            with contextlib.suppress(OSError):
                old.unlink()

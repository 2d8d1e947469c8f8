"""The cross-reference index file of one library, kept up to date note by note. No Qt.

The study package (:mod:`amicus_desktop.study.xref_index`) reads every reference of the library's notes
into *groups*; parsing all of them takes tens of seconds on the whole Bible, so the groups live in a file in
the cache folder (``xref-index/``), one per library path and way of making them (the *fingerprint*):

* ``groups(group_id, kind, detail, chunk_id, directed)`` and ``places(group_id, role, book_id, chapter, vs, ve)``
  (role 0: a note's own passage, 1: a place it names);
* ``notes(chunk_id, digest)``: each note the groups were read from, and a digest of what was read;
* ``state(key, value)``: the library file's size and time when the file last matched it.

When the library changes (a book added while it grows in the background, an ingest replacing it) only the
notes that are new, changed or gone are read again: a book's notes take about a second where the whole
Bible takes fifty. The builder keeps the file current after each book it writes
(:func:`amicus_desktop.corpus.grow.grow_database`), so a reader's first cross-reference does not wait.
The file is in WAL mode: a lookup reads while another process brings it up to date; an unreadable file
is made again. The library itself is never written.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import apsw

from .. import paths
from .scripture import ScriptureStore
from .study import GroupRow, NoteRow, Place, int_or_none, note_rows

_FOLDER = "xref-index"
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS groups (group_id INTEGER PRIMARY KEY, kind TEXT NOT NULL, detail TEXT NOT NULL, "
    "chunk_id TEXT NOT NULL, directed INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS places (group_id INTEGER NOT NULL, role INTEGER NOT NULL, "
    "book_id TEXT NOT NULL, chapter INTEGER NOT NULL, vs INTEGER, ve INTEGER)",
    "CREATE TABLE IF NOT EXISTS notes (chunk_id TEXT PRIMARY KEY, digest TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS places_at ON places (book_id, chapter, role)",
    "CREATE INDEX IF NOT EXISTS places_of ON places (group_id)",
    "CREATE INDEX IF NOT EXISTS groups_of ON groups (chunk_id)",
)
#: how long a lookup or an update waits for another process writing the file
_BUSY_MS = 120_000
#: read from the library with the notes: the groups of these rows
GroupsOf = Callable[[Sequence[NoteRow]], Iterable[GroupRow]]


def _digest(row: NoteRow) -> str:
    return hashlib.blake2b(repr(row).encode("utf-8"), digest_size=12).hexdigest()


def _stat(db: Path) -> str:
    st = os.stat(db)
    return f"{st.st_size}|{st.st_mtime_ns}"


class XrefFile:
    """The cross-reference index of one library, brought up to date when the library has changed."""

    def __init__(self, store: ScriptureStore, fingerprint: str, groups_of: GroupsOf, scholars: Sequence[str]) -> None:
        self._store = store
        self._groups_of = groups_of
        self._scholars = list(scholars)
        key = hashlib.sha256(str(Path(store.path).resolve()).encode("utf-8")).hexdigest()[:16]
        made = hashlib.sha256(fingerprint.encode("utf-8")).hexdigest()[:16]
        self.path = paths.cache_dir() / _FOLDER / f"{key}-{made}.sqlite"
        self._con: apsw.Connection | None = None
        self.notes_read = 0  # how many notes the last update read again (0: it was current)

    @classmethod
    def open(cls, store: ScriptureStore, fingerprint: str, groups_of: GroupsOf, scholars: Sequence[str]) -> XrefFile:
        """The index of ``store``'s library, brought up to date now (seconds for a book, about a minute the
        first time for the whole Bible: call it off the UI thread)."""
        file = cls(store, fingerprint, groups_of, scholars)
        file.refresh()
        return file

    def refresh(self) -> bool:
        """Read again the notes that changed since the file last matched the library; ``True`` if any did."""
        try:
            return self._refresh()
        except (apsw.CorruptError, apsw.NotADBError):
            self.close()
            for tail in ("", "-wal", "-shm"):
                with contextlib.suppress(OSError):
                    os.unlink(f"{self.path}{tail}")
            return self._refresh()

    def _connection(self) -> apsw.Connection:
        if self._con is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            con = apsw.Connection(str(self.path), flags=apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE)
            con.set_busy_timeout(_BUSY_MS)
            con.execute("PRAGMA journal_mode=WAL")
            for statement in _SCHEMA:
                con.execute(statement)
            self._con = con
            for old in self.path.parent.glob(f"{self.path.name.split('-')[0]}-*.sqlite"):
                if old != self.path:  # the same library's files made another way, or by the older scheme
                    with contextlib.suppress(OSError):
                        old.unlink()
        return self._con

    def _state(self, con: apsw.Connection) -> str | None:
        rows = con.execute("SELECT value FROM state WHERE key = 'library'").fetchall()
        return str(rows[0][0]) if rows else None

    def _refresh(self) -> bool:
        con = self._connection()
        now = _stat(Path(self._store.path))
        if self._state(con) == now:
            self.notes_read = 0
            return False
        rows = note_rows(self._store, self._scholars)
        digests = {row[0]: _digest(row) for row in rows}
        con.execute("BEGIN IMMEDIATE")  # another process's update waits here, and finds the file current after it
        try:
            if self._state(con) == now:
                con.execute("ROLLBACK")
                self.notes_read = 0
                return False
            had = {str(c): str(d) for c, d in con.execute("SELECT chunk_id, digest FROM notes")}
            gone = [c for c, d in had.items() if digests.get(c) != d]
            fresh = [row for row in rows if had.get(row[0]) != digests[row[0]]]
            for chunk_id in gone:
                con.execute("DELETE FROM places WHERE group_id IN (SELECT group_id FROM groups WHERE chunk_id = ?)",
                            (chunk_id,))
                con.execute("DELETE FROM groups WHERE chunk_id = ?", (chunk_id,))
                con.execute("DELETE FROM notes WHERE chunk_id = ?", (chunk_id,))
            for kind, detail, chunk_id, anchor, members in self._groups_of(fresh):
                con.execute("INSERT INTO groups (kind, detail, chunk_id, directed) VALUES (?, ?, ?, ?)",
                            (kind, detail, chunk_id, int(anchor is not None)))
                gid = con.last_insert_rowid()
                places = ([(0, anchor)] if anchor else []) + [(1, m) for m in members]
                con.executemany("INSERT INTO places VALUES (?, ?, ?, ?, ?, ?)",
                                [(gid, role, *place) for role, place in places])
            con.executemany("INSERT OR REPLACE INTO notes VALUES (?, ?)", [(r[0], digests[r[0]]) for r in fresh])
            con.execute("INSERT OR REPLACE INTO state VALUES ('library', ?)", (now,))
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        self.notes_read = len(fresh)
        return bool(fresh or gone)

    def hits(self, book_id: str, chapter: int, verse: int) -> list[tuple[str, str, str, Place, bool]]:
        """``(kind, detail, chunk_id, place, reverse)``: the places named by the notes covering the verse, the
        passages of the notes naming it (``reverse``), and the other places of the groups of peers listing it."""
        rows = self._connection().execute(
            """SELECT g.kind, g.detail, g.chunk_id, o.book_id, o.chapter, o.vs, o.ve, o.role = 0 FROM places p
               JOIN groups g ON g.group_id = p.group_id
               JOIN places o ON o.group_id = p.group_id
                 AND o.role = (CASE WHEN g.directed THEN 1 - p.role ELSE 1 END)
               WHERE p.book_id = ? AND p.chapter = ?
                 AND ((p.role = 0 AND (p.vs IS NULL OR (p.vs <= ? AND coalesce(p.ve, p.vs) >= ?)))
                   OR (p.role = 1 AND p.vs <= ? AND coalesce(p.ve, p.vs) >= ?))
               ORDER BY g.chunk_id, g.group_id, o.rowid""",
            (book_id, chapter, verse, verse, verse, verse)).fetchall()
        return [(str(k), str(d), str(c), (str(b), int_or_none(ch) or 0, int_or_none(vs), int_or_none(ve)), bool(r))
                for k, d, c, b, ch, vs, ve, r in rows]

    def kinds(self) -> set[str]:
        return {str(k) for (k,) in self._connection().execute("SELECT DISTINCT kind FROM groups")}

    def close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None


__all__ = ["GroupsOf", "XrefFile"]

"""The notes store's schema, its version, and the way from each older version to this one.

The layout is documented in docs/NOTES.md; this module is its one definition. ``store_meta`` holds
``schema_version``. Opening a store (:func:`prepare`) creates the current layout in an empty file,
upgrades an older one step by step inside one write transaction (all or nothing: a crash half-way
leaves the old version), and refuses a newer one rather than guess at it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import apsw

from .errors import NotesCode, NotesError

SCHEMA_VERSION = 3

_V1 = """
CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE workspaces (
  workspace_id TEXT PRIMARY KEY,
  created      TEXT NOT NULL
);
CREATE TABLE notes (
  rowid        INTEGER PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(workspace_id),
  note_id      TEXT NOT NULL,
  text         TEXT NOT NULL,
  book_id      TEXT,
  chapter_num  INTEGER,
  verse_start  INTEGER,
  verse_end    INTEGER,
  created      TEXT NOT NULL,
  updated      TEXT NOT NULL,
  UNIQUE (workspace_id, note_id)
);
CREATE TABLE note_vectors (
  note_rowid INTEGER NOT NULL REFERENCES notes(rowid) ON DELETE CASCADE,
  model_id   TEXT NOT NULL,
  dims       INTEGER NOT NULL,
  vector     BLOB NOT NULL,
  PRIMARY KEY (note_rowid, model_id)
);
"""



def _v1_to_v2(con: apsw.Connection) -> None:
    """Schema 2: what a search index in memory needs to follow the store without reading it all again.

    Each workspace counts its changes (``generation``); a note records the generation of its last change
    (``changed``: written, re-written, moved, embedded) and a removal leaves its row id and generation in
    ``removed_notes``. A process that indexed a workspace at generation *g* reads only what changed since.
    ``forgotten``: removals up to this generation may have been cleared from ``removed_notes`` (an index
    older than that is built again).
    """
    con.execute("ALTER TABLE workspaces ADD COLUMN generation INTEGER NOT NULL DEFAULT 0")
    con.execute("ALTER TABLE workspaces ADD COLUMN forgotten INTEGER NOT NULL DEFAULT 0")
    con.execute("ALTER TABLE notes ADD COLUMN changed INTEGER NOT NULL DEFAULT 0")
    con.execute("CREATE INDEX notes_by_change ON notes(workspace_id, changed)")
    con.execute("CREATE TABLE removed_notes (workspace_id TEXT NOT NULL, note_rowid INTEGER NOT NULL, "
                "generation INTEGER NOT NULL)")
    con.execute("CREATE INDEX removed_by_generation ON removed_notes(workspace_id, generation)")


def _v2_to_v3(con: apsw.Connection) -> None:
    """Schema 3: the reader's bookmarks and highlights (:mod:`.marks`), per workspace like the notes.

    ``kind`` is ``bookmark`` or ``highlight`` (``colour`` set for a highlight only); ``labels`` a JSON list
    of the labels it is filed under; the passage as a note's (a chapter, or verses of it).
    """
    con.execute("""CREATE TABLE marks (
      rowid        INTEGER PRIMARY KEY,
      workspace_id TEXT NOT NULL REFERENCES workspaces(workspace_id),
      mark_id      TEXT NOT NULL,
      kind         TEXT NOT NULL,
      colour       TEXT,
      labels       TEXT NOT NULL DEFAULT '[]',
      book_id      TEXT NOT NULL,
      chapter_num  INTEGER NOT NULL,
      verse_start  INTEGER,
      verse_end    INTEGER,
      created      TEXT NOT NULL,
      updated      TEXT NOT NULL,
      UNIQUE (workspace_id, mark_id))""")
    con.execute("CREATE INDEX marks_by_chapter ON marks(workspace_id, book_id, chapter_num)")


#: ``version → upgrade to version + 1`` (each runs inside the opening write transaction).
UPGRADES: dict[int, Callable[[apsw.Connection], None]] = {1: _v1_to_v2, 2: _v2_to_v3}


@contextlib.contextmanager
def write_transaction(con: apsw.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` (``ROLLBACK`` on any exception).

    Immediate, not deferred: a transaction that reads and then writes would fail at once with
    "database is locked" when another process wrote in between (WAL cannot upgrade a stale read);
    taking the write lock first waits the busy timeout instead.
    """
    con.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if not con.in_transaction:
            raise
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")


def create(con: apsw.Connection) -> None:
    """The current layout, in an empty store: the first layout and every upgrade, so that a new store
    and an upgraded one are the same."""
    con.execute(_V1)
    for v in range(1, SCHEMA_VERSION):
        UPGRADES[v](con)
    con.execute("INSERT INTO store_meta(key, value) VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])


def version(con: apsw.Connection) -> int | None:
    """The store's schema version; ``None`` for an empty file; ``NOTES_STORE_INVALID`` for anything else."""
    tables = {str(name) for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if not tables:
        return None
    if "store_meta" not in tables:
        raise NotesError(NotesCode.NOTES_STORE_INVALID, "The notes file holds tables but is not a notes store.")
    row = con.execute("SELECT value FROM store_meta WHERE key = 'schema_version'").fetchone()
    try:
        return int(str(row[0])) if row else -1
    except ValueError:
        return -1


def prepare(con: apsw.Connection) -> None:
    """Make ``con``'s store the current version: create, upgrade, or refuse (``NOTES_STORE_INVALID``)."""
    current = version(con)
    if current == SCHEMA_VERSION:
        return
    with write_transaction(con):  # another process opening at the same moment waits, then sees it done
        current = version(con)
        if current is None:
            create(con)
            return
        if current == SCHEMA_VERSION:
            return
        if current > SCHEMA_VERSION:
            raise NotesError(
                NotesCode.NOTES_STORE_INVALID,
                f"The notes store was written by a newer Amicus Desktop (schema {current}; this one reads up to "
                f"{SCHEMA_VERSION}). Update Amicus Desktop; the notes are untouched.",
            )
        if current < 1 or any(v not in UPGRADES for v in range(current, SCHEMA_VERSION)):
            raise NotesError(NotesCode.NOTES_STORE_INVALID,
                             f"The notes store has a schema version this program does not know ({current}).")
        for v in range(current, SCHEMA_VERSION):
            UPGRADES[v](con)
        con.execute("UPDATE store_meta SET value = ? WHERE key = 'schema_version'", [str(SCHEMA_VERSION)])

"""The notes store's layout on PostgreSQL (:mod:`.postgres`): the SQLite layout of :mod:`.schema`, plus the wall.

The tables are :mod:`.schema`'s at its current version, in PostgreSQL's types: ``rowid`` an identity column,
a note's vector a pgvector ``vector`` (any length: each model's vectors are compared only with their own).
``note_vectors`` also carries ``workspace_id`` so that every table holding anything of a workspace has it.

**Row-level security is the second wall.** Every statement already names its workspace (scoping by
construction, as in SQLite); besides, every table with a ``workspace_id`` has a policy that shows and
accepts only the rows of the workspace set for the transaction (``SET LOCAL amicus.workspace``, done by
:mod:`.postgres` at the start of each one). A statement that forgets its filter therefore still sees one
workspace, and a transaction that set none sees nothing. One door is left on purpose, to the ids alone:
a transaction that sets ``amicus.listing`` sees every row of ``workspaces`` (ids, times, counters; no
note), which is how a whole store is copied (``notes copy``). The policy is ``FORCE``d, so it holds for the
tables' owner too; it cannot hold for a superuser or a ``BYPASSRLS`` role, so :func:`prepare` refuses to
work as one (docs/DEPLOY.md says which role to create).

:func:`prepare` creates the layout in an empty database (under an advisory lock: replicas starting together
create it once), accepts the current version and refuses any other, as :func:`.schema.prepare` does.
:func:`vector_text` writes a vector as pgvector reads it (for :mod:`.pgworkspace` and :mod:`.pgvectors`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .errors import NotesCode, NotesError

#: The layout version of a PostgreSQL notes store (its own numbering: it started at SQLite's 3).
PG_SCHEMA_VERSION = 1
#: The transaction setting the policies read.
WORKSPACE_SETTING = "amicus.workspace"
#: The transaction setting under which ``workspaces`` (ids only) shows every row: ``notes copy``'s one door.
LISTING_SETTING = "amicus.listing"
#: The advisory lock held while the layout is created (any constant of this program's own).
_LOCK = 0x616D6963  # "amic"

#: The tables holding rows of a workspace: each gets the policy.
WALLED = ("workspaces", "notes", "note_vectors", "removed_notes", "marks")

_LAYOUT = """
CREATE TABLE store_meta (key text PRIMARY KEY, value text NOT NULL);
CREATE TABLE workspaces (
  workspace_id text PRIMARY KEY,
  created      text NOT NULL,
  generation   bigint NOT NULL DEFAULT 0,
  forgotten    bigint NOT NULL DEFAULT 0
);
CREATE TABLE notes (
  rowid        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces(workspace_id),
  note_id      text NOT NULL,
  text         text NOT NULL,
  book_id      text,
  chapter_num  integer,
  verse_start  integer,
  verse_end    integer,
  created      text NOT NULL,
  updated      text NOT NULL,
  changed      bigint NOT NULL DEFAULT 0,
  UNIQUE (workspace_id, note_id)
);
CREATE INDEX notes_by_change ON notes(workspace_id, changed);
CREATE TABLE note_vectors (
  note_rowid   bigint NOT NULL REFERENCES notes(rowid) ON DELETE CASCADE,
  workspace_id text NOT NULL,
  model_id     text NOT NULL,
  dims         integer NOT NULL,
  vector       vector NOT NULL,
  PRIMARY KEY (note_rowid, model_id)
);
CREATE INDEX note_vectors_by_workspace ON note_vectors(workspace_id, model_id);
CREATE TABLE removed_notes (
  workspace_id text NOT NULL,
  note_rowid   bigint NOT NULL,
  generation   bigint NOT NULL
);
CREATE INDEX removed_by_generation ON removed_notes(workspace_id, generation);
CREATE TABLE marks (
  rowid        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  workspace_id text NOT NULL REFERENCES workspaces(workspace_id),
  mark_id      text NOT NULL,
  kind         text NOT NULL,
  colour       text,
  labels       text NOT NULL DEFAULT '[]',
  book_id      text NOT NULL,
  chapter_num  integer NOT NULL,
  verse_start  integer,
  verse_end    integer,
  created      text NOT NULL,
  updated      text NOT NULL,
  UNIQUE (workspace_id, mark_id)
);
CREATE INDEX marks_by_chapter ON marks(workspace_id, book_id, chapter_num);
"""


def _wall(table: str) -> str:
    return (f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY; ALTER TABLE {table} FORCE ROW LEVEL SECURITY; "
            f"CREATE POLICY workspace_wall ON {table} USING (workspace_id = current_setting('{WORKSPACE_SETTING}', "
            f"true)) WITH CHECK (workspace_id = current_setting('{WORKSPACE_SETTING}', true));")


def vector_text(vector: np.ndarray) -> str:
    """A vector as pgvector reads it: ``[x,y,...]`` (float32 values, written exactly)."""
    v = np.ascontiguousarray(vector, dtype=np.float32).reshape(-1)
    return "[" + ",".join(repr(float(x)) for x in v) + "]"


def _invalid(message: str) -> NotesError:
    return NotesError(NotesCode.NOTES_STORE_INVALID, message)


def check_role(cur: Any) -> None:
    """``NOTES_STORE_INVALID`` when the connection's role is one row-level security does not hold for."""
    row = cur.execute("SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user").fetchone()
    if row is None or row[0]:
        raise _invalid("The notes database is reached as a superuser or a BYPASSRLS role, which row-level security "
                       "does not hold for. Connect as a role of its own without them (docs/DEPLOY.md).")


def version(cur: Any) -> int | None:
    """The layout version in the connection's schema; ``None`` when it holds no notes store yet."""
    if cur.execute("SELECT to_regclass('store_meta')").fetchone()[0] is None:
        return None
    row = cur.execute("SELECT value FROM store_meta WHERE key = 'schema_version'").fetchone()
    try:
        return int(row[0]) if row else -1
    except ValueError:
        return -1


def prepare(cur: Any) -> None:
    """Make the database a notes store of :data:`PG_SCHEMA_VERSION` (inside the caller's transaction)."""
    check_role(cur)
    if version(cur) == PG_SCHEMA_VERSION:
        return
    cur.execute("SELECT pg_advisory_xact_lock(%s)", [_LOCK])
    current = version(cur)
    if current == PG_SCHEMA_VERSION:
        return
    if current is not None:
        raise _invalid(f"The notes database holds a notes store of layout {current}; this program reads layout "
                       f"{PG_SCHEMA_VERSION}. Update Amicus Desktop; the notes are untouched.")
    if cur.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone() is None:
        raise _invalid("The notes database has no pgvector: an administrator runs CREATE EXTENSION vector in it "
                       "once (docs/DEPLOY.md).")
    cur.execute(_LAYOUT)
    for table in WALLED:
        cur.execute(_wall(table))
    cur.execute(f"CREATE POLICY listing ON workspaces FOR SELECT USING (current_setting('{LISTING_SETTING}', true) "
                "= 'on')")
    cur.execute("INSERT INTO store_meta(key, value) VALUES ('schema_version', %s)", [str(PG_SCHEMA_VERSION)])

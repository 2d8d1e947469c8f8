"""A notes store exactly as schema 1 wrote it (frozen here: the migration test must keep meeting v1 data
however the current schema changes)."""

from __future__ import annotations

from pathlib import Path

import apsw
import numpy as np

V1_SQL = """
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
INSERT INTO store_meta(key, value) VALUES ('schema_version', '1');
"""

#: (workspace, note id, text, (book, chapter, verse_start, verse_end) | None, has a vector of "m")
V1_NOTES = (
    ("alice", "note:00000000000000a1", "Election is not of works but of him who calls.", ("romans", 9, 11, 11), True),
    ("alice", "note:00000000000000a2", "Jacob have I loved: a note on the whole chapter.", ("romans", 9, None, None),
     False),
    ("bob", "note:00000000000000b1", "Election, said bob, in his own words.", None, True),
)


def write_v1_store(path: Path) -> Path:
    """A schema-1 store at ``path`` holding :data:`V1_NOTES` (and a 4-d vector of model ``m`` for some)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    con = apsw.Connection(str(path))
    try:
        con.execute("PRAGMA journal_mode = WAL")
        con.execute(V1_SQL)
        for ws in sorted({n[0] for n in V1_NOTES}):
            con.execute("INSERT INTO workspaces VALUES (?, '2026-01-01T00:00:00.000Z')", [ws])
        for i, (ws, note_id, text, ref, vector) in enumerate(V1_NOTES, start=1):
            book, chapter, start, end = ref or (None, None, None, None)
            con.execute("INSERT INTO notes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        [i, ws, note_id, text, book, chapter, start, end, f"2026-01-0{i}T00:00:00.000Z",
                         f"2026-01-0{i}T00:00:00.000Z"])
            if vector:
                v = np.zeros(4, dtype=np.float32)
                v[i % 4] = 1.0
                con.execute("INSERT INTO note_vectors VALUES (?, 'm', 4, ?)", [i, v.tobytes()])
    finally:
        con.close()
    return path

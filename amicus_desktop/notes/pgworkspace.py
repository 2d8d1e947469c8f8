"""One workspace's notes in a PostgreSQL notes store: :class:`~.workspace.Workspace`'s methods, its rules, its errors.

:class:`PgWorkspace` is made by :meth:`PgNotesStore.workspace <amicus_desktop.notes.postgres.PgNotesStore.workspace>`.
Each method is one transaction in which the row-level security policies show this workspace only, and
every statement still binds its id (``workspace_id = %s``): two walls. Writes first lock the workspace's
row, so two replicas editing one workspace take turns as two SQLite writers do (``BEGIN IMMEDIATE``); a
write that changes nothing (an autosave of unchanged text) writes nothing.

The searches (:meth:`search`) are the SQLite store's: the workspace's :class:`~.index.NotesIndex` in
memory, brought up to date from the database by the change counter — the same BM25, the same exact cosine,
so a question ranks the same notes the same on either store. :meth:`nearest` is the same question asked of
pgvector in the database (exact, ``<=>``), for a caller that wants it without the index.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.references import PassageRef
from .marks import Marks
from .model import Note, check_text, check_time, is_note_id, new_note_id, now
from .pgschema import vector_text
from .search import WorkspaceSearch
from .workspace import KEEP, REMOVALS_KEPT, StoredNote, Workspace, _Keep, _not_found, _plain, _ref_values, decide_edit

if TYPE_CHECKING:
    from .postgres import PgNotesStore

_COLUMNS = ("n.rowid, n.note_id, n.text, n.book_id, n.chapter_num, n.verse_start, n.verse_end, n.created, n.updated, "
            "(SELECT string_agg(v.model_id, chr(31)) FROM note_vectors v WHERE v.note_rowid = n.rowid "
            "AND v.workspace_id = n.workspace_id)")


class PgWorkspace(Workspace):
    """The notes of one workspace (``id``) in a :class:`~.postgres.PgNotesStore`."""

    def __init__(self, store: PgNotesStore, workspace_id: str) -> None:
        self._pg = store
        self.id = workspace_id

    def marks(self) -> Marks:
        from .pgmarks import PgMarks

        return PgMarks(self)

    def search(self) -> WorkspaceSearch:
        from .pgsearch import PgWorkspaceSearch

        return PgWorkspaceSearch(self, self._pg._indexes)

    # -- reading -------------------------------------------------------------------------------
    def _rows(self, cur: Any, where: str = "", params: Iterable[object] = (), tail: str = "") -> list[StoredNote]:
        sql = f"SELECT {_COLUMNS} FROM notes n WHERE n.workspace_id = %s"
        if where:
            sql += f" AND ({where})"
        return [self._note(row) for row in cur.execute(sql + " " + tail, [self.id, *params]).fetchall()]

    def _select(self, where: str = "", params: Iterable[object] = (), tail: str = "", *,
                by_rowid: bool = False) -> list[StoredNote]:
        with self._pg._transaction(self.id) as cur:
            return self._rows(cur, where, params, tail)

    def find(self, note_id: str) -> Note | None:
        found = self._select("n.note_id = %s", [note_id]) if isinstance(note_id, str) else []
        return found[0].note if found else None

    def by_rowid(self, rowids: Iterable[int]) -> dict[int, Note]:
        ids = [int(r) for r in set(rowids)]
        return {s.rowid: s.note for s in self._select("n.rowid = ANY(%s)", [ids])}

    def rowids_of(self, note_ids: Sequence[str]) -> dict[str, int]:
        wanted = [i for i in note_ids if isinstance(i, str)]
        with self._pg._transaction(self.id) as cur:
            rows = cur.execute("SELECT note_id, rowid FROM notes WHERE workspace_id = %s AND note_id = ANY(%s)",
                               [self.id, wanted]).fetchall()
        return {str(i): int(r) for i, r in rows}

    def count(self) -> int:
        with self._pg._transaction(self.id) as cur:
            return int(cur.execute("SELECT count(*) FROM notes WHERE workspace_id = %s", [self.id]).fetchone()[0])

    @property
    def generation(self) -> int:
        with self._pg._transaction(self.id) as cur:
            row = cur.execute("SELECT generation FROM workspaces WHERE workspace_id = %s", [self.id]).fetchone()
        return int(row[0]) if row else 0

    # -- writing --------------------------------------------------------------------------------
    def _lock(self, cur: Any) -> None:
        """The workspace's row, created if need be and locked until the transaction ends (writers take turns)."""
        cur.execute("INSERT INTO workspaces(workspace_id, created) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                    [self.id, now()])
        cur.execute("SELECT generation FROM workspaces WHERE workspace_id = %s FOR UPDATE", [self.id])

    def _bump(self, cur: Any) -> int:
        row = cur.execute("UPDATE workspaces SET generation = generation + 1 WHERE workspace_id = %s "
                          "RETURNING generation", [self.id]).fetchone()
        return int(row[0]) if row else 0

    def _put(self, cur: Any, text: str, ref: PassageRef | None, note_id: str | None, created: str,
             updated: str) -> Note:
        generation = self._bump(cur)
        candidate = note_id if note_id is not None and is_note_id(note_id) else new_note_id()
        while cur.execute("SELECT 1 FROM notes WHERE workspace_id = %s AND note_id = %s",
                          [self.id, candidate]).fetchone():
            candidate = new_note_id()
        book, chapter, start, end = _ref_values(ref)
        cur.execute("INSERT INTO notes(workspace_id, note_id, text, book_id, chapter_num, verse_start, verse_end, "
                    "created, updated, changed) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    [self.id, candidate, text, book, chapter, start, end, created, updated, generation])
        return Note(candidate, self.id, text, ref, created, updated)

    def add(self, text: str, ref: PassageRef | None = None) -> Note:
        text = check_text(text)
        stamp = now()
        with self._pg._transaction(self.id) as cur:
            self._lock(cur)
            return self._put(cur, text, _plain(ref), None, stamp, stamp)

    def edit(self, note_id: str, text: str | None = None, ref: PassageRef | _Keep | None = KEEP, *,
             expected_updated: str | None = None) -> Note:
        if text is not None:
            text = check_text(text)
        with self._pg._transaction(self.id) as cur:
            self._lock(cur)
            found = self._rows(cur, "n.note_id = %s", [note_id]) if isinstance(note_id, str) else []
            if not found:
                raise _not_found(note_id)
            rowid, old = found[0].rowid, found[0].note
            change = decide_edit(old, text, ref, expected_updated)
            if change is None:
                return old
            cur.execute("UPDATE notes SET text = %s, book_id = %s, chapter_num = %s, verse_start = %s, verse_end = %s, "
                        "updated = %s, changed = %s WHERE rowid = %s AND workspace_id = %s",
                        [*change.columns, self._bump(cur), rowid, self.id])
            if change.forget_vectors:
                cur.execute("DELETE FROM note_vectors WHERE note_rowid = %s AND workspace_id = %s", [rowid, self.id])
            return change.note

    def remove(self, note_id: str) -> Note:
        with self._pg._transaction(self.id) as cur:
            self._lock(cur)
            found = self._rows(cur, "n.note_id = %s", [note_id]) if isinstance(note_id, str) else []
            if not found:
                raise _not_found(note_id)
            rowid = found[0].rowid
            cur.execute("DELETE FROM notes WHERE rowid = %s AND workspace_id = %s", [rowid, self.id])
            cur.execute("INSERT INTO removed_notes(workspace_id, note_rowid, generation) VALUES (%s, %s, %s)",
                        [self.id, rowid, self._bump(cur)])
            kept = int(cur.execute("SELECT count(*) FROM removed_notes WHERE workspace_id = %s", [self.id])
                       .fetchone()[0])
            if kept > REMOVALS_KEPT:  # as Workspace._forget_old_removals
                cut = int(cur.execute("SELECT generation FROM removed_notes WHERE workspace_id = %s ORDER BY "
                                      "generation DESC LIMIT 1 OFFSET %s", [self.id, REMOVALS_KEPT // 2]).fetchone()[0])
                cur.execute("DELETE FROM removed_notes WHERE workspace_id = %s AND generation <= %s", [self.id, cut])
                cur.execute("UPDATE workspaces SET forgotten = %s WHERE workspace_id = %s", [cut, self.id])
            return found[0].note

    def restore_all(self, notes: Sequence[Note]) -> list[Note]:
        checked = [(check_text(n.text), n) for n in notes]
        stamp = now()
        with self._pg._transaction(self.id) as cur:
            self._lock(cur)
            out = []
            for text, n in checked:
                created = check_time(n.created) or stamp
                out.append(self._put(cur, text, _plain(n.ref), n.id, created, check_time(n.updated) or created))
            return out

    # -- vectors ---------------------------------------------------------------------------------
    _PENDING = ("NOT EXISTS (SELECT 1 FROM note_vectors v WHERE v.note_rowid = n.rowid AND v.model_id = %s "
                "AND v.workspace_id = n.workspace_id)")

    def pending(self, model_id: str, limit: int | None = None) -> list[Note]:
        tail = "ORDER BY n.created, n.rowid" + (" LIMIT %s" if limit is not None else "")
        params: list[object] = [model_id] + ([int(limit)] if limit is not None else [])
        return [s.note for s in self._select(self._PENDING, params, tail)]

    def pending_count(self, model_id: str) -> int:
        with self._pg._transaction(self.id) as cur:
            return int(cur.execute(f"SELECT count(*) FROM notes n WHERE n.workspace_id = %s AND {self._PENDING}",
                                   [self.id, model_id]).fetchone()[0])

    def store_vectors(self, model_id: str, embedded: Sequence[tuple[Note, np.ndarray]]) -> int:
        kept = 0
        with self._pg._transaction(self.id) as cur:
            self._lock(cur)
            generation = self._bump(cur)
            for note, vector in embedded:
                row = cur.execute("SELECT rowid, text FROM notes WHERE workspace_id = %s AND note_id = %s",
                                  [self.id, note.id]).fetchone()
                if row is None or str(row[1]) != note.text:
                    continue
                v = np.ascontiguousarray(vector, dtype=np.float32).reshape(-1)
                cur.execute("INSERT INTO note_vectors(note_rowid, workspace_id, model_id, dims, vector) "
                            "VALUES (%s, %s, %s, %s, %s::vector) ON CONFLICT (note_rowid, model_id) "
                            "DO UPDATE SET dims = EXCLUDED.dims, vector = EXCLUDED.vector",
                            [int(row[0]), self.id, model_id, int(v.shape[0]), vector_text(v)])
                cur.execute("UPDATE notes SET changed = %s WHERE rowid = %s AND workspace_id = %s",
                            [generation, int(row[0]), self.id])
                kept += 1
        return kept

    def nearest(self, model_id: str, vector: np.ndarray, n: int) -> list[tuple[str, float]]:
        """The ``n`` notes of this workspace nearest ``vector`` by pgvector's exact cosine distance (``<=>``),
        among those with a vector of ``model_id`` as long as it: ``(note id, distance)``, nearest first."""
        v = np.ascontiguousarray(vector, dtype=np.float32).reshape(-1)
        with self._pg._transaction(self.id) as cur:
            rows = cur.execute(
                "SELECT n.note_id, (v.vector <=> %s::vector)::float8 AS d FROM note_vectors v JOIN notes n "
                "ON n.rowid = v.note_rowid WHERE v.workspace_id = %s AND n.workspace_id = %s AND v.model_id = %s "
                "AND v.dims = %s ORDER BY d, n.rowid LIMIT %s",
                [vector_text(v), self.id, self.id, model_id, int(v.shape[0]), int(n)]).fetchall()
        return [(str(i), float(d)) for i, d in rows]

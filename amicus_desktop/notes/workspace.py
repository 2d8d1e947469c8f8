"""One workspace's notes: everything a caller can do with notes, always within one workspace.

A :class:`Workspace` is made by :meth:`NotesStore.workspace <amicus_desktop.notes.store.NotesStore.workspace>`
and carries its id; every statement it runs binds that id (``workspace_id = ?``), and a note of
another workspace is, to it, a note that does not exist (``NOTE_NOT_FOUND``, never the note). There is
no parameter anywhere to name another workspace.

Writes are single transactions; a write that changes nothing (an autosave of unchanged text) writes
nothing. Editing a note's text forgets its vectors (they described the old text); it is embedded again
the next time a notes command or a question reaches the proxy.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from ..core.references import PassageRef
from .errors import NotesCode, NotesError
from .marks import Marks
from .model import Note, check_text, check_time, is_note_id, new_note_id, now
from .schema import write_transaction
from .search import WorkspaceSearch

if TYPE_CHECKING:
    import apsw

    from .store import NotesStore


class _Keep:
    """The "leave it as it is" value of :meth:`Workspace.edit`'s ``ref``."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP: Final = _Keep()
#: Tombstones of removed notes kept per workspace (see :mod:`.search`); past that the older half goes.
REMOVALS_KEPT = 10_000

_COLUMNS = ("n.rowid, n.note_id, n.text, n.book_id, n.chapter_num, n.verse_start, n.verse_end, n.created, n.updated, "
            "(SELECT group_concat(v.model_id, char(31)) FROM note_vectors v WHERE v.note_rowid = n.rowid)")


@dataclass(frozen=True)
class Edit:
    """What an edit of a note changes, decided by :func:`decide_edit`; each store writes it in its own SQL."""

    note: Note  #: the note as it is after the edit
    forget_vectors: bool  #: its text changed, so the vectors (which described the old text) go

    @property
    def columns(self) -> tuple[object, ...]:
        """The note's written columns in the order the stores' ``UPDATE`` names them: text, book_id,
        chapter_num, verse_start, verse_end, updated."""
        return (self.note.text, *_ref_values(self.note.ref), self.note.updated)


def decide_edit(old: Note, text: str | None, ref: PassageRef | _Keep | None,
                expected_updated: str | None) -> Edit | None:
    """An edit of ``old`` (``text`` already checked; ``None`` keeps it, as :data:`KEEP` keeps ``ref``): what
    changes, or ``None`` when nothing does (the store then writes nothing and returns ``old``).

    ``NOTE_CONFLICT`` when ``expected_updated`` (the version the editor started from) is not ``old``'s.
    The note's ``updated`` moves on (:func:`_after`); its models are kept unless its text changed.
    """
    if expected_updated is not None and expected_updated != old.updated:
        raise NotesError(NotesCode.NOTE_CONFLICT,
                         f"The note {old.id} was changed elsewhere since it was opened; reopen it.")
    new_text = old.text if text is None else text
    new_ref = old.ref if isinstance(ref, _Keep) else _plain(ref)
    if new_text == old.text and new_ref == old.ref:
        return None
    changed_text = new_text != old.text
    return Edit(Note(old.id, old.workspace, new_text, new_ref, old.created, _after(old.updated),
                     () if changed_text else old.models), changed_text)


@dataclass(frozen=True)
class StoredNote:
    """A note with the store's row id (the search's key; never shown)."""

    rowid: int
    note: Note


class Workspace:
    """The notes of one workspace (``id``). Made by the store; not shared between threads."""

    def __init__(self, store: NotesStore, workspace_id: str) -> None:
        self._store = store
        self.id = workspace_id

    @property
    def _con(self) -> apsw.Connection:
        # (also read by .search, which binds this workspace's id as this class does)
        return self._store._connection()

    def marks(self) -> Marks:
        """This workspace's bookmarks and highlights (:mod:`.marks`)."""
        return Marks(self)

    def search(self) -> WorkspaceSearch:
        """Searches over this workspace's notes, by meaning and by words (:mod:`.search`)."""
        return WorkspaceSearch(self, self._store._indexes)

    # -- reading -------------------------------------------------------------------------------
    def _note(self, row: Sequence[Any]) -> StoredNote:
        rowid, note_id, text, book_id, chapter, start, end, created, updated, models = row
        ref = None
        if book_id is not None and chapter is not None:
            ref = PassageRef(str(book_id), int(chapter), start, end)
        return StoredNote(int(rowid), Note(
            id=str(note_id), workspace=self.id, text=str(text), ref=ref, created=str(created),
            updated=str(updated), models=tuple(sorted(str(models).split("\x1f"))) if models else (),
        ))

    def _select(self, where: str = "", params: Iterable[object] = (), tail: str = "", *,
                by_rowid: bool = False) -> list[StoredNote]:
        # by_rowid: the rows are named by rowid (a question's candidates); "+" keeps SQLite from scanning
        # the workspace's index for them (the workspace is still required of every row), and their
        # models are not read
        columns = _COLUMNS if not by_rowid else _COLUMNS.rsplit(", (", 1)[0] + ", NULL"  # (no models: for search)
        sql = f"SELECT {columns} FROM notes n WHERE {'+' if by_rowid else ''}n.workspace_id = ?"
        if where:
            sql += f" AND ({where})"
        return [self._note(row) for row in self._con.execute(sql + " " + tail, [self.id, *params])]

    def find(self, note_id: str) -> Note | None:
        """The note ``note_id`` of this workspace, or ``None`` (a note of another workspace included)."""
        found = self._select("n.note_id = ?", [note_id]) if isinstance(note_id, str) else []
        return found[0].note if found else None

    def get(self, note_id: str) -> Note:
        """The note ``note_id`` of this workspace, or ``NOTE_NOT_FOUND``."""
        note = self.find(note_id)
        if note is None:
            raise _not_found(note_id)
        return note

    def notes(self, on: PassageRef | None = None) -> list[Note]:
        """Every note of the workspace, oldest first; with ``on``, those whose passage overlaps it (a
        note on a whole chapter overlaps every verse of it)."""
        rows = [s.note for s in self._select(tail="ORDER BY n.created, n.rowid")]
        if on is None:
            return rows
        return [n for n in rows if n.ref is not None and on.covers(n.metadata)]

    def by_rowid(self, rowids: Iterable[int]) -> dict[int, Note]:
        """The notes of ``rowids`` that belong to this workspace, by rowid (for :mod:`.search`; their
        ``models`` are left empty)."""
        ids = "[" + ",".join(str(int(r)) for r in set(rowids)) + "]"
        return {s.rowid: s.note for s in self._select("n.rowid IN (SELECT value FROM json_each(?))", [ids],
                                                      by_rowid=True)}

    def rowids_of(self, note_ids: Sequence[str]) -> dict[str, int]:
        """The rowids of those of ``note_ids`` this workspace holds."""
        wanted = json.dumps([i for i in note_ids if isinstance(i, str)])
        rows = self._con.execute("SELECT note_id, rowid FROM notes WHERE workspace_id = ? AND note_id IN "
                                 "(SELECT value FROM json_each(?))", [self.id, wanted])
        return {str(i): int(r) for i, r in rows}

    def count(self) -> int:
        return _int(self._con.execute("SELECT count(*) FROM notes WHERE workspace_id = ?", [self.id]).fetchone())

    # -- writing --------------------------------------------------------------------------------
    @property
    def generation(self) -> int:
        """A number that changes whenever anything of this workspace does (a note, a reference, a vector),
        in this process or another: poll it to know when to read again."""
        return _int(self._con.execute("SELECT generation FROM workspaces WHERE workspace_id = ?", [self.id]).fetchone())

    def _ensure(self) -> None:
        self._con.execute("INSERT OR IGNORE INTO workspaces(workspace_id, created) VALUES (?, ?)", [self.id, now()])

    def _touch(self) -> int:
        """Count one more change of the workspace; returns the new generation (inside a write)."""
        self._ensure()
        row = self._con.execute("UPDATE workspaces SET generation = generation + 1 WHERE workspace_id = ? "
                                "RETURNING generation", [self.id]).fetchone()
        return int(row[0]) if row else 0

    def _free_id(self, wanted: str | None = None) -> str:
        """``wanted`` when it is a note id not used in this workspace, else a fresh one."""
        candidate = wanted if wanted is not None and is_note_id(wanted) else new_note_id()
        while self._con.execute("SELECT 1 FROM notes WHERE workspace_id = ? AND note_id = ?",
                                [self.id, candidate]).fetchone():
            candidate = new_note_id()
        return candidate

    def _insert(self, text: str, ref: PassageRef | None, note_id: str | None, created: str, updated: str) -> Note:
        generation = self._touch()
        note_id = self._free_id(note_id)
        book, chapter, start, end = _ref_values(ref)
        self._con.execute(
            "INSERT INTO notes(workspace_id, note_id, text, book_id, chapter_num, verse_start, verse_end, created, "
            "updated, changed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [self.id, note_id, text, book, chapter, start, end, created, updated, generation],
        )
        return Note(note_id, self.id, text, ref, created, updated)

    def add(self, text: str, ref: PassageRef | None = None) -> Note:
        """A new note (saved before this returns), not yet embedded."""
        text = check_text(text)
        stamp = now()
        with write_transaction(self._con):
            return self._insert(text, _plain(ref), None, stamp, stamp)

    def save(self, text: str, ref: PassageRef | _Keep | None = KEEP, *, note_id: str | None = None,
             expected_updated: str | None = None) -> Note:
        """Autosave: a new note when ``note_id`` is ``None``, else the note with this text (and ``ref``).

        Saving what is already saved writes nothing and returns the note as it is. With
        ``expected_updated`` (the ``updated`` of the version the editor started from) a note changed
        elsewhere since is not overwritten: ``NOTE_CONFLICT``.
        """
        if note_id is None:
            return self.add(text, None if isinstance(ref, _Keep) else ref)
        return self.edit(note_id, text, ref, expected_updated=expected_updated)

    def edit(self, note_id: str, text: str | None = None, ref: PassageRef | _Keep | None = KEEP, *,
             expected_updated: str | None = None) -> Note:
        """The note with new ``text`` and/or ``ref`` (``None`` detaches it from its passage)."""
        if text is not None:
            text = check_text(text)
        with write_transaction(self._con):
            found = self._select("n.note_id = ?", [note_id]) if isinstance(note_id, str) else []
            if not found:
                raise _not_found(note_id)
            rowid, old = found[0].rowid, found[0].note
            change = decide_edit(old, text, ref, expected_updated)
            if change is None:
                return old
            self._con.execute(
                "UPDATE notes SET text = ?, book_id = ?, chapter_num = ?, verse_start = ?, verse_end = ?, "
                "updated = ?, changed = ? WHERE rowid = ? AND workspace_id = ?",
                [*change.columns, self._touch(), rowid, self.id],
            )
            if change.forget_vectors:
                self._con.execute("DELETE FROM note_vectors WHERE note_rowid = ?", [rowid])
            return change.note

    def remove(self, note_id: str) -> Note:
        """Delete the note (and its vectors); returns it, so that an undo can :meth:`restore` it."""
        with write_transaction(self._con):
            found = self._select("n.note_id = ?", [note_id]) if isinstance(note_id, str) else []
            if not found:
                raise _not_found(note_id)
            self._con.execute("DELETE FROM notes WHERE rowid = ? AND workspace_id = ?", [found[0].rowid, self.id])
            self._con.execute("INSERT INTO removed_notes(workspace_id, note_rowid, generation) VALUES (?, ?, ?)",
                              [self.id, found[0].rowid, self._touch()])
            self._forget_old_removals()
            return found[0].note

    def _forget_old_removals(self) -> None:
        """Keep the last :data:`REMOVALS_KEPT` tombstones; an index older than those it lost reads the
        workspace again (``forgotten``)."""
        kept = _int(self._con.execute("SELECT count(*) FROM removed_notes WHERE workspace_id = ?", [self.id])
                    .fetchone())
        if kept <= REMOVALS_KEPT:
            return
        cut = _int(self._con.execute(
            "SELECT generation FROM removed_notes WHERE workspace_id = ? ORDER BY generation DESC LIMIT 1 OFFSET ?",
            [self.id, REMOVALS_KEPT // 2]).fetchone())
        self._con.execute("DELETE FROM removed_notes WHERE workspace_id = ? AND generation <= ?", [self.id, cut])
        self._con.execute("UPDATE workspaces SET forgotten = ? WHERE workspace_id = ?", [cut, self.id])

    def restore(self, note: Note) -> Note:
        """Put back a note (an undone delete): its id and times when the id is free here, else a new id."""
        return self.restore_all([note])[0]

    def restore_all(self, notes: Sequence[Note]) -> list[Note]:
        """Put back several notes in one transaction (an import): each keeps its id when that is a note
        id free in this workspace, else gets a new one; times that are not ISO 8601 become now. The
        ``workspace`` of each note is ignored: they are put into this one."""
        checked = [(check_text(n.text), n) for n in notes]
        stamp = now()
        with write_transaction(self._con):
            out = []
            for text, n in checked:
                created = check_time(n.created) or stamp
                out.append(self._insert(text, _plain(n.ref), n.id, created, check_time(n.updated) or created))
            return out

    # -- vectors ---------------------------------------------------------------------------------
    def pending(self, model_id: str, limit: int | None = None) -> list[Note]:
        """Notes with no vector of ``model_id`` yet, oldest first (at most ``limit``)."""
        tail = "ORDER BY n.created, n.rowid" + (" LIMIT ?" if limit is not None else "")
        where = "NOT EXISTS (SELECT 1 FROM note_vectors v WHERE v.note_rowid = n.rowid AND v.model_id = ?)"
        params: list[object] = [model_id] + ([int(limit)] if limit is not None else [])
        return [s.note for s in self._select(where, params, tail)]

    def pending_count(self, model_id: str) -> int:
        return _int(self._con.execute(
            "SELECT count(*) FROM notes n WHERE n.workspace_id = ? AND NOT EXISTS "
            "(SELECT 1 FROM note_vectors v WHERE v.note_rowid = n.rowid AND v.model_id = ?)",
            [self.id, model_id],
        ).fetchone())

    def store_vectors(self, model_id: str, embedded: Sequence[tuple[Note, np.ndarray]]) -> int:
        """Keep each note's vector of ``model_id``; a note deleted or re-written since it was read is
        skipped (its vector would describe text it no longer holds). Returns how many were kept."""
        kept = 0
        with write_transaction(self._con):
            generation = self._touch()
            for note, vector in embedded:
                row = self._con.execute("SELECT rowid, text FROM notes WHERE workspace_id = ? AND note_id = ?",
                                        [self.id, note.id]).fetchone()
                if row is None or str(row[1]) != note.text:
                    continue
                v = np.ascontiguousarray(vector, dtype=np.float32).reshape(-1)
                self._con.execute(
                    "INSERT OR REPLACE INTO note_vectors(note_rowid, model_id, dims, vector) VALUES (?, ?, ?, ?)",
                    [int(row[0]), model_id, int(v.shape[0]), v.tobytes()],
                )
                self._con.execute("UPDATE notes SET changed = ? WHERE rowid = ? AND workspace_id = ?",
                                  [generation, int(row[0]), self.id])
                kept += 1
        return kept


def _int(row: Sequence[Any] | None) -> int:
    """The one number a ``SELECT count(*)`` row holds."""
    return int(row[0]) if row else 0


def _not_found(note_id: object) -> NotesError:
    shown = note_id if is_note_id(note_id) else "that id"
    return NotesError(NotesCode.NOTE_NOT_FOUND, f"There is no note {shown} in this workspace.")


def _plain(ref: PassageRef | None) -> PassageRef | None:
    """The reference as stored: without the words it was typed as."""
    return None if ref is None else PassageRef(ref.book_id, ref.chapter, ref.verse_start, ref.verse_end)


def _ref_values(ref: PassageRef | None) -> tuple[str | None, int | None, int | None, int | None]:
    if ref is None:
        return None, None, None, None
    return ref.book_id, ref.chapter, ref.verse_start, ref.verse_end


def _after(previous: str) -> str:
    """Now, or a millisecond after ``previous`` when the clock has not moved past it (two saves in
    one millisecond, a clock set back): ``updated`` always changes when a note does."""
    stamp = now()
    if stamp > previous:
        return stamp
    before = datetime.fromisoformat(previous)
    return (before + timedelta(milliseconds=1)).isoformat(timespec="milliseconds").replace("+00:00", "Z")

"""One workspace's bookmarks and highlights in a PostgreSQL notes store: :class:`~.marks.Marks` over psycopg.

The rules, checks and reading (:meth:`Marks.marks`, :meth:`Marks.search`, :meth:`Marks.labels`) are
:mod:`.marks`'s; only the statements differ. Each method is one transaction under the workspace's
row-level security (:mod:`.pgschema`), and writes lock the workspace's row first, as notes do. ``serve``
and ``mcp`` do not read marks; they are here so that a store moves whole (``notes copy``, an export).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ..core.references import PassageRef
from .errors import NotesCode, NotesError
from .marks import MARK_ID, Mark, MarkKind, Marks, _plain, check_colour, check_kind, check_labels
from .model import check_time, now

if TYPE_CHECKING:
    from .pgworkspace import PgWorkspace

_COLUMNS = "mark_id, kind, colour, labels, book_id, chapter_num, verse_start, verse_end, created, updated"


class PgMarks(Marks):
    """The marks of one workspace (``id``) of a PostgreSQL store (made by :meth:`PgWorkspace.marks`)."""

    def __init__(self, workspace: PgWorkspace) -> None:
        self._pg_ws = workspace
        self.id = workspace.id

    def _rows(self, cur: Any, where: str = "", params: Sequence[object] = ()) -> list[Mark]:
        sql = f"SELECT {_COLUMNS} FROM marks WHERE workspace_id = %s" + (f" AND ({where})" if where else "")
        return [self._mark(r) for r in cur.execute(sql + " ORDER BY created, rowid", [self.id, *params]).fetchall()]

    def _select(self, where: str = "", params: Sequence[object] = ()) -> list[Mark]:
        where = where.replace("?", "%s")  # Marks.marks() writes its conditions with SQLite's placeholders
        with self._pg_ws._pg._transaction(self.id) as cur:
            return self._rows(cur, where, params)

    def _found(self, cur: Any, mark_id: str) -> Mark:
        found = self._rows(cur, "mark_id = %s", [mark_id]) if isinstance(mark_id, str) else []
        if not found:
            shown = mark_id if isinstance(mark_id, str) and MARK_ID.fullmatch(mark_id) else "that id"
            raise NotesError(NotesCode.NOTE_NOT_FOUND, f"There is no mark {shown} in this workspace.")
        return found[0]

    def _put(self, cur: Any, kind: MarkKind, ref: PassageRef, colour: str | None, labels: tuple[str, ...],
             mark_id: str | None, created: str, updated: str) -> Mark:
        candidate = mark_id if mark_id and MARK_ID.fullmatch(mark_id) else f"mark:{secrets.token_hex(8)}"
        while cur.execute("SELECT 1 FROM marks WHERE workspace_id = %s AND mark_id = %s",
                          [self.id, candidate]).fetchone():
            candidate = f"mark:{secrets.token_hex(8)}"
        cur.execute("INSERT INTO marks(workspace_id, mark_id, kind, colour, labels, book_id, chapter_num, verse_start, "
                    "verse_end, created, updated) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    [self.id, candidate, kind.value, colour, json.dumps(list(labels), ensure_ascii=False),
                     ref.book_id, ref.chapter, ref.verse_start, ref.verse_end, created, updated])
        return Mark(candidate, kind, ref, colour, labels, created, updated)

    def add(self, kind: MarkKind | str, ref: PassageRef, *, colour: str | None = None,
            labels: Iterable[str] = ()) -> Mark:
        k = check_kind(kind)
        checked = (_plain(ref), check_colour(k, colour), check_labels(labels))
        stamp = now()
        with self._pg_ws._pg._transaction(self.id) as cur:
            self._pg_ws._lock(cur)
            return self._put(cur, k, *checked, None, stamp, stamp)

    def edit(self, mark_id: str, *, colour: str | None = None, labels: Iterable[str] | None = None) -> Mark:
        with self._pg_ws._pg._transaction(self.id) as cur:
            self._pg_ws._lock(cur)
            old = self._found(cur, mark_id)
            new_colour = old.colour if colour is None else check_colour(old.kind, colour)
            new_labels = old.labels if labels is None else check_labels(labels)
            if (new_colour, new_labels) == (old.colour, old.labels):
                return old
            stamp = now()
            cur.execute("UPDATE marks SET colour = %s, labels = %s, updated = %s WHERE workspace_id = %s AND "
                        "mark_id = %s", [new_colour, json.dumps(list(new_labels), ensure_ascii=False), stamp,
                                         self.id, old.id])
            return Mark(old.id, old.kind, old.ref, new_colour, new_labels, old.created, stamp)

    def remove(self, mark_id: str) -> Mark:
        with self._pg_ws._pg._transaction(self.id) as cur:
            self._pg_ws._lock(cur)
            old = self._found(cur, mark_id)
            cur.execute("DELETE FROM marks WHERE workspace_id = %s AND mark_id = %s", [self.id, old.id])
            return old

    def restore_all(self, marks: Sequence[Mark]) -> list[Mark]:
        stamp = now()
        checked = [(check_kind(m.kind), _plain(m.ref), m) for m in marks]
        with self._pg_ws._pg._transaction(self.id) as cur:
            self._pg_ws._lock(cur)
            return [self._put(cur, kind, ref, check_colour(kind, m.colour), check_labels(m.labels), m.id,
                              check_time(m.created) or stamp, check_time(m.updated) or check_time(m.created) or stamp)
                    for kind, ref, m in checked]

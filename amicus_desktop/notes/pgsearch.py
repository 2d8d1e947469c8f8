"""A PostgreSQL workspace's search index: :class:`~.search.WorkspaceSearch` reading the database instead of a file.

The index is the one :mod:`.search` keeps for a SQLite store (the same :class:`~.index.NotesIndex`, the
same FTS5 tokenizer from a private in-memory SQLite, the same BM25 and cosine), brought up to date the
same way — the workspace's ``generation``, the notes ``changed`` since, the ``removed_notes`` — in one
read-only repeatable-read transaction, so the counter and the rows agree. A note written through another
replica is found by the next question here. Vectors come out of pgvector as float arrays.

A question's meaning search (:meth:`PgWorkspaceSearch.view`'s ``vectors``) is the index's too by default;
with ``AMICUS_NOTES_VECTORS=pgvector`` it is asked of pgvector in the database (:mod:`.pgvectors`, the same
ids and distances to 1e-5) — slower per question for a reader's workspace (docs/DEPLOY.md), the way for a
workspace too large to hold in each process.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from .index import NotesIndex
from .search import IndexCache, WorkspaceSearch

if TYPE_CHECKING:
    from .pgworkspace import PgWorkspace
    from .view import IndexView

#: ``memory`` (the default) or ``pgvector``: where a question's meaning search over a workspace's notes runs.
VECTORS_ENV = "AMICUS_NOTES_VECTORS"

_NOTE_ROWS = ("SELECT n.rowid, n.book_id, n.chapter_num, n.verse_start, n.verse_end, n.text, v.vector::real[], "
              "n.note_id FROM notes n LEFT JOIN note_vectors v ON v.note_rowid = n.rowid AND v.model_id = %s "
              "AND v.workspace_id = n.workspace_id WHERE n.workspace_id = %s")


def _rows(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The rows as :meth:`NotesIndex.apply` reads them: the vector as float32 bytes."""
    return [(*r[:6], None if r[6] is None else np.asarray(r[6], dtype=np.float32).tobytes(), r[7]) for r in rows]


#: held while a cached index is brought up to date (three threads patching one at once broke it under load);
#: questions reading an index meanwhile are safe: a patch goes to a copy that then takes the cache's place
_REFRESH = threading.Lock()


class PgWorkspaceSearch(WorkspaceSearch):
    """Searches over one PostgreSQL workspace's notes (made by :meth:`PgWorkspace.search`)."""

    def __init__(self, workspace: PgWorkspace, cache: IndexCache) -> None:
        super().__init__(workspace, cache)
        self._pg_ws = workspace

    def index(self, model_id: str) -> NotesIndex:
        with _REFRESH:  # the service's threads share one cached index: one brings it up to date at a time
            return self._index(model_id)

    def _index(self, model_id: str) -> NotesIndex:
        ws = self._pg_ws
        with ws._pg._transaction(ws.id, snapshot=True) as cur:
            row = cur.execute("SELECT generation, forgotten FROM workspaces WHERE workspace_id = %s",
                              [ws.id]).fetchone()
            generation, forgotten = (int(row[0]), int(row[1])) if row else (0, 0)
            key = (ws.id, model_id)
            index = self._cache.get(key)
            if index is None or generation < index.generation or forgotten > index.generation:
                index = NotesIndex(model_id, self._cache.tokenizer(ws._pg._words))
                rows = cur.execute(_NOTE_ROWS + " ORDER BY n.rowid", [model_id, ws.id]).fetchall()
                index.load(generation, _rows(rows))
                self._cache.put(key, index)
            elif generation > index.generation:
                since = index.generation
                changed = cur.execute(_NOTE_ROWS + " AND n.changed > %s ORDER BY n.rowid",
                                      [model_id, ws.id, since]).fetchall()
                removed = [int(r) for (r,) in cur.execute(
                    "SELECT note_rowid FROM removed_notes WHERE workspace_id = %s AND generation > %s",
                    [ws.id, since]).fetchall()]
                index = index.copy()  # the service's other threads may be reading the cached one
                index.apply(generation, _rows(changed), removed)
                self._cache.put(key, index)
        return index

    def view(self, model_id: str, *, embedded_only: bool) -> IndexView:
        """The index's view (:mod:`.view`); with ``AMICUS_NOTES_VECTORS=pgvector`` its meaning search is asked
        of pgvector in the database (:class:`~.pgvectors.PgNotesVectors`: the same ids and distances)."""
        view = super().view(model_id, embedded_only=embedded_only)
        if vectors_in_database():
            from .pgvectors import PgNotesVectors

            view.vectors = PgNotesVectors(self._pg_ws, view.index)
        return view


def vectors_in_database() -> bool:
    """Whether :data:`VECTORS_ENV` asks for pgvector (``pgvector``) rather than the index in memory
    (``memory``, the default: measured ≈ 10–100× faster per question, docs/DEPLOY.md)."""
    return os.environ.get(VECTORS_ENV, "").strip().lower() == "pgvector"

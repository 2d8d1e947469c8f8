"""A PostgreSQL workspace's meaning search, asked of pgvector: the :class:`~amicus_desktop.core.vectors.VectorIndex`
of :meth:`PgWorkspaceSearch.view <amicus_desktop.notes.pgsearch.PgWorkspaceSearch.view>`.

The same questions :class:`~.view.NotesVectors` answers over the index in memory — the ``n`` notes nearest a
vector (filters inside the search), the nearest of given notes, the distance of given notes — answered by
the database with pgvector's exact cosine distance (``<=>``, ``1 - cos``), nearest first, ties by rowid.
Each is one statement in the workspace's own transaction (row-level security and a bound
``workspace_id``), over the vectors of the question's model and length only. A note the database holds
but the question's index does not yet (written a moment after the index was brought up to date) is left
out, so every hit is a note the rest of the question can show. The filters are the notes' (``user_note``,
no scholar nor tradition, the reference's book, the marked passages): :func:`~.view.allowed_rows` in SQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.query import USER_NOTE, Filters
from ..core.vectors import ALL_FILTER_KINDS, Hits
from .index import NotesIndex
from .pgschema import vector_text

if TYPE_CHECKING:
    from .pgworkspace import PgWorkspace

_NEAREST = ("SELECT v.note_rowid, (v.vector <=> %s::vector)::float8 AS d FROM note_vectors v JOIN notes n ON "
            "n.rowid = v.note_rowid AND n.workspace_id = v.workspace_id WHERE v.workspace_id = %s AND "
            "v.model_id = %s AND v.dims = %s")


class PgNotesVectors:
    """pgvector's answers for one workspace and model, limited to the notes of ``index`` (see the module)."""

    filter_kinds = ALL_FILTER_KINDS

    def __init__(self, workspace: PgWorkspace, index: NotesIndex) -> None:
        self._ws = workspace
        self._index = index

    def _known(self, rows: Sequence[Any]) -> list[tuple[int, float]]:
        index = self._index
        return [(int(r), float(d)) for r, d in rows
                if (slot := index.slot(int(r))) is not None and index.alive[slot] and np.isfinite(d)]

    def _ask(self, vector: np.ndarray, where: str, params: Sequence[object], n: int | None) -> list[tuple[int, float]]:
        v = np.asarray(vector, dtype=np.float32).reshape(-1)
        if not np.any(v) or (n is not None and n < 1):  # a zero vector has no distance to anything
            return []
        sql = _NEAREST + where + " ORDER BY d, v.note_rowid" + (" LIMIT %s" if n is not None else "")
        args: list[object] = [vector_text(v), self._ws.id, self._index.model_id, int(v.shape[0]), *params]
        with self._ws._pg._transaction(self._ws.id) as cur:
            # a few more than asked: a note newer than the index is dropped by _known
            rows = cur.execute(sql, [*args, *([n + 8] if n is not None else [])]).fetchall()
        return self._known(rows)

    def nearest(self, vector: np.ndarray, n: int, filters: Filters = Filters()) -> Hits:
        if (filters.source_types and USER_NOTE not in filters.source_types) or filters.scholars or filters.traditions:
            return []
        where, params = "", list[object]()
        if filters.books:
            where, params = " AND n.book_id = ANY(%s)", [list(filters.books)]
        if filters.passages:  # the reader's marked passages: a note on one of them, as covering_rows says
            ors: list[str] = []
            for p in filters.passages:
                ors.append("(n.book_id = %s AND n.chapter_num = %s" + ("" if p.verse_start is None else
                           " AND (n.verse_start IS NULL OR (n.verse_start <= %s AND "
                           "coalesce(n.verse_end, n.verse_start) >= %s))") + ")")
                params += [p.book_id, p.chapter] + ([] if p.verse_start is None else
                                                    [p.verse_end or p.verse_start, p.verse_start])
            where += " AND (" + " OR ".join(ors) + ")"
        return self._ask(vector, where, params, n)[:n]

    def nearest_among(self, vector: np.ndarray, ids: Sequence[int], n: int) -> Hits:
        wanted = [int(i) for i in ids]
        return self._ask(vector, " AND v.note_rowid = ANY(%s)", [wanted], n)[:n] if wanted else []

    def distances(self, vector: np.ndarray, ids: Sequence[int]) -> dict[int, float]:
        wanted = [int(i) for i in ids]
        return dict(self._ask(vector, " AND v.note_rowid = ANY(%s)", [wanted], None)) if wanted else {}

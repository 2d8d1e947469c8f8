"""The library's meaning search on PostgreSQL: an exact scan with pgvector's cosine distance.

:class:`PgVectors` answers :class:`~amicus_desktop.core.vectors.VectorIndex`'s three questions with one
statement each: ``embedding <=> query`` (pgvector's cosine distance, ``1 - cos`` as sqlite-vec's) over every
row the filter allows — the filter inside the statement, so ``n`` rows come back whenever that many are allowed
(CONTRACT section 6) — nearest first, ties by rowid. No approximate index is read: the planner has none to
choose (an HNSW index for large libraries is a later step, with its recall measured against this scan). A zero
vector has no distance (pgvector gives NaN; sqlite-vec NULL): it is left out, as there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ...core.query import Filters
from ...core.vectors import ALL_FILTER_KINDS, Hits
from .conditions import filter_condition
from .export import vector_text

if TYPE_CHECKING:
    from .library import PgLibrary


class PgVectors:
    """The exact vector index of one :class:`~.library.PgLibrary` (see the module docstring)."""

    filter_kinds = ALL_FILTER_KINDS

    def __init__(self, store: PgLibrary) -> None:
        self._store = store

    def _scan(self, vector: np.ndarray, where: str, params: list[object], n: int, joined: bool) -> Hits:
        query = vector_text(self._store.query_vector(vector))
        source = ("embeddings e JOIN chunk_text t ON t.rowid = e.rowid LEFT JOIN chunk_metadata m ON m.rowid = e.rowid"
                  if joined else "embeddings e")
        rows = self._store.query(
            f"SELECT rowid, d FROM (SELECT e.rowid, e.embedding <=> %s::vector AS d FROM {source} WHERE {where}) x "
            "WHERE d <> 'NaN'::float8 ORDER BY d, rowid LIMIT %s",
            [query, *params, int(n)])
        return [(int(r), float(d)) for r, d in rows]

    def nearest(self, vector: np.ndarray, n: int, filters: Filters = Filters()) -> Hits:
        if not filters.active:
            return self._scan(vector, "TRUE", [], n, joined=False)
        where, params = filter_condition(filters)
        return self._scan(vector, where, params, n, joined=True)

    def nearest_among(self, vector: np.ndarray, ids: Sequence[int], n: int) -> Hits:
        rows = sorted({int(i) for i in ids})
        if not rows:
            self._store.query_vector(vector)  # DIMENSION_MISMATCH all the same
            return []
        return self._scan(vector, "e.rowid = ANY(%s::bigint[])", [rows], n, joined=False)

    def distances(self, vector: np.ndarray, ids: Sequence[int]) -> dict[int, float]:
        return dict(self.nearest_among(vector, ids, len(set(ids))))

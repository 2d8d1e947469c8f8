"""Dense candidates: the rows nearest the question's vector by cosine distance, exactly.

:func:`nearest` is the KNN of CONTRACT section 3 step 2 with the filters of section 6 inside it;
:func:`distances` measures given rows against the same vector (keyword and reference candidates in
``hybrid`` mode, pins), so every breakdown shows an exact distance whatever found the chunk.

Both run sqlite-vec's exact scan, unless the database has the two-stage tables and is large enough
for them (:class:`~.twostage.TwoStageIndex`, docs/SEARCH.md): then codes pick a short list and the
distances are still computed exactly, from the float copy. ``rowid IN (SELECT value FROM
json_each(?))`` is sqlite-vec's pre-filter: the scan visits only those rows, and ``k`` of them come
back whenever ``k`` exist; the two-stage path takes the same allowed rowids.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np

from ..core.query import MAX_CANDIDATES, Filters
from ..store.scripture import ScriptureStore
from .filters import allowed_rowids, vec0_pushdown
from .twostage import TwoStageIndex

#: sqlite-vec's pre-filter: the scan visits only these rows (a JSON list of rowids).
_AMONG = " AND rowid IN (SELECT value FROM json_each(?))"


def nearest(store: ScriptureStore, vector: np.ndarray, n: int, filters: Filters = Filters()) -> list[tuple[int, float]]:
    """The ``n`` rows nearest ``vector`` that ``filters`` allow, as ``(rowid, distance)``, nearest first."""
    store.query_vector(vector)  # DIMENSION_MISMATCH whichever path answers
    index = TwoStageIndex.for_store(store)
    if index is not None:
        allowed = np.asarray(allowed_rowids(store, filters), dtype=np.int64) if filters.active else None
        return index.search(vector, n, allowed)
    if not filters.active:
        return store.knn(vector, n)
    pushed = vec0_pushdown(store, filters)
    if pushed is not None:
        return store.knn(vector, n, *pushed)
    rowids = allowed_rowids(store, filters)
    if not rowids:
        return []
    return store.knn(vector, min(n, len(rowids)), _AMONG, [json.dumps(rowids)])


def nearest_among(store: ScriptureStore, vector: np.ndarray, rowids: Sequence[int], n: int) -> list[tuple[int, float]]:
    """The ``n`` rows of ``rowids`` nearest ``vector``, nearest first."""
    store.query_vector(vector)  # DIMENSION_MISMATCH whichever path answers
    ids = sorted(set(rowids))
    if not ids:
        return []
    index = TwoStageIndex.for_store(store)
    if index is not None:  # exact outright when the rows fit its refine list
        return index.search(vector, n, np.asarray(ids, dtype=np.int64))
    found: list[tuple[int, float]] = []
    # sqlite-vec's k is at most 4096: measure larger sets in parts and merge.
    for start in range(0, len(ids), MAX_CANDIDATES):
        part = ids[start : start + MAX_CANDIDATES]
        found += store.knn(vector, min(n, len(part)), _AMONG, [json.dumps(part)])
    found.sort(key=lambda row: (row[1], row[0]))
    return found[:n]


def distances(store: ScriptureStore, vector: np.ndarray, rowids: Sequence[int]) -> dict[int, float]:
    """The exact cosine distance from ``vector`` to each of ``rowids`` (rows without a vector are left out)."""
    index = TwoStageIndex.for_store(store)
    if index is not None:
        store.query_vector(vector)  # the same DIMENSION_MISMATCH as the exact path
        return index.distances(vector, rowids)
    return dict(nearest_among(store, vector, rowids, len(set(rowids))))

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
import logging
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.errors import AmicusError, ErrorCode
from ..core.types import MAX_CANDIDATES, Filters
from ..store.scripture import ScriptureStore
from .filters import allowed_rowids, vec0_pushdown
from .twostage import TwoStageIndex

log = logging.getLogger("amicus.candidates")


def _query_bytes(store: ScriptureStore, vector: np.ndarray) -> bytes:
    query = np.ascontiguousarray(vector, dtype=np.float32)  # float64 would read as 2× the dims
    if query.shape != (store.info.dims,):
        raise AmicusError(
            ErrorCode.DIMENSION_MISMATCH,
            f"The query vector has {query.size} dimensions; the database holds {store.info.dims}.",
        )
    return query.tobytes()


def _knn(store: ScriptureStore, query: bytes, k: int, extra: str = "", params: Sequence[Any] = ()) -> list[
    tuple[int, float]
]:
    rows = store.rows(
        f"SELECT rowid, distance FROM embeddings WHERE embedding MATCH ? AND k = ?{extra} ORDER BY distance",
        [query, int(k), *params],
    )
    skipped = sum(1 for _, d in rows if d is None)
    if skipped:  # a zero vector in the database has no cosine distance
        log.warning("skipped rows without a distance", extra={"count": skipped})
    return [(int(r), float(d)) for r, d in rows if d is not None]


def nearest(store: ScriptureStore, vector: np.ndarray, n: int, filters: Filters = Filters()) -> list[tuple[int, float]]:
    """The ``n`` rows nearest ``vector`` that ``filters`` allow, as ``(rowid, distance)``, nearest first."""
    query = _query_bytes(store, vector)
    index = TwoStageIndex.for_store(store)
    if index is not None:
        allowed = np.asarray(allowed_rowids(store, filters), dtype=np.int64) if filters.active else None
        return index.search(vector, n, allowed)
    if not filters.active:
        return _knn(store, query, n)
    pushed = vec0_pushdown(store, filters)
    if pushed is not None:
        return _knn(store, query, n, *pushed)
    rowids = allowed_rowids(store, filters)
    if not rowids:
        return []
    return _knn(store, query, min(n, len(rowids)), " AND rowid IN (SELECT value FROM json_each(?))",
                [json.dumps(rowids)])


def nearest_among(store: ScriptureStore, vector: np.ndarray, rowids: Sequence[int], n: int) -> list[tuple[int, float]]:
    """The ``n`` rows of ``rowids`` nearest ``vector``, nearest first."""
    query = _query_bytes(store, vector)
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
        found += _knn(store, query, min(n, len(part)), " AND rowid IN (SELECT value FROM json_each(?))",
                      [json.dumps(part)])
    found.sort(key=lambda row: (row[1], row[0]))
    return found[:n]


def distances(store: ScriptureStore, vector: np.ndarray, rowids: Sequence[int]) -> dict[int, float]:
    """The exact cosine distance from ``vector`` to each of ``rowids`` (rows without a vector are left out)."""
    index = TwoStageIndex.for_store(store)
    if index is not None:
        _query_bytes(store, vector)  # the same DIMENSION_MISMATCH as the exact path
        return index.distances(vector, rowids)
    return dict(nearest_among(store, vector, rowids, len(set(rowids))))

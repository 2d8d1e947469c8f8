"""Dense candidates: the rows nearest the question's vector by cosine distance, exactly.

:func:`nearest` is the KNN of CONTRACT section 3 step 2 with the filters of section 6 inside it;
:func:`nearest_among` the nearest of given rows (the chunks covering a referenced passage);
:func:`distances` measures given rows against the same vector (keyword and reference candidates in
``hybrid`` mode, pins), so every breakdown shows an exact distance whatever found the chunk.

Each asks the store for sqlite-vec's exact scan (:meth:`ScriptureStore.knn
<amicus_desktop.store.scripture.ScriptureStore.knn>`, which keeps a filter inside it), unless the
database has a two-stage file and is large enough for it (:class:`~.twostage.TwoStageIndex`,
docs/SEARCH.md): then codes pick a short list among the rows the filter allows, and the distances
are still computed exactly, from the float copy. ``two_stage`` is the mode of
:data:`~.twostage.MODES` (``None``: ``AMICUS_TWO_STAGE``, else ``auto``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core.query import Filters
from ..store.scripture import ScriptureStore
from .twostage import TwoStageIndex


def nearest(store: ScriptureStore, vector: np.ndarray, n: int, filters: Filters = Filters(), *,
            two_stage: str | None = None) -> list[tuple[int, float]]:
    """The ``n`` rows nearest ``vector`` that ``filters`` allow, as ``(rowid, distance)``, nearest first."""
    store.query_vector(vector)  # DIMENSION_MISMATCH whichever path answers
    index = TwoStageIndex.for_store(store, two_stage)
    if index is not None:
        allowed = np.asarray(store.allowed_rowids(filters), dtype=np.int64) if filters.active else None
        return index.search(vector, n, allowed)
    return store.knn(vector, n, filters)


def nearest_among(store: ScriptureStore, vector: np.ndarray, rowids: Sequence[int], n: int, *,
                  two_stage: str | None = None) -> list[tuple[int, float]]:
    """The ``n`` rows of ``rowids`` nearest ``vector``, nearest first."""
    store.query_vector(vector)  # DIMENSION_MISMATCH whichever path answers
    ids = sorted(set(rowids))
    if not ids:
        return []
    index = TwoStageIndex.for_store(store, two_stage)
    if index is not None:  # exact outright when the rows fit its refine list
        return index.search(vector, n, np.asarray(ids, dtype=np.int64))
    return store.knn_among(vector, ids, n)


def distances(store: ScriptureStore, vector: np.ndarray, rowids: Sequence[int], *,
              two_stage: str | None = None) -> dict[int, float]:
    """The exact cosine distance from ``vector`` to each of ``rowids`` (rows without a vector are left out)."""
    index = TwoStageIndex.for_store(store, two_stage)
    if index is not None:
        store.query_vector(vector)  # the same DIMENSION_MISMATCH as the exact path
        return index.distances(vector, rowids)
    return dict(nearest_among(store, vector, rowids, len(set(rowids)), two_stage=two_stage))

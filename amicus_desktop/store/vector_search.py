"""The library's meaning search: one :class:`~amicus_desktop.core.vectors.VectorIndex` over scripture.db.

:class:`LibraryVectors` answers the index's three questions (nearest inside a filter, nearest among given
rows, distances of given rows) for one :class:`~.scripture.ScriptureStore`, by one of two paths decided
once per store and mode:

* **exact** — sqlite-vec's scan (:meth:`ScriptureStore.knn <.scripture.ScriptureStore.knn>`, which keeps a
  filter inside it; :meth:`~.scripture.ScriptureStore.knn_among`);
* **two-stage** — when the database has a two-stage file and is large enough for it
  (:class:`~.twostage.TwoStageIndex`, docs/SEARCH.md): codes pick a short list among the rows the filter
  allows, and the distances are still computed exactly, from the float copy.

Either way every filter kind applies inside the search, the distances are exact, and a vector of the
wrong size is ``DIMENSION_MISMATCH`` whichever path answers. ``mode`` is one of
:data:`~.twostage.MODES` (``None``: ``AMICUS_TWO_STAGE``, else ``auto``). Runs on the store's thread.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core.query import Filters
from ..core.vectors import ALL_FILTER_KINDS, Hits
from .scripture import ScriptureStore
from .twostage import TwoStageIndex, configured_mode


class LibraryVectors:
    """The vector index of one store: sqlite-vec's exact scan or the two-stage file (module docstring)."""

    filter_kinds = ALL_FILTER_KINDS

    def __init__(self, store: ScriptureStore, two_stage: TwoStageIndex | None) -> None:
        self._store = store
        #: the two-stage index that answers, or ``None``: sqlite-vec's exact scan does
        self.two_stage = two_stage

    @classmethod
    def open(cls, store: ScriptureStore, mode: str | None = None) -> LibraryVectors:
        """The index of ``store`` for ``mode`` (the two-stage file opened when it answers); the store keeps
        one per mode (:meth:`ScriptureStore.vector_index <.scripture.ScriptureStore.vector_index>`)."""
        return cls(store, TwoStageIndex.for_store(store, mode or configured_mode()))

    def nearest(self, vector: np.ndarray, n: int, filters: Filters = Filters()) -> Hits:
        self._store.query_vector(vector)  # DIMENSION_MISMATCH whichever path answers
        if self.two_stage is not None:
            allowed = np.asarray(self._store.allowed_rowids(filters), dtype=np.int64) if filters.active else None
            return self.two_stage.search(vector, n, allowed)
        return self._store.knn(vector, n, filters)

    def nearest_among(self, vector: np.ndarray, ids: Sequence[int], n: int) -> Hits:
        self._store.query_vector(vector)
        rows = sorted(set(ids))
        if not rows:
            return []
        if self.two_stage is not None:  # exact outright when the rows fit its refine list
            return self.two_stage.search(vector, n, np.asarray(rows, dtype=np.int64))
        return self._store.knn_among(vector, rows, n)

    def distances(self, vector: np.ndarray, ids: Sequence[int]) -> dict[int, float]:
        if self.two_stage is not None:
            self._store.query_vector(vector)  # the same DIMENSION_MISMATCH as the exact path
            return self.two_stage.distances(vector, ids)
        return dict(self.nearest_among(vector, ids, len(set(ids))))

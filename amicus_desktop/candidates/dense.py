"""Dense candidates: the rows nearest the question's vector by cosine distance, exactly.

:func:`nearest` is the KNN of CONTRACT section 3 step 2 with the filters of section 6 inside it;
:func:`nearest_among` the nearest of given rows (the chunks covering a referenced passage);
:func:`distances` measures given rows against the same vector (keyword and reference candidates in
``hybrid`` mode, pins), so every breakdown shows an exact distance whatever found the chunk.

Each asks the library's :class:`~amicus_desktop.core.vectors.VectorIndex`
(:meth:`LibraryStore.vector_index <amicus_desktop.store.library.LibraryStore.vector_index>`: for
scripture.db, sqlite-vec's exact scan or the two-stage file, :mod:`amicus_desktop.store.vector_search`).
A filter the index cannot apply inside its search is applied as the rows the library says it allows,
through :meth:`~amicus_desktop.core.vectors.VectorIndex.nearest_among` — never after the search, which
would silently return fewer rows. ``two_stage`` is the mode of
:data:`~amicus_desktop.store.twostage.MODES` (``None``: ``AMICUS_TWO_STAGE``, else ``auto``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core.query import Filters
from ..core.vectors import applies
from ..store.library import LibraryStore


def nearest(store: LibraryStore, vector: np.ndarray, n: int, filters: Filters = Filters(), *,
            two_stage: str | None = None) -> list[tuple[int, float]]:
    """The ``n`` rows nearest ``vector`` that ``filters`` allow, as ``(rowid, distance)``, nearest first."""
    index = store.vector_index(two_stage)
    if applies(index, filters):
        return index.nearest(vector, n, filters)
    store.query_vector(vector)  # DIMENSION_MISMATCH before the allowed rows are read
    return index.nearest_among(vector, store.allowed_rowids(filters), n)


def nearest_among(store: LibraryStore, vector: np.ndarray, rowids: Sequence[int], n: int, *,
                  two_stage: str | None = None) -> list[tuple[int, float]]:
    """The ``n`` rows of ``rowids`` nearest ``vector``, nearest first."""
    return store.vector_index(two_stage).nearest_among(vector, rowids, n)


def distances(store: LibraryStore, vector: np.ndarray, rowids: Sequence[int], *,
              two_stage: str | None = None) -> dict[int, float]:
    """The exact cosine distance from ``vector`` to each of ``rowids`` (rows without a vector are left out)."""
    return store.vector_index(two_stage).distances(vector, rowids)

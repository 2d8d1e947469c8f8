"""What a vector index answers: the one seam every meaning search goes through.

A :class:`VectorIndex` holds unit-comparable vectors keyed by integer ids (a library's chunk rowids, a
workspace's note rowids, …) and answers three questions, always with exact cosine distances
``1 - cos`` (what the breakdown shows), nearest first, ties by id:

* :meth:`~VectorIndex.nearest` — the ``n`` ids nearest a vector among those a :class:`Filters` allows
  (CONTRACT section 3 step 2, with section 6's filters *inside* the search, so ``n`` come back whenever
  that many are allowed);
* :meth:`~VectorIndex.nearest_among` — the ``n`` nearest of given ids (the chunks covering a passage);
* :meth:`~VectorIndex.distances` — the distance of each given id (what another search found).

Which filters an index applies inside its own search is :attr:`~VectorIndex.filter_kinds` (a subset of
:data:`~amicus_desktop.core.query.FILTER_KINDS`); :func:`applies` says whether it can take a given
:class:`Filters`. Where it cannot, the caller asks its library for the rowids the filters allow and uses
:meth:`~VectorIndex.nearest_among` (see :mod:`amicus_desktop.candidates.dense`).

The implementations: the library's (sqlite-vec's exact scan or the two-stage file,
:class:`amicus_desktop.store.vector_search.LibraryVectors`), a workspace's notes
(:class:`amicus_desktop.notes.vectors.NotesVectors`) and a matrix held in memory (:class:`MatrixVectors`:
verse search's verses, commentary notes and lexicon entries). A vector of the wrong size is the
contract's ``DIMENSION_MISMATCH`` for the library; a zero vector has no distance to anything (nothing
comes back), as sqlite-vec gives it none. "How to add a vector backend" in docs/SEARCH.md says which
files a new one touches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from .query import FILTER_KINDS, Filters

#: Every kind of filter (a ``Filters`` field): what an index that applies them all lists.
ALL_FILTER_KINDS: frozenset[str] = frozenset(FILTER_KINDS)

Hits = list[tuple[int, float]]


@runtime_checkable
class VectorIndex(Protocol):
    """Exact nearest-neighbour questions over vectors keyed by integer ids (see the module docstring)."""

    @property
    def filter_kinds(self) -> frozenset[str]:
        """The :class:`Filters` fields :meth:`nearest` applies inside its search."""
        ...

    def nearest(self, vector: np.ndarray, n: int, filters: Filters = Filters()) -> Hits:
        """The ``n`` ids nearest ``vector`` that ``filters`` allow, as ``(id, distance)``, nearest first."""
        ...

    def nearest_among(self, vector: np.ndarray, ids: Sequence[int], n: int) -> Hits:
        """The ``n`` of ``ids`` nearest ``vector``, nearest first (ids without a vector are left out)."""
        ...

    def distances(self, vector: np.ndarray, ids: Sequence[int]) -> dict[int, float]:
        """The distance from ``vector`` to each of ``ids`` that has a vector."""
        ...


def applies(index: VectorIndex, filters: Filters) -> bool:
    """Whether ``index`` applies every active kind of ``filters`` inside :meth:`VectorIndex.nearest`."""
    return all(kind in index.filter_kinds for kind in FILTER_KINDS if getattr(filters, kind))


def top(ids: npt.NDArray[np.int64], dist: npt.NDArray[np.float64], n: int) -> Hits:
    """The ``n`` smallest finite ``dist`` as ``(id, distance)``, nearest first, ties by id."""
    ok = np.isfinite(dist)
    ids, dist = ids[ok], dist[ok]
    if n < len(ids):  # keep every tie at the edge: the id decides among them
        cut = np.partition(dist, n - 1)[n - 1]
        keep = dist <= cut
        ids, dist = ids[keep], dist[keep]
    order = np.lexsort((ids, dist))[: max(n, 0)]
    return [(int(ids[i]), float(dist[i])) for i in order]


def products(matrix: np.ndarray, vector: np.ndarray, block: int = 8192) -> npt.NDArray[np.float32]:
    """``matrix @ vector`` in float32, block by block for a float16 matrix (half the memory)."""
    q = np.ascontiguousarray(vector, dtype=np.float32)
    if matrix.dtype == np.float32:
        out: npt.NDArray[np.float32] = (matrix @ q).astype(np.float32, copy=False)
        return out
    parts = [matrix[i: i + block].astype(np.float32) @ q for i in range(0, len(matrix), block)]
    return np.concatenate(parts).astype(np.float32) if parts else np.zeros(0, dtype=np.float32)


class MatrixVectors:
    """A :class:`VectorIndex` over a matrix in memory: row ``i`` is id ``ids[i]`` (float32 or float16).

    Applies no filter (its users score every row, or name the rows). :meth:`similarities` is the
    matrix product itself, for a caller that scores every row at once (verse search).
    """

    filter_kinds: frozenset[str] = frozenset()

    def __init__(self, ids: npt.NDArray[np.int64], matrix: np.ndarray) -> None:
        self.ids = np.asarray(ids, dtype=np.int64)
        self.matrix = matrix
        self._row_of: dict[int, int] | None = None

    def __len__(self) -> int:
        return len(self.ids)

    def similarities(self, vector: np.ndarray, rows: npt.NDArray[np.intp] | None = None) -> npt.NDArray[np.float32]:
        """``matrix @ vector`` in float32 (of ``rows`` only, when given): :func:`products`."""
        return products(self.matrix if rows is None else self.matrix[rows], vector)

    def _distances(self, vector: np.ndarray, rows: npt.NDArray[np.intp] | None = None) -> npt.NDArray[np.float64]:
        matrix = self.matrix if rows is None else self.matrix[rows]
        norms = np.linalg.norm(matrix.astype(np.float64), axis=1) * float(np.linalg.norm(vector))
        with np.errstate(divide="ignore", invalid="ignore"):
            return 1.0 - self.similarities(vector, rows).astype(np.float64) / np.where(norms > 0, norms, np.nan)

    def _rows(self, ids: Sequence[int]) -> npt.NDArray[np.intp]:
        if self._row_of is None:
            self._row_of = {int(r): i for i, r in enumerate(self.ids)}
        row_of = self._row_of
        return np.asarray(sorted({row_of[int(i)] for i in ids if int(i) in row_of}), dtype=np.intp)

    def nearest(self, vector: np.ndarray, n: int, filters: Filters = Filters()) -> Hits:
        if filters.active:
            raise ValueError("MatrixVectors applies no filter: ask nearest_among with the allowed ids")
        return top(self.ids, self._distances(vector), n)

    def nearest_among(self, vector: np.ndarray, ids: Sequence[int], n: int) -> Hits:
        rows = self._rows(ids)
        return top(self.ids[rows], self._distances(vector, rows), n) if len(rows) else []

    def distances(self, vector: np.ndarray, ids: Sequence[int]) -> dict[int, float]:
        rows = self._rows(ids)
        if not len(rows):
            return {}
        dist = self._distances(vector, rows)
        return {int(r): float(d) for r, d in zip(self.ids[rows], dist, strict=True) if np.isfinite(d)}

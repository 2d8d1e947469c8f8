"""Two-stage nearest-neighbour search: a coarse pass over binary codes, then exact cosine.

sqlite-vec's exact KNN reads every vector of the database for every question (412 ms at
200k × 1536 here, ~7× the memory-bandwidth floor). Only reading fewer bytes per question beats
that. When ``build-db`` wrote the two-stage file beside the database
(:mod:`amicus_desktop.store.codes`), this index

1. **coarse**: ranks every allowed row by the Hamming distance between its SimHash code and the
   question's (codes held in RAM, 192 bytes a row at 1,536 bits; numpy ``bitwise_count``) and
   keeps the best :meth:`ShortLists.coarse` rows; over a large unfiltered corpus the codes' first
   512 bits pre-select the rows the whole code ranks (:mod:`.hamming`);
2. **refine**: re-ranks those by the asymmetric estimate ``(P q) · sign(P x)`` (the question's
   projection against the row's bits, through a 256-entry table per code byte) and keeps the best
   :meth:`ShortLists.refine`;
3. **exact**: reads those rows' float32 vectors from the file (~3 µs a row, where a SQLite table
   row costs ~12 µs and a ``vec0`` rowid look-up ~0.3 ms) and returns the ``n`` nearest by exact
   cosine distance ``1 - cos`` (float64; a float32 screen first leaves out the rows rounding cannot
   bring into the ``n`` nearest, :mod:`.rescore`, so the answer is the same as scoring them all).

The distances returned are always exact; only the membership of the top ``n`` is approximate,
and the short lists are sized from measured recall (docs/PERFORMANCE.md) so that it is the exact
top ``n`` for ≥ 99 % of the rows. When the allowed rows are no more than the refine list, the
answer is exact outright. Whether the index is used at all is
:func:`amicus_desktop.store.codes.prefer_two_stage` (by corpus size and dimensions, the same rule
that decides whether ``build-db`` writes the codes), overridable with ``AMICUS_TWO_STAGE=auto|on|off``.

An index is opened on the store's database thread (it checks rows against ``vec0`` through the
store) and used there; searching opens the file for each question and reads it,
holding no file open between questions. Nothing here imports Qt.
"""

from __future__ import annotations

import logging
import os
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core.errors import AmicusError, ErrorCode
from . import codes
from .hamming import CodeMatrix, smallest
from .rescore import cosine_distances, nearest_rows
from .scripture import ScriptureStore

__all__ = ["MODES", "MODE_ENV", "SearchTrace", "ShortLists", "TwoStageIndex", "configured_mode", "smallest",
           "sorted_unique"]

log = logging.getLogger("amicus.candidates")

#: ``AMICUS_TWO_STAGE``: ``auto`` (the default: ``codes.prefer_two_stage``), ``on`` (whenever the
#: database has a two-stage file) or ``off`` (always the exact sqlite-vec path).
MODE_ENV = "AMICUS_TWO_STAGE"
MODES = ("auto", "on", "off")

# Row v of _BYTE_SIGNS is the ±1 pattern of byte value v, most significant bit first (packbits).
_BYTE_SIGNS = (((np.arange(256)[:, None] >> np.arange(7, -1, -1)) & 1) * 2 - 1).astype(np.float32)


def configured_mode() -> str:
    """``AMICUS_TWO_STAGE`` (``auto`` when unset or not one of :data:`MODES`)."""
    mode = os.environ.get(MODE_ENV, "auto").strip().lower()
    return mode if mode in MODES else "auto"


@dataclass(frozen=True)
class ShortLists:
    """How many rows the coarse and refine stages keep when ``n`` rows are asked for.

    Sized from recall measured on real and synthetic embeddings (docs/PERFORMANCE.md); the exact
    stage's cost is proportional to :meth:`refine`.
    """

    coarse_min: int = 2000
    coarse_per_row: int = 40
    refine_min: int = 400
    refine_per_row: int = 8

    def coarse(self, n: int) -> int:
        return max(self.coarse_min, self.coarse_per_row * n)

    def refine(self, n: int) -> int:
        return max(self.refine_min, self.refine_per_row * n)


@dataclass
class SearchTrace:
    """What one search did: rows considered per stage and milliseconds per stage (for the bench)."""

    allowed: int = 0
    coarse: int = 0
    refined: int = 0
    exact_only: bool = False
    ms: dict[str, float] = field(default_factory=dict)


class TwoStageIndex:
    """The two-stage file of one scripture.db, loaded for searching (see the module docstring)."""

    def __init__(
        self,
        file: codes.CodesFile,
        rowids: np.ndarray,
        code_matrix: CodeMatrix,
        projection: np.ndarray,
        short_lists: ShortLists,
        file_rows: np.ndarray | None = None,
    ) -> None:
        self.file = file
        #: Rowids of the coded rows, ascending (int64); row i of ``codes`` (column i) is row ``rowids[i]``.
        self.rowids = rowids
        #: The codes as 64-bit words, laid out for the coarse pass (:class:`~.hamming.CodeMatrix`).
        self.codes = code_matrix
        #: Row number in the file of column i (``None``: the same as i, the builder's order).
        self.file_rows = file_rows
        self.projection = projection
        self.dims = int(projection.shape[1])
        self.bits = int(projection.shape[0])
        self.short_lists = short_lists
        self._words = code_matrix.words
        #: Whether an unfiltered coarse pass may pre-filter on the codes' first bits (:mod:`.hamming`).
        self.prefilter = True
        # the table's index of (code byte, value): uint16 while it fits (codes up to 2,048 bits), which
        # numpy gathers ≈ 1.4× faster than intp indices (the same entries, summed in the same order)
        self._lut_type: type[np.integer[Any]] = np.uint16 if self._words * 8 * 256 <= 1 << 16 else np.intp
        self._lut_offsets: npt.NDArray[np.integer[Any]] = (np.arange(self._words * 8) * 256).astype(self._lut_type)

    # -- opening -------------------------------------------------------------------------------
    @classmethod
    def for_store(cls, store: ScriptureStore, mode: str | None = None) -> TwoStageIndex | None:
        """The store's index (or ``None``: search exactly), opened on first use on the store's thread.

        Decided once per store and mode (``None``: :func:`configured_mode`): a database replaced on
        disk gets a new store, and so a new decision.
        """
        mode = mode or configured_mode()
        decided = _INDEXES.setdefault(store, {})
        if mode not in decided:
            decided[mode] = cls.open(store, mode=mode)
        return decided[mode]

    @classmethod
    def open(
        cls,
        store: ScriptureStore,
        *,
        mode: str | None = None,
        short_lists: ShortLists | None = None,
    ) -> TwoStageIndex | None:
        """The index of ``store``'s database, or ``None`` for the exact path.

        ``None`` when the mode is ``off``, when there is no two-stage file beside the database, when
        :func:`~amicus_desktop.store.codes.prefer_two_stage` says the exact scan is the better
        choice (mode ``auto``), or when the file does not match the database (logged as a warning:
        the exact path still works). Runs on the database thread; loads the codes into RAM
        (bits/8 bytes a row).
        """
        mode = mode or configured_mode()
        info = store.info
        path = codes.path_for(info.path)
        if mode == "off" or not path.is_file():
            return None
        if mode == "auto" and not codes.prefer_two_stage(info.chunk_count, info.dims):
            log.info("exact search: the corpus is small enough", extra={"rows": info.chunk_count})
            return None
        t0 = time.perf_counter()
        try:
            index = cls._load(store, codes.CodesFile.open(path), short_lists or ShortLists())
        except (ValueError, OSError, AmicusError) as exc:
            log.warning("two-stage file unusable; searching exactly", extra={"reason": str(exc)})
            return None
        log.info(
            "two-stage search ready",
            extra={"rows": len(index.rowids), "bits": index.bits, "ms": round((time.perf_counter() - t0) * 1000)},
        )
        return index

    @classmethod
    def _load(cls, store: ScriptureStore, file: codes.CodesFile, short_lists: ShortLists) -> TwoStageIndex:
        info = store.info
        name = file.path.name
        if file.dims != info.dims:
            raise ValueError(f"{name} is for {file.dims} dimensions, the database holds {info.dims}")
        if file.rows != info.chunk_count:
            raise ValueError(f"{name} covers {file.rows} rows, the database holds {info.chunk_count}")
        problem = codes.claim_problem(file, info.meta, store.header)
        if problem is not None:
            raise ValueError(problem)
        rowids = np.empty(file.rows, dtype=np.int64)
        matrix = CodeMatrix.empty(file.rows, file.bits // 64)
        for start, block_rowids, block in file.code_blocks():
            rowids[start : start + len(block_rowids)] = block_rowids
            matrix.put(start, block.view(np.uint64))
        file_rows = None
        if len(rowids) and np.any(np.diff(rowids) <= 0):  # not the builder's order: sort the rows
            file_rows = np.argsort(rowids, kind="stable")
            rowids, matrix = rowids[file_rows], matrix.reordered(file_rows)
            if np.any(np.diff(rowids) == 0):
                raise ValueError(f"{name} lists a rowid twice")
        index = cls(file, rowids, matrix, file.projection(), short_lists, file_rows)
        index._spot_check(store)
        return index

    def _spot_check(self, store: ScriptureStore) -> None:
        """First, middle and last row: the float copy equals ``vec0``'s vector and encodes to its code.

        Three rows, because each ``vec0`` look-up reads the whole chunk of 1,024 rows around it
        (~7 ms at 1,536 dims); :func:`~amicus_desktop.store.codes.claim_problem` catches what the
        rows between would show.
        """
        if not len(self.rowids):
            return
        picks = sorted_unique(np.array([0, len(self.rowids) // 2, len(self.rowids) - 1], dtype=np.intp))
        rows = self._read_columns(picks)
        stored = store.vectors(int(self.rowids[i]) for i in picks.tolist())
        for i, row in zip(picks.tolist(), rows, strict=True):
            rowid = int(self.rowids[i])
            vector = stored.get(rowid)
            if vector is None or vector.tobytes() != row.tobytes():
                raise ValueError(f"row {rowid}: the float copy differs from the embeddings table")
            code = codes.encode(row[None, :], self.projection)[0]
            if not np.array_equal(code.view(np.uint64), self.codes.take(np.array([i]))[0]):
                raise ValueError(f"row {rowid}: the stored code is not the vector's code")

    # -- searching -----------------------------------------------------------------------------
    def search(self, query: np.ndarray, n: int, allowed: np.ndarray | None = None) -> list[tuple[int, float]]:
        """The ``n`` nearest rows as ``(rowid, exact cosine distance)``, nearest first.

        ``allowed``: sorted int64 rowids a filter allows (``None`` = every row); rows outside it
        are never returned, and ``n`` rows come back whenever that many are allowed. ``query``: the
        question's unit vector (any float dtype; ``DIMENSION_MISMATCH`` when its size is wrong).
        """
        return self.trace_search(query, n, allowed)[0]

    def trace_search(
        self, query: np.ndarray, n: int, allowed: np.ndarray | None = None
    ) -> tuple[list[tuple[int, float]], SearchTrace]:
        """:meth:`search`, with what each stage did."""
        q = self._query(query)
        trace = SearchTrace()
        if n <= 0 or not np.any(q):
            return [], trace  # sqlite-vec gives a zero vector no distance at all
        t = time.perf_counter()
        positions = self._positions(allowed)
        m = len(self.rowids) if positions is None else len(positions)
        trace.allowed = m
        refine = self.short_lists.refine(n)
        if m <= refine:  # few enough to score every allowed row exactly
            trace.exact_only = True
            chosen = np.arange(m) if positions is None else positions
            trace.ms["select"] = _ms(t)
        else:
            coarse = min(m, self.short_lists.coarse(n))
            projected = self.project(q)
            cols = self.coarse_list(self.code_words(projected), positions, coarse)
            trace.coarse = len(cols)
            trace.ms["coarse"] = _ms(t)
            t = time.perf_counter()
            scores = self._asymmetric(projected, cols)
            chosen = cols[np.argpartition(-scores, refine - 1)[:refine]] if refine < len(cols) else cols
            trace.ms["refine"] = _ms(t)
        trace.refined = len(chosen)
        t = time.perf_counter()
        hits = self._exact(q, chosen, n)
        trace.ms["exact"] = _ms(t)
        return hits, trace

    def distances(self, query: np.ndarray, rowids: Sequence[int]) -> dict[int, float]:
        """Exact cosine distance (``1 - cos``) of ``query`` to each of ``rowids`` that exists.

        Rows that are not in the database, or are zero vectors, are left out.
        """
        q = self._query(query)
        ids = sorted_unique(np.asarray(list(rowids), dtype=np.int64))
        if not len(ids) or not np.any(q):
            return {}
        cols = self._positions(ids)
        assert cols is not None
        dist = cosine_distances(q, self._read_columns(cols))
        return {int(r): float(d) for r, d in zip(self.rowids[cols], dist, strict=True) if np.isfinite(d)}

    # -- stages --------------------------------------------------------------------------------
    def _query(self, query: np.ndarray) -> np.ndarray:
        q = np.ascontiguousarray(query, dtype=np.float32).reshape(-1)
        if q.shape != (self.dims,):
            raise AmicusError(
                ErrorCode.DIMENSION_MISMATCH,
                f"The query vector has {q.size} dimensions; the database holds {self.dims}.",
            )
        return q

    def _positions(self, allowed: np.ndarray | None) -> np.ndarray | None:
        """Column positions of the allowed rowids that have codes (``None`` = all columns)."""
        if allowed is None:
            return None
        wanted = sorted_unique(np.asarray(allowed, dtype=np.int64))
        pos = np.searchsorted(self.rowids, wanted)
        pos = pos[pos < len(self.rowids)]
        return pos[self.rowids[pos] == wanted[: len(pos)]] if len(pos) else pos

    @property
    def codes_t(self) -> np.ndarray:
        """Every code as ``words × rows`` uint64, column i row ``rowids[i]`` (a copy: for comparisons)."""
        return self.codes.columns()

    def hamming(self, qwords: np.ndarray, positions: np.ndarray | None) -> np.ndarray:
        """Hamming distance from the query's code to each allowed row's code (uint16, column order)."""
        return self.codes.distances(qwords, positions)

    def coarse_list(self, qwords: np.ndarray, positions: np.ndarray | None, count: int) -> np.ndarray:
        """Columns of the ``count`` allowed rows whose codes are nearest ``qwords``."""
        if positions is None:
            return self.codes.short_list(qwords, count, self.prefilter)
        return np.asarray(positions[smallest(self.hamming(qwords, positions), count, self.bits)])

    def project(self, q: np.ndarray) -> np.ndarray:
        """``P q``, the question's projection (float32, one value a code bit), computed as
        :func:`~.codes.encode` computes it: its signs are the question's code, and it weighs the refine."""
        projected: np.ndarray = (q[None, :] @ self.projection.T)[0]
        return projected

    def code_words(self, projected: np.ndarray) -> np.ndarray:
        """The question's code as uint64 words, from its projection (:meth:`project`)."""
        qwords = np.zeros(self._words * 8, dtype=np.uint8)
        qcode = np.packbits(projected > 0)
        qwords[: len(qcode)] = qcode
        return qwords.view(np.uint64)

    def _asymmetric(self, projected: np.ndarray, cols: np.ndarray, code_rows: np.ndarray | None = None) -> np.ndarray:
        """``(P q) · sign(P x)`` for the rows at ``cols`` (their codes: ``code_rows``, else gathered here):
        a finer estimate than Hamming. ``projected``: ``P q`` (:meth:`project`)."""
        padded = np.zeros(self._words * 64, dtype=np.float32)
        padded[: self.bits] = projected
        table = (padded.reshape(-1, 8) @ _BYTE_SIGNS.T).ravel()  # (code byte, value) → partial sum
        row_bytes = (self.codes.take(cols) if code_rows is None else code_rows).view(np.uint8)
        index: npt.NDArray[np.integer[Any]] = row_bytes.astype(self._lut_type)
        np.add(index, self._lut_offsets, out=index)
        scores: np.ndarray = np.take(table, index).sum(axis=1)
        return scores

    def _exact(self, q: np.ndarray, cols: np.ndarray, n: int) -> list[tuple[int, float]]:
        """The ``n`` nearest of the rows at ``cols`` by exact cosine distance, ties by rowid."""
        cols = np.sort(cols)
        rows = self._read_columns(cols)
        near = nearest_rows(q, rows, n)  # every row that can be among the n nearest (float32 screen)
        dist = cosine_distances(q, rows[near])
        ok = np.isfinite(dist)
        found, dist = self.rowids[cols[near][ok]], dist[ok]
        order = np.lexsort((found, dist))[:n]
        return [(int(found[i]), float(dist[i])) for i in order]

    def _read_columns(self, cols: np.ndarray) -> np.ndarray:
        """The float32 vectors of the rows at ``cols`` (ascending), read from the file."""
        rows = cols if self.file_rows is None else np.sort(self.file_rows[cols])
        try:
            out = self.file.read_rows(rows)
        except (OSError, ValueError) as exc:
            raise AmicusError(
                ErrorCode.DB_INVALID,
                f"{self.file.path.name} could not be read ({exc}). Rebuild it with 'amicus-desktop build-db'.",
            ) from exc
        if self.file_rows is not None:  # back to the order of cols
            out = out[np.argsort(np.argsort(self.file_rows[cols]))]
        return out


_INDEXES: weakref.WeakKeyDictionary[ScriptureStore, dict[str, TwoStageIndex | None]] = weakref.WeakKeyDictionary()


def sorted_unique(values: np.ndarray) -> np.ndarray:
    """``np.unique(values)`` for a 1-d integer array (the same sorted distinct values), without its first call's
    import of ``numpy.ma`` (≈ 13 ms and a few MB on the database thread, on the way to the first answer)."""
    ordered = np.sort(values.reshape(-1))
    if len(ordered) < 2:
        return ordered
    keep = np.empty(len(ordered), dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000

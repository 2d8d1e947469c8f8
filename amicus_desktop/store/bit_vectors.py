"""sqlite-vec's own binary vectors as a coarse-pass kernel, for the benchmark's comparison (issue #31).

:class:`BitVectors` holds codes in an in-memory ``vec0`` table with a ``bit[N]`` column and answers the
``count`` nearest by Hamming distance with sqlite-vec's KNN. The app does not use it (the two-stage
index's numpy kernel does the coarse pass, :mod:`.hamming`); ``amicus-desktop bench`` times it beside
the other kernels (:mod:`amicus_desktop.bench.kernels`). Nothing is written to any file.
"""

from __future__ import annotations

import apsw
import numpy as np

from .sqlite import load_vec


class BitVectors:
    """Codes (``rows × bytes`` uint8, row ``i`` is id ``i``) in an in-memory ``vec0`` bit column."""

    def __init__(self, codes: np.ndarray) -> None:
        self._con = apsw.Connection(":memory:")
        load_vec(self._con)
        bits = codes.shape[1] * 8
        self._con.execute(f"CREATE VIRTUAL TABLE codes USING vec0(code bit[{bits}])")
        with self._con:
            self._con.executemany("INSERT INTO codes(rowid, code) VALUES (?, vec_bit(?))",
                                  ((i, row.tobytes()) for i, row in enumerate(codes)))

    def nearest(self, code: np.ndarray, count: int) -> np.ndarray:
        """Ids of the ``count`` codes nearest ``code`` (uint8 bytes) by Hamming distance."""
        rows = self._con.execute("SELECT rowid FROM codes WHERE code MATCH vec_bit(?) AND k = ?",
                                 [code.tobytes(), int(count)])
        return np.fromiter((r for (r,) in rows), dtype=np.int64)

    def close(self) -> None:
        self._con.close()

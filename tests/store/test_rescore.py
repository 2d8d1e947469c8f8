"""The exact stage's float32 screen (store/rescore.py): it never leaves out a row of the float64 top n."""

from __future__ import annotations

import numpy as np
import pytest

from amicus_desktop.store import rescore


def float64_top(q: np.ndarray, rows: np.ndarray, n: int) -> list[int]:
    d = rescore.cosine_distances(q, rows)
    ok = np.flatnonzero(np.isfinite(d))
    return ok[np.lexsort((ok, d[ok]))][:n].tolist()


@pytest.mark.parametrize("dims", [64, 384, 1536])
def test_the_screen_keeps_every_row_of_the_top(dims: int) -> None:
    rng = np.random.default_rng(dims)
    centre = rng.standard_normal(dims)
    rows = (centre + 0.3 * rng.standard_normal((400, dims))).astype(np.float32)
    rows[10] = 0  # a zero row: no distance, kept for float64 to leave out
    rows[11] = rows[12]  # an exact tie
    rows[13] = rows[12] * 3  # the same direction: a tie in float64, maybe not in float32
    for trial in range(20):
        q = (centre + 0.5 * rng.standard_normal(dims)).astype(np.float32)
        if trial == 0:
            q = rows[12].copy()
        for n in (1, 3, 40, 399, 400, 500):
            near = rescore.nearest_rows(q, rows, n)
            assert np.all(np.diff(near) > 0) and 10 in near
            assert set(float64_top(q, rows, n)) <= set(near.tolist())
            # scoring only those rows gives the same answer as scoring them all
            kept = rows[near]
            top = [int(near[i]) for i in float64_top(q, kept, n)]
            assert top == float64_top(q, rows, n)
    assert len(rescore.nearest_rows(q, rows, 40)) < 100  # it does screen: most rows are left out


def test_out_of_range_vectors_are_always_scored() -> None:
    rows = np.eye(50, 8, dtype=np.float32)
    rows[7] = 1e-20  # its squared norm underflows in float32
    assert 7 in rescore.nearest_rows(np.ones(8, dtype=np.float32), rows, 2)
    tiny = np.full(8, 1e-20, dtype=np.float32)
    assert len(rescore.nearest_rows(tiny, rows, 2)) == 50  # a question that small: no screen
    assert rescore.float32_error(1536) < 1e-3

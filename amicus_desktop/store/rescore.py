"""The exact stage's arithmetic: cosine distances in float64, and a float32 screen that skips most of them.

The two-stage search hands on exact distances: ``1 - cos`` computed in float64 from the stored
float32 vectors (:func:`cosine_distances`). Of the few hundred rows its exact stage reads, only the
``n`` nearest are kept, so :func:`nearest_rows` first computes every distance in float32 (a
quarter of the cost: no float64 copy of the rows) and keeps the rows that float32 rounding cannot
keep out of the ``n`` nearest — every row within twice :func:`float32_error` of the ``n``-th
float32 distance (for a row in the float64 top ``n``: its float32 distance ≤ its float64 one + ε ≤
the ``n``-th float64 distance + ε ≤ the ``n``-th float32 distance + 2ε). Those are scored in float64
as before, so the answer — rows, order, ties by rowid and distances — is the same as scoring all of
them in float64 (``tests/store/test_rescore.py``); at 200k × 1536 about 45 of 400 rows are.
"""

from __future__ import annotations

import numpy as np

#: The screen trusts float32 only for vectors whose squared norms lie between these (no underflow or
#: overflow in the sums); other rows are always scored in float64.
_SAFE_SQUARES = (1e-30, 1e30)
_UNIT = 2.0**-24  # float32's unit round-off


def float32_error(dims: int) -> float:
    """A bound (four times the worst case) on ``|d32 − d64|`` for the cosine distance of ``dims``-long vectors.

    A float32 sum of ``dims`` products errs by at most γ = dims·u/(1 − dims·u) of the sum of their
    magnitudes, which for a dot product is at most ``|r|·|q|`` (Cauchy–Schwarz); the two norms add
    γ/2 each and the square root and division a few ``u``: ``|Δ cos| ≤ 1.5 γ + 4u``.
    """
    gamma = dims * _UNIT / (1 - dims * _UNIT)
    return 4 * (1.5 * gamma + 4 * _UNIT)


def cosine_distances(q: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """``1 - cos(q, row)`` in float64 (NaN for a zero row, as sqlite-vec gives no distance)."""
    r = rows.astype(np.float64)
    q64 = q.astype(np.float64)
    norms = np.linalg.norm(r, axis=1) * np.linalg.norm(q64)
    with np.errstate(divide="ignore", invalid="ignore"):
        result: np.ndarray = 1.0 - (r @ q64) / np.where(norms > 0, norms, np.nan)
    return result


def nearest_rows(q: np.ndarray, rows: np.ndarray, n: int) -> np.ndarray:
    """Indices (ascending) of every row of ``rows`` (float32) that can be among the ``n`` nearest ``q``
    by :func:`cosine_distances`, ties included; rows whose float32 distance is not a number are kept too.
    """
    everything = np.arange(len(rows))
    q32 = np.asarray(q, dtype=np.float32)
    q_square = float(np.dot(q.astype(np.float64), q.astype(np.float64)))
    if len(rows) <= n or not _SAFE_SQUARES[0] <= q_square <= _SAFE_SQUARES[1]:
        return everything
    squares = np.einsum("ij,ij->i", rows, rows)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        d32 = 1.0 - (rows @ q32) / (np.sqrt(squares) * np.float32(np.sqrt(q_square)))
    trusted = np.isfinite(d32) & (squares >= _SAFE_SQUARES[0]) & (squares <= _SAFE_SQUARES[1])
    if np.count_nonzero(trusted) <= n:
        return everything
    cut = float(np.partition(d32[trusted], n - 1)[n - 1]) + 2 * float32_error(rows.shape[1])
    return np.flatnonzero(~trusted | (d32 <= cut))

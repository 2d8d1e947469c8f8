"""The coarse pass of the two-stage search: Hamming distances over the codes, and the nearest rows.

The codes are held as 64-bit words, one column per row (``words × rows``,
:class:`~amicus_desktop.store.twostage.TwoStageIndex`). numpy has no fused "xor, count,
add", so each word costs three passes over one contiguous row of the matrix (200k words, 1.6 MB,
cache-sized); :func:`distances` adds them word by word into a ``uint16`` total.

At 200k rows even that reads 36.6 MB a question. :func:`short_list` therefore first ranks every
row on its first :data:`PREFILTER_WORDS` words (512 of 1,536 bits: a third of the work, one of
the stored random rotations' first 512 hyperplanes), keeps the best :func:`prefilter_keep`, and
ranks only those on the whole code. The measured effect and its recall are in docs/PERFORMANCE.md
("Coarse pass"); below :data:`PREFILTER_FACTOR` × the kept rows the pre-filter would save little
and every row is ranked on the whole code, as before.
"""

from __future__ import annotations

import numpy as np

#: Words (of 64 bits) the pre-filter ranks every row by: 512 bits.
PREFILTER_WORDS = 8
#: Rows the pre-filter keeps: at least this many, and :data:`PREFILTER_PER_ROW` per short-list row.
PREFILTER_MIN = 12_000
PREFILTER_PER_ROW = 6
#: The pre-filter runs only over at least this many times the rows it keeps (96k rows by default).
PREFILTER_FACTOR = 8


def prefilter_keep(count: int) -> int:
    """Rows the pre-filter keeps for a short list of ``count`` rows."""
    return max(PREFILTER_MIN, PREFILTER_PER_ROW * count)


def distances(codes_t: np.ndarray, qwords: np.ndarray, words: int | None = None) -> np.ndarray:
    """Hamming distance (``uint16``) from ``qwords`` to every column of ``codes_t`` over its first ``words``.

    ``codes_t``: ``words × rows`` uint64 (C order); ``qwords``: the question's code as uint64 words.
    """
    rows = codes_t.shape[1]
    total = np.zeros(rows, dtype=np.uint16)
    xor = np.empty(rows, dtype=np.uint64)
    count = np.empty(rows, dtype=np.uint8)
    for w in range(codes_t.shape[0] if words is None else words):
        np.bitwise_xor(codes_t[w], qwords[w], out=xor)
        np.bitwise_count(xor, out=count)
        np.add(total, count, out=total)
    return total


def smallest(values: np.ndarray, count: int, top: int) -> np.ndarray:
    """Indices of the ``count`` smallest ``values`` (integers in ``0..top``), ties in index order.

    A histogram finds the cut-off distance, so this costs two passes instead of a partition
    (0.5 against 1.5 ms at 200k rows).
    """
    if count >= len(values):
        return np.arange(len(values))
    cut = int(np.searchsorted(np.cumsum(np.bincount(values, minlength=top + 1)), count))
    below = np.flatnonzero(values < cut)
    return np.concatenate([below, np.flatnonzero(values == cut)[: count - len(below)]])


def short_list(codes_t: np.ndarray, qwords: np.ndarray, count: int, prefilter: bool = True) -> np.ndarray:
    """Columns of ``codes_t`` of the ``count`` codes nearest ``qwords`` (ascending column order).

    With ``prefilter`` (and enough columns, see the module docstring) the whole code ranks only the
    columns nearest on the first :data:`PREFILTER_WORDS` words; otherwise it ranks every column.
    """
    words, rows = codes_t.shape
    bits = words * 64
    keep = prefilter_keep(count)
    if not prefilter or words <= PREFILTER_WORDS or rows < PREFILTER_FACTOR * keep:
        return smallest(distances(codes_t, qwords), count, bits)
    first = smallest(distances(codes_t, qwords, PREFILTER_WORDS), keep, PREFILTER_WORDS * 64)
    picked = np.ascontiguousarray(codes_t[:, first])
    return np.sort(first[smallest(distances(picked, qwords), count, bits)])

"""The coarse pass of the two-stage search: Hamming distances over the codes, and the nearest rows.

numpy has no fused "xor, count, add", so each 64-bit word of the codes costs three passes over one
contiguous array. At 200k rows a pass over every whole code reads 36.6 MB a question.
:meth:`CodeMatrix.short_list` therefore first ranks every row on its first :data:`PREFILTER_WORDS`
words (512 of 1,536 bits: a third of the work, one of the stored random rotations' first 512
hyperplanes), keeps the best :func:`prefilter_keep`, and ranks only those on the whole code. The
measured effect and its recall are in docs/PERFORMANCE.md ("Coarse pass"); below
:data:`PREFILTER_FACTOR` × the kept rows the pre-filter would save little and every row is ranked on
the whole code.

**Layout** (:class:`CodeMatrix`). The first words of every code are held column by column
(``words × rows``: one contiguous row of the matrix per word, the pass above), the rest row by row
(``rows × words``), so the rows the pre-filter keeps are gathered as whole 128-byte runs instead of
one 8-byte word from each of 16 scattered places (≈ 3.5 → 1 ms for 12k rows at 200k). Which words
are held by column is decided once, from the corpus size: a corpus too small to pre-filter holds
every word by column (a pass over every whole code is then ≈ 20 % faster than over rows). The
distances are the same whatever the layout (``tests/store/test_hamming.py``).
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
#: Rows per block of a row-wise pass (its scratch arrays stay in cache: 4,096 × 16 words = 512 KiB).
ROW_BLOCK = 4096

# Byte-lane sums of a uint64 (each lane a bit count): pairs of bytes into 16-bit lanes, then every lane.
_LANES8 = np.uint64(0x00FF00FF00FF00FF)
_ONES16 = np.uint64(0x0001000100010001)
_SHIFT8, _SHIFT48 = np.uint64(8), np.uint64(48)


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


def row_distances(code_rows: np.ndarray, qwords: np.ndarray) -> np.ndarray:
    """Hamming distance (``uint16``) from ``qwords`` to every row of ``code_rows`` (``rows × words`` uint64).

    In blocks of :data:`ROW_BLOCK` rows: one xor and one count over the block, then each row's byte
    counts summed as lanes of a 64-bit word (up to 24 words a row), else by numpy's ``sum``.
    """
    rows, width = code_rows.shape
    out = np.zeros(rows, dtype=np.uint16)
    if not rows or not width:
        return out
    lanes = width // 8 if width % 8 == 0 and width <= 24 else 0  # each byte lane then sums ≤ 3 × 64
    block = min(ROW_BLOCK, rows)
    xor = np.empty((block, width), dtype=np.uint64)
    count = np.empty((block, width), dtype=np.uint8)
    for start in range(0, rows, block):
        stop = min(rows, start + block)
        m = stop - start
        np.bitwise_xor(code_rows[start:stop], qwords[:width], out=xor[:m])
        np.bitwise_count(xor[:m], out=count[:m])
        if not lanes:
            count[:m].sum(axis=1, dtype=np.uint16, out=out[start:stop])
            continue
        packed = count[:m].view(np.uint64)  # m × lanes, 8 counts (each ≤ 64) in a word
        acc = packed[:, 0].copy()
        for j in range(1, lanes):
            acc += packed[:, j]  # byte-wise: no carry, each byte ≤ 192
        acc = (acc & _LANES8) + ((acc >> _SHIFT8) & _LANES8)  # four 16-bit lanes, each ≤ 384
        out[start:stop] = (acc * _ONES16) >> _SHIFT48  # their sum (≤ 1,536) in the top lane
    return out


def smallest(values: np.ndarray, count: int, top: int) -> np.ndarray:
    """Indices of the ``count`` smallest ``values`` (integers in ``0..top``), ties in index order.

    A histogram finds the cut-off distance, so this costs two passes instead of a partition
    (0.5 against 1.5 ms at 200k rows). The indices come as those below the cut-off, ascending, then
    those at it, ascending.
    """
    if count >= len(values):
        return np.arange(len(values))
    cut = int(np.searchsorted(np.cumsum(np.bincount(values, minlength=top + 1)), count))
    kept = np.flatnonzero(values <= cut)
    at = values[kept] == cut
    below = kept[~at]
    return np.concatenate([below, kept[at][: count - len(below)]])


class CodeMatrix:
    """The codes of an index, laid out for the coarse pass (see the module docstring).

    ``head_t``: the first ``split`` words, ``split × rows`` (C order); ``tail``: the other words,
    ``rows × (words − split)`` (C order; no columns when every word is in the head).
    """

    def __init__(self, head_t: np.ndarray, tail: np.ndarray) -> None:
        self.head_t = head_t
        self.tail = tail
        self.split = int(head_t.shape[0])
        self.words = self.split + int(tail.shape[1])
        self.rows = int(head_t.shape[1])
        self.bits = self.words * 64

    @staticmethod
    def split_for(rows: int, words: int) -> int:
        """Words held by column for ``rows`` codes of ``words`` words: all of them unless the corpus is
        big enough for the pre-filter (then its :data:`PREFILTER_WORDS`)."""
        if words > PREFILTER_WORDS and rows >= PREFILTER_FACTOR * PREFILTER_MIN:
            return PREFILTER_WORDS
        return words

    @classmethod
    def empty(cls, rows: int, words: int) -> CodeMatrix:
        """A matrix of ``rows`` codes to fill with :meth:`put`."""
        split = cls.split_for(rows, words)
        return cls(np.empty((split, rows), dtype=np.uint64), np.empty((rows, words - split), dtype=np.uint64))

    @classmethod
    def from_rows(cls, code_rows: np.ndarray) -> CodeMatrix:
        """The matrix of ``code_rows`` (``rows × words`` uint64)."""
        out = cls.empty(*code_rows.shape)
        out.put(0, code_rows)
        return out

    def put(self, start: int, code_rows: np.ndarray) -> None:
        """Store ``code_rows`` (``m × words`` uint64) as rows ``start`` … ``start + m − 1``."""
        stop = start + len(code_rows)
        self.head_t[:, start:stop] = code_rows[:, : self.split].T
        self.tail[start:stop] = code_rows[:, self.split :]

    def reordered(self, order: np.ndarray) -> CodeMatrix:
        """The matrix with row i holding this one's row ``order[i]``."""
        return CodeMatrix(np.ascontiguousarray(self.head_t[:, order]), np.ascontiguousarray(self.tail[order]))

    def take(self, cols: np.ndarray) -> np.ndarray:
        """The codes of rows ``cols`` as ``len(cols) × words`` uint64 (C order)."""
        out = np.empty((len(cols), self.words), dtype=np.uint64)
        out[:, : self.split] = self.head_t[:, cols].T
        np.take(self.tail, cols, axis=0, out=out[:, self.split :])
        return out

    def columns(self) -> np.ndarray:
        """Every code as ``words × rows`` uint64 (a copy: for comparisons and the bench)."""
        return np.ascontiguousarray(np.concatenate([self.head_t, self.tail.T]))

    def distances(self, qwords: np.ndarray, cols: np.ndarray | None = None) -> np.ndarray:
        """Whole-code Hamming distances (``uint16``) to every row, or to rows ``cols`` in their order."""
        if cols is None:
            out = distances(self.head_t, qwords)
            if self.tail.shape[1]:
                out += row_distances(self.tail, qwords[self.split :])
            return out
        if len(cols) * 4 < self.rows:  # a few rows: gather them first
            out = distances(np.ascontiguousarray(self.head_t[:, cols]), qwords)
        else:
            out = np.asarray(distances(self.head_t, qwords)[cols])
        if self.tail.shape[1]:
            out += row_distances(np.take(self.tail, cols, axis=0), qwords[self.split :])
        return out

    def short_list(self, qwords: np.ndarray, count: int, prefilter: bool = True) -> np.ndarray:
        """Rows of the ``count`` codes nearest ``qwords`` (ascending when pre-filtered, else as :func:`smallest`).

        With ``prefilter`` (and enough rows, see the module docstring) the whole code ranks only the
        rows nearest on the first :data:`PREFILTER_WORDS` words; otherwise it ranks every row.
        """
        keep = prefilter_keep(count)
        head = min(PREFILTER_WORDS, self.split)
        if not prefilter or self.words <= PREFILTER_WORDS or self.rows < PREFILTER_FACTOR * keep:
            return smallest(self.distances(qwords), count, self.bits)
        near = distances(self.head_t, qwords, head)
        first = smallest(near, keep, head * 64)
        whole = near[first]
        if self.split > head:  # every word is held by column: the rest of the head, gathered
            whole += distances(np.ascontiguousarray(self.head_t[head:, first]), qwords[head:])
        if self.tail.shape[1]:
            whole += row_distances(np.take(self.tail, first, axis=0), qwords[self.split :])
        return np.sort(first[smallest(whole, count, self.bits)])


def short_list(codes_t: np.ndarray, qwords: np.ndarray, count: int, prefilter: bool = True) -> np.ndarray:
    """Columns of ``codes_t`` (``words × rows`` uint64) of the ``count`` codes nearest ``qwords`` (ascending):
    :meth:`CodeMatrix.short_list` over those codes."""
    return CodeMatrix.from_rows(np.ascontiguousarray(codes_t.T)).short_list(qwords, count, prefilter)

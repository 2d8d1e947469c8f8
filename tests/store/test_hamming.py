"""The coarse pass's kernel (store/hamming.py) against the column-block pass it replaced."""

from __future__ import annotations

import numpy as np
import pytest

from amicus_desktop.store import codes, hamming

ROWS, DIMS, COUNT = 24_000, 96, 400


def old_distances(codes_t: np.ndarray, qwords: np.ndarray, block: int = 4096) -> np.ndarray:
    """The coarse pass as it was (column blocks: xor, bitwise_count, a sum down each column)."""
    out = np.empty(codes_t.shape[1], dtype=np.uint16)
    for start in range(0, codes_t.shape[1], block):
        cnt = np.bitwise_count(codes_t[:, start : start + block] ^ qwords[: len(codes_t), None])
        out[start : start + block] = cnt.sum(axis=0, dtype=np.uint16)
    return out


@pytest.fixture(scope="module")
def coded() -> tuple[np.ndarray, np.ndarray]:
    """Codes of clustered unit vectors (words × rows, as the index holds them) and question codes."""
    rng = np.random.default_rng(31)
    centres = rng.standard_normal((60, DIMS))
    vectors = centres[rng.integers(0, 60, ROWS)] + 0.6 * rng.standard_normal((ROWS, DIMS))
    questions = centres[rng.integers(0, 60, 8)] + 0.8 * rng.standard_normal((8, DIMS))
    projection = codes.make_projection(DIMS, codes.code_bits(DIMS))
    codes_t = np.ascontiguousarray(codes.encode(vectors, projection).view(np.uint64).T)
    return codes_t, codes.encode(questions, projection).view(np.uint64)


def test_distances_equal_the_old_pass(coded: tuple[np.ndarray, np.ndarray]) -> None:
    codes_t, qs = coded
    for q in qs:
        new = hamming.distances(codes_t, q)
        assert new.dtype == np.uint16
        assert np.array_equal(new, old_distances(codes_t, q))
    assert np.array_equal(hamming.distances(codes_t, qs[0], 2), old_distances(codes_t[:2], qs[0]))


def test_without_the_prefilter_the_short_list_is_the_old_one(coded: tuple[np.ndarray, np.ndarray]) -> None:
    codes_t, qs = coded
    assert len(codes_t[0]) < hamming.PREFILTER_FACTOR * hamming.prefilter_keep(COUNT)  # too few rows to pre-filter
    for q in qs:
        old = hamming.smallest(old_distances(codes_t, q), COUNT, 1536)
        assert np.array_equal(np.sort(hamming.short_list(codes_t, q, COUNT)), np.sort(old))
        assert np.array_equal(np.sort(hamming.short_list(codes_t, q, COUNT, prefilter=False)), np.sort(old))


def test_the_prefilter_keeps_the_nearest_codes(coded: tuple[np.ndarray, np.ndarray],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    codes_t, qs = coded
    monkeypatch.setattr(hamming, "PREFILTER_MIN", 2_400)  # 24k rows ≥ 8 × 2,400 + 600: it pre-filters
    for q in qs:
        full = old_distances(codes_t, q)
        old = hamming.smallest(full, COUNT, 1536)
        new = hamming.short_list(codes_t, q, COUNT)
        assert len(new) == COUNT == len(np.unique(new))
        nearest = old[np.argsort(full[old], kind="stable")][:40]  # the list may differ at its cut, not here
        assert set(nearest.tolist()) <= set(new.tolist())
        assert len(set(new.tolist()) & set(old.tolist())) >= 0.8 * COUNT


@pytest.mark.parametrize("split", [24, hamming.PREFILTER_WORDS, 3])
def test_every_layout_gives_the_same_distances(coded: tuple[np.ndarray, np.ndarray], split: int) -> None:
    """Words held by column or by row (CodeMatrix): the same distances, short lists and codes."""
    codes_t, qs = coded
    rows = np.ascontiguousarray(codes_t.T)
    matrix = hamming.CodeMatrix(np.ascontiguousarray(codes_t[:split]), np.ascontiguousarray(rows[:, split:]))
    assert np.array_equal(matrix.columns(), codes_t)
    picks = np.array([7, 3, 23_999, 0])
    assert np.array_equal(matrix.take(picks), rows[picks])
    for q in qs[:4]:
        full = old_distances(codes_t, q)
        assert np.array_equal(matrix.distances(q), full)
        assert np.array_equal(matrix.distances(q, picks), full[picks])
        many = np.arange(0, 24_000, 2)  # half the rows: the path that scans every row, then picks
        assert np.array_equal(matrix.distances(q, many), full[many])
        assert np.array_equal(matrix.short_list(q, COUNT), hamming.smallest(full, COUNT, 1536))


@pytest.mark.parametrize("width", [1, 5, 8, 16, 24, 32])
def test_row_distances_sum_the_counts(width: int) -> None:
    """The row pass's lane sums (widths that are multiples of 8 words, up to 24) and numpy's sum (others)."""
    rng = np.random.default_rng(width)
    code_rows = rng.integers(0, 2**63, (hamming.ROW_BLOCK + 77, width), dtype=np.uint64)
    code_rows[:3] = np.uint64(2**64 - 1)  # every bit set: the largest counts
    q = rng.integers(0, 2**63, width, dtype=np.uint64)
    want = np.bitwise_count(code_rows ^ q).sum(axis=1, dtype=np.int64)
    for query in (q, np.zeros(width, dtype=np.uint64)):
        want = np.bitwise_count(code_rows ^ query).sum(axis=1, dtype=np.int64)
        got = hamming.row_distances(code_rows, query)
        assert got.dtype == np.uint16 and np.array_equal(got, want)
    assert len(hamming.row_distances(code_rows[:0], q)) == 0


def test_smallest_keeps_the_order_below_then_at_the_cut() -> None:
    values = np.array([5, 1, 3, 3, 0, 3, 9, 1], dtype=np.uint16)
    assert hamming.smallest(values, 5, 9).tolist() == [1, 4, 7, 2, 3]  # below 3 ascending, then the first 3s
    assert hamming.smallest(values, 3, 9).tolist() == [4, 1, 7]  # the 0, then both 1s
    assert hamming.smallest(values, 8, 9).tolist() == list(range(8))

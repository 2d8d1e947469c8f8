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

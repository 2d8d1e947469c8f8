"""The metrics of ``eval``, checked against values worked out by hand on hand-made rankings."""

from __future__ import annotations

import math

import numpy as np
import pytest

from amicus_desktop.evaluate import mrr, ndcg, paired_bootstrap, recall

JUDGED = {"a": 3, "b": 2, "c": 0, "d": 1, "e": 3}


def test_ndcg_by_hand() -> None:
    ranked = ["c", "a", "x", "d", "b"]
    # gains 2^g - 1: c 0, a 7, x 0, d 1, b 3 at ranks 1..5 → discounts log2(r + 1)
    dcg = 7 / math.log2(3) + 1 / math.log2(5) + 3 / math.log2(6)
    # ideal: 3, 3, 2, 1 → 7, 7, 3, 1
    idcg = 7 / math.log2(2) + 7 / math.log2(3) + 3 / math.log2(4) + 1 / math.log2(5)
    assert ndcg(ranked, JUDGED) == pytest.approx(dcg / idcg, abs=1e-12)
    assert ndcg(["a", "e", "b", "d"], JUDGED) == pytest.approx(1.0)
    assert ndcg([], JUDGED) == 0.0


def test_ndcg_counts_only_the_top_ten_and_zero_without_relevant_judgments() -> None:
    ranked = [f"x{i}" for i in range(10)] + ["a"]
    assert ndcg(ranked, JUDGED) == 0.0  # "a" is 11th
    assert ndcg(["a"], {"a": 0, "b": 0}) == 0.0
    assert ndcg(["a"], {}) == 0.0


def test_mrr_by_hand() -> None:
    assert mrr(["c", "d", "b", "a"], JUDGED) == pytest.approx(1 / 3)  # d is grade 1: not enough
    assert mrr(["e"], JUDGED) == 1.0
    assert mrr(["c", "d"], JUDGED) == 0.0
    assert mrr([f"x{i}" for i in range(10)] + ["a"], JUDGED) == 0.0


def test_recall_by_hand() -> None:
    # relevant (grade >= 1): a, b, d, e
    assert recall(["a", "c", "d", "z"], JUDGED) == pytest.approx(2 / 4)
    assert recall(["e", "d", "b", "a"], JUDGED) == 1.0
    assert recall(["a"], {"a": 0}) == 0.0


def test_paired_bootstrap_interval() -> None:
    a = np.array([0.2, 0.4, 0.5, 0.1, 0.3] * 8)
    assert paired_bootstrap(a, a) == (0.0, 0.0)
    lo, hi = paired_bootstrap(a, a + 0.1)
    assert lo == pytest.approx(0.1) and hi == pytest.approx(0.1)
    rng = np.random.default_rng(0)
    noisy = a + rng.normal(0.05, 0.2, a.size)
    lo, hi = paired_bootstrap(a, noisy)
    assert lo < float((noisy - a).mean()) < hi
    assert paired_bootstrap(a, noisy) == (lo, hi)  # a fixed seed: the same interval every run


def test_overlap_is_jaccard_of_the_top_k() -> None:
    from amicus_desktop.evaluate.metrics import overlap

    assert overlap(["a", "b", "c"], ["b", "c", "d"]) == pytest.approx(2 / 4)
    assert overlap(["a", "b", "x"], ["a", "b", "y"], k=2) == 1.0
    assert overlap([], []) == 1.0
    assert overlap(["a"], ["b"]) == 0.0


def test_rbo_by_hand() -> None:
    from amicus_desktop.evaluate.metrics import rbo

    # A_1 = 1, A_2 = 1/2, A_3 = 1: 0.9^3 + (0.1/0.9)(0.9 + 0.81/2 + 0.729) = 0.729 + 0.226
    assert rbo(["1", "2", "3"], ["1", "3", "2"]) == pytest.approx(0.955)
    # A_1 = 0, A_2 = 1, A_3 = 2/3, A_4 = 1: 0.6561 + (0.81 + 0.486 + 0.6561) / 9
    assert rbo(["a", "b", "c", "d"], ["b", "a", "d", "c"]) == pytest.approx(0.6561 + 1.9521 / 9)
    # p = 0.5, A_1 = 1, A_2 = 1/2: 0.5 × 0.25 + 1 × (0.5 + 0.125)
    assert rbo(["a", "b"], ["a", "c"], p=0.5) == pytest.approx(0.75)
    assert rbo(["a", "b", "c"], ["a", "b", "c"]) == pytest.approx(1.0)
    assert rbo(["a", "b"], ["c", "d"]) == 0.0
    assert rbo([], []) == 1.0
    with pytest.raises(ValueError):
        rbo(["a"], ["a"], p=1.0)

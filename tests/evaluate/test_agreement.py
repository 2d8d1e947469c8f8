"""Agreement between judges (``evaluate/agreement.py``) against an example worked by hand.

Two judges, A and B, grade six items::

    item   1  2  3  4  5  6
    A      3  2  1  0  2  3
    B      3  1  1  0  3  2

**Exact agreement**: items 1, 3, 4 → 3/6 = 0.5. **Within one**: every item → 1.0.

**Cohen's κ, linear weights** ``w = |i − j| / 3``. Observed weighted disagreement: items 2, 5, 6 are one
grade apart → (1/3 · 3) / 6 = 1/6. The marginals: A graded 0,1,2,3 → 1,1,2,2 times; B → 1,2,1,2. Expected
weighted disagreement Σ_ij rowA_i · colB_j · |i − j| / (3 · 36): for i = 0 the row is 1·(0·1 + 1·2 + 2·1
+ 3·2) = 10, i = 1: 1·(1 + 0 + 1 + 2·2) = 6, i = 2: 2·(2 + 2 + 0 + 2) = 12, i = 3: 2·(3 + 4 + 1 + 0) = 16,
so 44 / 108 = 11/27. κ = 1 − (1/6) / (11/27) = 1 − 27/66 = 13/22 ≈ 0.5909.

**Krippendorff's α, ordinal.** Each item's two grades add 1/(2 − 1) = 1 to the coincidence matrix both ways:
o00 = 2, o11 = 2, o12 = o21 = 1, o23 = o32 = 2, o33 = 2; so n0 = 2, n1 = 3, n2 = 3, n3 = 4, n = 12. The ordinal
distance of c ≤ k is (Σ_{g=c..k} n_g − (n_c + n_k)/2)²: δ01 = 2.5² = 6.25, δ02 = 5.5² = 30.25, δ03 = 9² = 81,
δ12 = 3² = 9, δ13 = 6.5² = 42.25, δ23 = 3.5² = 12.25. Observed: Σ o·δ = 2·9 + 4·12.25 = 67. Chance:
Σ n_c n_k δ over ordered pairs = 2·(2·3·6.25 + 2·3·30.25 + 2·4·81 + 3·3·9 + 3·4·42.25 + 3·4·12.25) = 2·1602 =
3204. α = 1 − (n − 1) · 67 / 3204 = 1 − 737/3204 = 2467/3204 ≈ 0.7700.
"""

from __future__ import annotations

import pytest

from amicus_desktop.evaluate.agreement import agreement, cohen_kappa, confusion, exact, krippendorff_alpha, within_one
from amicus_desktop.evaluate.golden import parse

A = [3, 2, 1, 0, 2, 3]
B = [3, 1, 1, 0, 3, 2]


def two_judge_set() -> dict:
    items = [f"c{i}" for i in range(1, 7)]
    return {"name": "two", "queries": [{
        "id": "q1", "query": "grace", "judgments": {c: a for c, a in zip(items, A, strict=True)},
        "judges": {c: [{"by": "A", "grade": a, "at": "2026-11-27T10:00:00Z"}, {"by": "B", "grade": b}]
                   for c, a, b in zip(items, A, B, strict=True)},
    }]}


def test_the_hand_worked_example() -> None:
    assert exact(A, B) == 0.5 and within_one(A, B) == 1.0
    assert cohen_kappa(A, B) == pytest.approx(13 / 22)
    assert krippendorff_alpha(list(zip(A, B, strict=True))) == pytest.approx(2467 / 3204)
    assert confusion(A, B) == [[1, 0, 0, 0], [0, 1, 0, 0], [0, 1, 0, 1], [0, 0, 1, 1]]


def test_agreement_of_a_golden_set_and_its_most_disagreed_items() -> None:
    found = agreement(parse(two_judge_set()))
    assert found.judges == ("A", "B") and found.items == 6
    assert found.alpha == pytest.approx(2467 / 3204)
    [pair] = found.pairs
    assert (pair.a, pair.b, pair.items) == ("A", "B", 6) and pair.kappa == pytest.approx(13 / 22)
    assert found.exact == 0.5 and found.within_one == 1.0
    # the one-grade disagreements (items 2, 5, 6) first, then the agreements
    assert [d.chunk_id for d in found.disagreements[:3]] == ["c2", "c5", "c6"]
    assert found.disagreements[0].grades == {"A": 2, "B": 1} and found.disagreements[0].grade == 2
    assert all(d.spread == 0 for d in found.disagreements[3:])


def test_undefined_cases_say_so() -> None:
    assert cohen_kappa([2, 2], [2, 2]) is None  # chance agrees perfectly: κ is 0/0
    assert krippendorff_alpha([[1, 1], [1, 1]]) is None
    assert krippendorff_alpha([[3]]) is None  # one rating cannot disagree
    one = agreement(parse({"name": "x", "queries": [{"id": "q", "query": "q", "judgments": {"c": 1}}]}))
    assert one.items == 0 and one.alpha is None and one.pairs == ()


def test_three_judges_with_gaps_match_the_krippendorff_package() -> None:
    """Cross-check on missing data and three judges against the ``krippendorff`` package (tests only:
    it is GPL-3.0, and this MIT app ships as one bundle)."""
    krippendorff = pytest.importorskip("krippendorff")
    np = pytest.importorskip("numpy")
    data = [[0, 1, 2, 3, 3, None, 1, 2, 0, 2],
            [0, 2, 2, 3, None, 1, 1, 3, 1, 2],
            [None, 1, 3, 3, 2, 1, 0, 2, 0, None]]
    units = [[row[i] for row in data if row[i] is not None] for i in range(10)]
    matrix = np.array([[np.nan if v is None else v for v in row] for row in data], dtype=float)
    expected = krippendorff.alpha(reliability_data=matrix, level_of_measurement="ordinal",
                                  value_domain=[0, 1, 2, 3])
    assert krippendorff_alpha(units) == pytest.approx(expected)

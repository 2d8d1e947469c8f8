"""How far judges agree on a golden set's grades. No Qt.

An *item* is one chunk for one question; it counts when two judges or more rated it (``judges``,
:mod:`amicus_desktop.evaluate.judges`). For every pair of judges, on the items both rated:

* **exact agreement** — the share of items given the same grade; **within one** — grades at most 1 apart;
* the **confusion matrix** — how often judge A's grade *i* met judge B's grade *j*;
* **Cohen's κ, linearly weighted** — ``1 − Σ w·observed / Σ w·expected`` with ``w = |i − j| / 3``: the
  agreement beyond what the two judges' own grade frequencies give by chance, a near miss (2 against 3)
  counting a third of a far one (0 against 3).

Over every judge at once, **Krippendorff's α, ordinal** — ``1 − D_o / D_e`` from the coincidence matrix,
with the ordinal distance of Krippendorff (2011): the distance of grades *c* ≤ *k* is
``(Σ_{g=c..k} n_g − (n_c + n_k)/2)²``, so two grades are far apart when many ratings lie between them. It
takes any number of judges and items rated by only some of them. 1 is perfect agreement, 0 what chance
gives; Krippendorff asks for α ≥ 0.8 to rely on the data and ≥ 0.667 for tentative conclusions.

The items judges disagree on most come first in :attr:`Agreement.disagreements`: the widest spread of
grades, then the most judges.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from .golden import GRADES, GoldenSet

CATEGORIES = len(GRADES)


def exact(a: Sequence[int], b: Sequence[int]) -> float:
    return sum(x == y for x, y in zip(a, b, strict=True)) / len(a) if a else 0.0


def within_one(a: Sequence[int], b: Sequence[int]) -> float:
    return sum(abs(x - y) <= 1 for x, y in zip(a, b, strict=True)) / len(a) if a else 0.0


def confusion(a: Sequence[int], b: Sequence[int]) -> list[list[int]]:
    """``m[i][j]``: how many items judge A graded ``i`` and judge B graded ``j``."""
    m = [[0] * CATEGORIES for _ in range(CATEGORIES)]
    for x, y in zip(a, b, strict=True):
        m[x][y] += 1
    return m


def cohen_kappa(a: Sequence[int], b: Sequence[int]) -> float | None:
    """Cohen's κ with linear weights over grades 0–3; ``None`` when chance alone agrees perfectly (every
    grade the same): κ is not defined there."""
    n = len(a)
    if n == 0:
        return None
    m = confusion(a, b)
    rows = [sum(m[i]) for i in range(CATEGORIES)]
    cols = [sum(m[i][j] for i in range(CATEGORIES)) for j in range(CATEGORIES)]
    weight = [[abs(i - j) / (CATEGORIES - 1) for j in range(CATEGORIES)] for i in range(CATEGORIES)]
    observed = sum(weight[i][j] * m[i][j] for i in range(CATEGORIES) for j in range(CATEGORIES)) / n
    expected = sum(weight[i][j] * rows[i] * cols[j] for i in range(CATEGORIES) for j in range(CATEGORIES)) / n / n
    if expected == 0:
        return None
    return 1.0 - observed / expected


def krippendorff_alpha(units: Sequence[Sequence[int]]) -> float | None:
    """Krippendorff's α (ordinal) of ``units``, each the grades one item got (items with fewer than two are
    left out); ``None`` when there is nothing to disagree on (fewer than two pairable ratings, or one grade)."""
    pairable = [u for u in units if len(u) >= 2]
    o = [[0.0] * CATEGORIES for _ in range(CATEGORIES)]
    for unit in pairable:
        for x, y in itertools.permutations(unit, 2):
            o[x][y] += 1.0 / (len(unit) - 1)
    n_c = [sum(row) for row in o]
    n = sum(n_c)
    if n < 2:
        return None

    def delta(c: int, k: int) -> float:
        lo, hi = min(c, k), max(c, k)
        return (sum(n_c[lo : hi + 1]) - (n_c[lo] + n_c[hi]) / 2) ** 2

    disagreement = sum(o[c][k] * delta(c, k) for c in range(CATEGORIES) for k in range(CATEGORIES))
    chance = sum(n_c[c] * n_c[k] * delta(c, k) for c in range(CATEGORIES) for k in range(CATEGORIES))
    if chance == 0:
        return None
    return 1.0 - (n - 1) * disagreement / chance


@dataclass(frozen=True)
class PairAgreement:
    """Two judges on the items both rated."""

    a: str
    b: str
    items: int
    exact: float
    within_one: float
    kappa: float | None
    confusion: list[list[int]]


@dataclass(frozen=True)
class Disagreement:
    """One item and every judge's grade of it."""

    query_id: str
    query: str
    chunk_id: str
    grades: dict[str, int]
    #: the set's grade (what eval scores), ``None`` when it has none
    grade: int | None

    @property
    def spread(self) -> int:
        return max(self.grades.values()) - min(self.grades.values())


@dataclass(frozen=True)
class Agreement:
    judges: tuple[str, ...]
    #: items rated by two judges or more
    items: int
    alpha: float | None
    pairs: tuple[PairAgreement, ...]
    #: every item rated by two judges or more, the widest disagreements first
    disagreements: tuple[Disagreement, ...]

    @property
    def exact(self) -> float:
        """Exact agreement over every pair of ratings of an item."""
        pairs = [(x, y) for d in self.disagreements for x, y in itertools.combinations(d.grades.values(), 2)]
        return sum(x == y for x, y in pairs) / len(pairs) if pairs else 0.0

    @property
    def within_one(self) -> float:
        pairs = [(x, y) for d in self.disagreements for x, y in itertools.combinations(d.grades.values(), 2)]
        return sum(abs(x - y) <= 1 for x, y in pairs) / len(pairs) if pairs else 0.0


def agreement(golden: GoldenSet) -> Agreement:
    """The agreement of every judge the set records (:attr:`Agreement.items` 0: fewer than two judges)."""
    judges = tuple(golden.judges())
    items: list[Disagreement] = []
    for q in golden.queries:
        for chunk_id, ratings in q.ratings.items():
            if len(ratings) >= 2:
                items.append(Disagreement(q.id, q.query, chunk_id, {r.by: r.grade for r in ratings},
                                          q.judgments.get(chunk_id)))
    pairs = []
    for ja, jb in itertools.combinations(judges, 2):
        both = [(d.grades[ja], d.grades[jb]) for d in items if ja in d.grades and jb in d.grades]
        if not both:
            continue
        a, b = [x for x, _ in both], [y for _, y in both]
        pairs.append(PairAgreement(ja, jb, len(both), exact(a, b), within_one(a, b), cohen_kappa(a, b),
                                   confusion(a, b)))
    alpha = krippendorff_alpha([list(d.grades.values()) for d in items])
    items.sort(key=lambda d: (-d.spread, -len(d.grades), d.query_id, d.chunk_id))
    return Agreement(judges, len(items), alpha, tuple(pairs), tuple(items))

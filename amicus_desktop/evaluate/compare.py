"""Comparing two evaluations of the same golden set, question by question.

The mean difference of each metric comes with a **paired bootstrap** 95% interval: the questions are
resampled with replacement (10,000 times, a fixed seed so a run can be repeated), keeping each
question's pair of scores together, and the 2.5th and 97.5th percentiles of the resampled mean
differences bound it. An interval that excludes 0 says the difference is not an accident of which
questions the set happens to hold.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .run import METRICS, EvalReport

RESAMPLES = 10_000
SEED = 20261123


@dataclass(frozen=True)
class Difference:
    """B − A for one metric: the mean difference and its paired bootstrap 95% interval."""

    metric: str
    mean_a: float
    mean_b: float
    delta: float
    low: float
    high: float

    @property
    def significant(self) -> bool:
        return self.low > 0 or self.high < 0

    def to_json(self) -> dict[str, float | str | bool | list[float]]:
        return {"metric": self.metric, "a": self.mean_a, "b": self.mean_b, "delta": self.delta,
                "ci95": [self.low, self.high], "significant": self.significant}


def paired_bootstrap(
    a: np.ndarray, b: np.ndarray, *, resamples: int = RESAMPLES, seed: int = SEED
) -> tuple[float, float]:
    """The 95% interval of ``mean(b - a)`` by resampling the pairs."""
    diff = np.asarray(b, dtype=np.float64) - np.asarray(a, dtype=np.float64)
    if diff.size == 0:
        return 0.0, 0.0
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, diff.size, size=(resamples, diff.size))
    means = diff[picks].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)


def compare(a: EvalReport, b: EvalReport) -> tuple[list[Difference], list[tuple[str, dict[str, float]]]]:
    """Mean differences per metric, and per question the B − A delta of each metric.

    The two reports must score the same questions (the same golden set).
    """
    ids_a = [q.id for q in a.queries]
    if ids_a != [q.id for q in b.queries]:
        raise ValueError("the two evaluations did not score the same questions")
    diffs = []
    for metric in METRICS:
        va = np.array([q.scores[metric] for q in a.queries])
        vb = np.array([q.scores[metric] for q in b.queries])
        low, high = paired_bootstrap(va, vb)
        diffs.append(Difference(metric, float(va.mean()) if va.size else 0.0, float(vb.mean()) if vb.size else 0.0,
                                float((vb - va).mean()) if va.size else 0.0, low, high))
    per_query = [
        (qa.id, {m: qb.scores[m] - qa.scores[m] for m in METRICS}) for qa, qb in zip(a.queries, b.queries, strict=True)
    ]
    return diffs, per_query

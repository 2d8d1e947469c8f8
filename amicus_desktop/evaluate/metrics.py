"""Ranking metrics of ``amicus-desktop eval`` (CONTRACT section 8), as pure functions.

* **nDCG@k** — graded gains ``2^g − 1``, discount ``log2(rank + 1)``; the ideal ordering is every
  judged chunk by grade. 0 for a question with no judgment ≥ 1.
* **MRR@k** — ``1 / rank`` of the first result graded ≥ 2 within the top k, else 0.
* **Recall@k** — the share of chunks graded ≥ 1 that the top k holds; 0 for a question with none.

Comparing two rankings of one question (the workbench's A/B, no judgments needed):

* **overlap@k** — Jaccard ``|A ∩ B| / |A ∪ B|`` of the two top k (order ignored).
* **RBO** — rank-biased overlap (Webber, Moffat and Zobel 2010), extrapolated form: the agreement
  ``A_d = |A[:d] ∩ B[:d]| / d`` at each depth d, weighted by ``p^(d−1)`` so the top counts most
  (p = 0.9: the first 10 ranks carry about 86% of the weight); 1 for identical lists, 0 for disjoint.

Unjudged chunks count as grade 0.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

K = 10


def dcg(grades: Sequence[int]) -> float:
    return sum((2.0**g - 1) / math.log2(rank + 1) for rank, g in enumerate(grades, start=1))


def ndcg(ranked: Sequence[str], judgments: Mapping[str, int], k: int = K) -> float:
    ideal = sorted((g for g in judgments.values() if g > 0), reverse=True)[:k]
    if not ideal:
        return 0.0
    return dcg([judgments.get(cid, 0) for cid in ranked[:k]]) / dcg(ideal)


def mrr(ranked: Sequence[str], judgments: Mapping[str, int], k: int = K) -> float:
    for rank, cid in enumerate(ranked[:k], start=1):
        if judgments.get(cid, 0) >= 2:
            return 1.0 / rank
    return 0.0


def recall(ranked: Sequence[str], judgments: Mapping[str, int], k: int = K) -> float:
    relevant = {cid for cid, g in judgments.items() if g >= 1}
    if not relevant:
        return 0.0
    return len(relevant & set(ranked[:k])) / len(relevant)


def judged_share(ranked: Sequence[str], judgments: Mapping[str, int]) -> float | None:
    """The share of ``ranked`` that carries a judgment (any grade); ``None`` when nothing was ranked.
    Unjudged chunks count as 0 above, so a low share says the scores are a lower bound."""
    return sum(c in judgments for c in ranked) / len(ranked) if ranked else None


def scores(ranked: Sequence[str], judgments: Mapping[str, int], k: int = K) -> dict[str, float]:
    """The three metrics, keyed as the contract's JSON names them."""
    return {f"ndcg@{k}": ndcg(ranked, judgments, k), f"mrr@{k}": mrr(ranked, judgments, k),
            f"recall@{k}": recall(ranked, judgments, k)}


def overlap(a: Sequence[str], b: Sequence[str], k: int = K) -> float:
    """Jaccard overlap of the two top ``k`` (1 when both are empty)."""
    top_a, top_b = set(a[:k]), set(b[:k])
    union = top_a | top_b
    return len(top_a & top_b) / len(union) if union else 1.0


def rbo(a: Sequence[str], b: Sequence[str], p: float = 0.9) -> float:
    """Extrapolated rank-biased overlap of two rankings, to the depth of the shorter one.

    ``RBO_ext = A_d · p^d + (1 − p)/p · Σ_{i=1..d} A_i · p^i`` with ``A_i`` the share of the two
    top ``i`` in common (Webber et al. 2010, eq. 32). 1 when both are empty.
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be between 0 and 1 (exclusive), not {p}")
    depth = min(len(a), len(b))
    if depth == 0:
        return 1.0 if not a and not b else 0.0
    seen_a: set[str] = set()
    seen_b: set[str] = set()
    common = 0
    total = 0.0
    agreement = 0.0
    for i in range(depth):
        x, y = a[i], b[i]
        if x == y:
            common += 1
        else:
            common += (x in seen_b) + (y in seen_a)
        seen_a.add(x)
        seen_b.add(y)
        agreement = common / (i + 1)
        total += agreement * p ** (i + 1)
    return agreement * p**depth + (1 - p) / p * total

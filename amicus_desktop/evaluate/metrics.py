"""Ranking metrics of ``amicus-desktop eval`` (CONTRACT section 8), as pure functions.

* **nDCG@k** — graded gains ``2^g − 1``, discount ``log2(rank + 1)``; the ideal ordering is every
  judged chunk by grade. 0 for a question with no judgment ≥ 1.
* **MRR@k** — ``1 / rank`` of the first result graded ≥ 2 within the top k, else 0.
* **Recall@k** — the share of chunks graded ≥ 1 that the top k holds; 0 for a question with none.

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


def scores(ranked: Sequence[str], judgments: Mapping[str, int], k: int = K) -> dict[str, float]:
    """The three metrics, keyed as the contract's JSON names them."""
    return {f"ndcg@{k}": ndcg(ranked, judgments, k), f"mrr@{k}": mrr(ranked, judgments, k),
            f"recall@{k}": recall(ranked, judgments, k)}

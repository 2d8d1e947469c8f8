"""Re-ranking of KNN candidates (CONTRACT section 3, steps 3–7), as small pure functions.

:func:`rerank` chains them; the UI calls it again on kept candidates when the chapter or the
profile changes, so nothing is embedded or searched twice.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core.types import (
    Candidate,
    RejectedChunk,
    RetrievalContext,
    RetrievedChunk,
    ScoreBreakdown,
    ScoredCandidate,
)
from .chapter import chapter_boost
from .cutoff import apply_cutoff
from .ordering import order, order_key
from .scholar import scholar_boost
from .scholar_cap import apply_scholar_cap
from .similarity import similarity
from .threshold import apply_threshold
from .tradition import tradition_boost

__all__ = [
    "apply_cutoff",
    "apply_scholar_cap",
    "apply_threshold",
    "chapter_boost",
    "order",
    "order_key",
    "rerank",
    "scholar_boost",
    "score",
    "similarity",
    "tradition_boost",
]


def score(candidate: Candidate, ctx: RetrievalContext) -> ScoreBreakdown:
    """Step 3–4 for one candidate: similarity times each boost, multiplied left to right."""
    w = ctx.weights
    meta = candidate.metadata
    sim = similarity(candidate.distance)
    cb = chapter_boost(meta, ctx.chapter, w.chapter)
    sb = scholar_boost(meta, ctx.profile, w.scholar)
    tb = tradition_boost(meta, ctx.profile, w.tradition)
    return ScoreBreakdown(
        distance=candidate.distance,
        similarity=sim,
        chapter_boost=cb,
        scholar_boost=sb,
        tradition_boost=tb,
        final=sim * cb * sb * tb,
    )


def rerank(
    candidates: Iterable[Candidate], ctx: RetrievalContext
) -> tuple[list[RetrievedChunk], list[RejectedChunk]]:
    """Threshold, score, order, cap per scholar and cut off at ``ctx.k``.

    Returns the results (ranked 1..k) and every rejected candidate with its reason, in the order
    they were dropped: ``below_threshold`` first, then ``scholar_cap`` by rank order, then
    ``below_cutoff``.
    """
    kept, rejected_threshold = apply_threshold(candidates, ctx.min_similarity)
    ordered = order(ScoredCandidate(c, score(c, ctx)) for c in kept)
    survivors, rejected_cap = apply_scholar_cap(ordered, ctx.weights.per_scholar_cap)
    results, rejected_cutoff = apply_cutoff(survivors, ctx.k)
    return results, rejected_threshold + rejected_cap + rejected_cutoff

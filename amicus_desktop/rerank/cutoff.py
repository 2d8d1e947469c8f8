"""Step 7: keep the first k survivors; the rest are rejected ``below_cutoff``."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.results import RejectedChunk, RejectReason, RetrievedChunk, ScoredCandidate


def apply_cutoff(
    survivors: Sequence[ScoredCandidate], k: int, *, first_rank: int = 1
) -> tuple[list[RetrievedChunk], list[RejectedChunk]]:
    """Rank the first ``k`` survivors from ``first_rank`` on and reject the others with ``below_cutoff``."""
    results = [
        RetrievedChunk(rank, item.candidate, item.breakdown)
        for rank, item in enumerate(survivors[:k], start=first_rank)
    ]
    rejected = [
        RejectedChunk(
            item.candidate.chunk_id,
            RejectReason.BELOW_CUTOFF,
            item.breakdown.similarity,
            item.breakdown.final,
            item.candidate,
            item.breakdown,
        )
        for item in survivors[k:]
    ]
    return results, rejected

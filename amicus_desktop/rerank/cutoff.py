"""Step 7: keep the first k survivors; the rest are rejected ``below_cutoff``."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.types import RejectedChunk, RejectReason, RetrievedChunk, ScoredCandidate


def apply_cutoff(
    survivors: Sequence[ScoredCandidate], k: int
) -> tuple[list[RetrievedChunk], list[RejectedChunk]]:
    """Rank the first ``k`` survivors 1..k and reject the others with ``below_cutoff``."""
    results = [
        RetrievedChunk(rank, item.candidate, item.breakdown)
        for rank, item in enumerate(survivors[:k], start=1)
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

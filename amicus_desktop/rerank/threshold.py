"""The optional ``--min-similarity`` filter, applied before ordering (CONTRACT section 3, step 7)."""

from __future__ import annotations

from collections.abc import Iterable

from ..core.results import Candidate, RejectedChunk, RejectReason
from .similarity import similarity


def apply_threshold(
    candidates: Iterable[Candidate], min_similarity: float | None
) -> tuple[list[Candidate], list[RejectedChunk]]:
    """Split candidates into those at or above ``min_similarity`` and rejected ``below_threshold``.

    A rejected item's score is its similarity: no boost has been applied to it. A candidate without a
    similarity (``keyword`` mode makes no vector) is never rejected here.
    """
    kept: list[Candidate] = []
    rejected: list[RejectedChunk] = []
    for cand in candidates:
        sim = None if cand.distance is None else similarity(cand.distance)
        if min_similarity is not None and sim is not None and sim < min_similarity:
            rejected.append(
                RejectedChunk(cand.chunk_id, RejectReason.BELOW_THRESHOLD, sim, sim, cand)
            )
        else:
            kept.append(cand)
    return kept, rejected

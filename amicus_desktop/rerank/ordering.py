"""Step 5: the total order of scored candidates."""

from __future__ import annotations

from collections.abc import Iterable

from ..core.types import ScoredCandidate


def order_key(item: ScoredCandidate) -> tuple[float, float, str]:
    """``final`` desc, then ``similarity`` desc, then ``chunk_id`` asc; exact values, no rounding."""
    return (-item.breakdown.final, -item.breakdown.similarity, item.candidate.chunk_id)


def order(items: Iterable[ScoredCandidate]) -> list[ScoredCandidate]:
    return sorted(items, key=order_key)

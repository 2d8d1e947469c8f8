"""Step 5: the total order of scored candidates."""

from __future__ import annotations

from collections.abc import Iterable

from ..core.results import ScoredCandidate


def order_key(item: ScoredCandidate) -> tuple[float, float, str]:
    """``final`` desc, then ``base`` desc, then ``chunk_id`` asc; exact values, no rounding.

    In ``semantic`` mode ``base`` is the similarity, as CONTRACT section 3 step 5 orders.
    """
    base = item.breakdown.base
    return (-item.breakdown.final, -(base if base is not None else 0.0), item.candidate.chunk_id)


def order(items: Iterable[ScoredCandidate]) -> list[ScoredCandidate]:
    return sorted(items, key=order_key)

"""The app's diversity rule: spread a list over its sources instead of cutting it short.

The contract's cap (:mod:`.scholar_cap`) rejects a scholar's third chunk outright. On a library with a
handful of authors that starves the list — six authors at two each can never fill ten slots, and a
question about a word loses its word studies to the dictionary entries of the same author. The spread
counts per *source* — one author's one kind of material (Henry's section notes, his chapter outlines,
Strong's dictionary, Strong's word studies) — and instead of rejecting, it lowers: past ``cap`` chunks of
a source, each further one is multiplied by ``factor`` once more (the 3rd by ``factor``, the 4th by
``factor²`` …). A list always fills when there are enough candidates, and one source still cannot take
it over unless nothing else comes close. Chunks without an author are never lowered.

The factor is part of the chunk's breakdown (``diversity``, :func:`.factors.diversity_factor`); its ``final``
includes it, so the list is still ordered by ``final`` and every rank can be explained.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from ..core.results import Candidate, ScoredCandidate

#: a chunk on the passage the question names is never lowered (it still counts toward its source): a question
#: about Romans 9 wants the notes on Romans 9, however many one author wrote
NAMED_EXEMPT = True


def source_key(candidate: Candidate) -> tuple[str, str] | None:
    """A chunk's source for the spread: its author and kind of material (``None`` without an author)."""
    scholar = candidate.metadata.scholar_id
    return None if scholar is None else (scholar, candidate.source_type)


def apply_spread(ordered: Sequence[ScoredCandidate], cap: int | None, factor: float) -> list[ScoredCandidate]:
    """``ordered`` (by :func:`~.ordering.order`) re-ordered with each source's chunks past ``cap`` lowered.

    Greedy: the next place goes to the chunk whose final score, lowered for the chunks of its source
    already placed, is highest (ties as :func:`~.ordering.order_key`: base, then chunk id). Lazy
    re-evaluation keeps it O(n log n). ``cap`` ``None`` lowers nothing.
    """
    if cap is None:
        return list(ordered)
    placed: Counter[tuple[str, str]] = Counter()

    def lowering(item: ScoredCandidate) -> float:
        key = source_key(item.candidate)
        if key is None or (NAMED_EXEMPT and item.breakdown.reference_boost > 1.0):
            return 1.0
        return float(factor ** max(0, placed[key] + 1 - cap))

    def entry(i: int, item: ScoredCandidate, low: float) -> tuple[float, float, str, int, float]:
        base = item.breakdown.base if item.breakdown.base is not None else 0.0
        return (-item.breakdown.final * low, -base, item.candidate.chunk_id, i, low)

    heap = [entry(i, item, 1.0) for i, item in enumerate(ordered)]
    heapq.heapify(heap)
    out: list[ScoredCandidate] = []
    while heap:
        *_, i, low = heapq.heappop(heap)
        item = ordered[i]
        now = lowering(item)
        if now != low:  # its source gained a chunk since this entry was made: lower and look again
            heapq.heappush(heap, entry(i, item, now))
            continue
        key = source_key(item.candidate)
        if key is not None:
            placed[key] += 1
        out.append(replace(item, breakdown=item.breakdown.with_factor("diversity", now)))
    return out

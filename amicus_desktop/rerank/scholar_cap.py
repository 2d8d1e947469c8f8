"""Step 6: diversity — at most N chunks per scholar."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ..core.results import RejectedChunk, RejectReason, ScoredCandidate


def apply_scholar_cap(
    ordered: Iterable[ScoredCandidate], cap: int | None
) -> tuple[list[ScoredCandidate], list[RejectedChunk]]:
    """Walk ``ordered`` keeping at most ``cap`` chunks per non-NULL ``scholar_id`` (``None``: no cap).

    Chunks without a scholar are never capped. A dropped chunk is rejected with ``scholar_cap`` and
    remembers which of that scholar's chunks it was (3 = the third), for the curator's view.
    """
    seen: Counter[str] = Counter()
    kept: list[ScoredCandidate] = []
    rejected: list[RejectedChunk] = []
    for item in ordered:
        scholar = item.candidate.metadata.scholar_id
        if scholar is None or cap is None:
            kept.append(item)
            continue
        seen[scholar] += 1
        if seen[scholar] <= cap:
            kept.append(item)
        else:
            b = item.breakdown
            rejected.append(
                RejectedChunk(
                    item.candidate.chunk_id,
                    RejectReason.SCHOLAR_CAP,
                    b.similarity,
                    b.final,
                    item.candidate,
                    b,
                    nth_by_scholar=seen[scholar],
                )
            )
    return kept, rejected

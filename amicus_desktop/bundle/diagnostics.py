"""``diagnostics``: counts over the candidate pool and the rejected list (CONTRACT section 7)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..core.bundle import Coverage
from ..core.results import Candidate, Diagnostics, RejectedChunk


def diagnostics(pool: Sequence[Candidate], rejected: Sequence[RejectedChunk],
                coverage: Coverage | None = None) -> Diagnostics:
    """Pool size, the pool by source type and by origin, and the rejections by reason (pins not counted);
    ``coverage``: the library's books with study material."""
    origins: Counter[str] = Counter(o.value for c in pool for o in c.origins)
    return Diagnostics(
        candidates=len(pool),
        by_source_type=dict(sorted(Counter(c.source_type for c in pool).items())),
        rejected_by_reason=dict(sorted(Counter(r.reason.value for r in rejected).items())),
        by_origin=dict(sorted(origins.items())),
        coverage=coverage,
    )

"""An overlay's forbidden sources (CONTRACT section 12): what a role must never cite is never a result.

A candidate — pinned or not — whose scholar or source type the overlay forbids is taken out before
anything else is decided (so it does not move the others: no share of a fusion's ranks, no say in the
focus chapter), and listed as rejected with reason ``forbidden_source`` and the rule that removed it (the
JSON pointer of the overlay's list). It is still scored, so "Why not X?" can show its whole breakdown
beside the rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..core.governance import ForbiddenRule, Governance
from ..core.results import Candidate, RejectedChunk, RejectReason, ScoreBreakdown


def split_forbidden(
    candidates: Iterable[Candidate], governance: Governance | None,
) -> tuple[list[Candidate], list[tuple[Candidate, ForbiddenRule]]]:
    """The candidates the overlay allows, and those it forbids with the rule that forbids each."""
    allowed: list[Candidate] = []
    forbidden: list[tuple[Candidate, ForbiddenRule]] = []
    for cand in candidates:
        rule = governance.forbids(cand.metadata.scholar_id, cand.source_type) if governance else None
        if rule is None:
            allowed.append(cand)
        else:
            forbidden.append((cand, rule))
    return allowed, forbidden


def reject_forbidden(
    forbidden: Iterable[tuple[Candidate, ForbiddenRule]], scored: Callable[[Candidate], ScoreBreakdown],
) -> list[RejectedChunk]:
    """Each forbidden candidate rejected with ``forbidden_source``, its rule, and its breakdown."""
    out = []
    for cand, rule in forbidden:
        breakdown = scored(cand)
        out.append(RejectedChunk(cand.chunk_id, RejectReason.FORBIDDEN_SOURCE, breakdown.similarity,
                                 breakdown.final, cand, breakdown, rule=rule))
    return out

"""Calibrating the no-strong-match warning, and measuring how honest it is.

A *floor* separates questions the library answers from questions it cannot: the best ranked base
(weighed as the warning weighs it, :func:`amicus_desktop.bundle.warnings.strength`) of an answerable
question should reach it, an unanswerable question's should not. The floor is the highest that warns at
most :data:`MAX_WARNED` of the answerable questions — a warning on a good answer costs the reader's trust,
so that share is the budget (3 %: issue 33 found the warning over good answers at 9 %), and within it the floor
flags as many unanswerable questions as it can.
Candidates are the midpoints between observed values, so a floor never sits on an observation.

In hybrid mode a second floor guards the meaning part (the best ranked similarity), so that one shared
keyword cannot pass for a match (see :mod:`amicus_desktop.bundle.floors`). It is set as high as it can go
without warning any answerable question the base floor keeps: a guard that costs no good answer.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.query import SearchMode
from .run import EvalReport


@dataclass(frozen=True)
class Floor:
    """A calibrated floor and how well it separates the two sets of questions."""

    model: str
    mode: SearchMode
    floor: float
    #: share of answerable questions whose best result reaches the floor(s)
    kept: float
    #: share of unanswerable questions whose best result does not
    flagged: float
    #: the meaning floor (hybrid; ``None`` when not calibrated)
    meaning: float | None = None


@dataclass(frozen=True)
class WarningRates:
    """How often an answer carried ``no_strong_match`` under the floors the app ships, and how many lists
    came out shorter than asked for."""

    label: str
    #: share of answerable questions (a grade ≥ 2 chunk exists) that were warned — should be low
    answerable_warned: float
    #: share of unanswerable questions that were warned — should be high
    unanswerable_warned: float
    #: share of answerable questions with fewer than 10 ranked results
    short_lists: float
    answerable: int
    unanswerable: int


def _cuts(values: Sequence[float]) -> list[float]:
    ordered = sorted(set(values))
    return [(a + b) / 2 for a, b in itertools.pairwise(ordered)] or ordered


#: the share of answerable questions a floor may warn
MAX_WARNED = 0.03


def calibrate(model: str, mode: SearchMode, answerable: Sequence[float], unanswerable: Sequence[float],
              max_warned: float = MAX_WARNED) -> Floor:
    """The highest base floor that keeps at least ``1 - max_warned`` of the answerable questions."""
    best: Floor | None = None
    for cut in _cuts([*answerable, *unanswerable]):
        kept = sum(v >= cut for v in answerable) / max(1, len(answerable))
        flagged = sum(v < cut for v in unanswerable) / max(1, len(unanswerable))
        if kept >= 1 - max_warned - 1e-12 and (best is None or cut > best.floor):
            best = Floor(model, mode, round(cut, 3), kept, flagged)
    if best is None:  # no cut keeps enough: the lowest one
        cut = min(_cuts([*answerable, *unanswerable]))
        best = Floor(model, mode, round(cut, 3), 1.0, sum(v < cut for v in unanswerable) / max(1, len(unanswerable)))
    return best


def calibrate_joint(
    model: str,
    answerable: Sequence[tuple[float, float]],
    unanswerable: Sequence[tuple[float, float]],
    max_warned: float = MAX_WARNED,
) -> Floor:
    """The hybrid pair (base floor, meaning floor); each question is given as (best base, best similarity).
    The base floor as :func:`calibrate`; the meaning floor just below the lowest similarity among the
    answerable questions the base floor keeps (rounded down to 0.01), so it warns none of them."""
    base = calibrate(model, SearchMode.HYBRID, [b for b, _ in answerable], [b for b, _ in unanswerable], max_warned)
    kept_sims = [m for b, m in answerable if b >= base.floor]
    meaning = math.floor(min(kept_sims, default=0.0) * 100) / 100
    flagged = sum(b < base.floor or m < meaning for b, m in unanswerable) / max(1, len(unanswerable))
    return Floor(model, SearchMode.HYBRID, base.floor, base.kept, flagged, meaning)


def warning_rates(label: str, answered: EvalReport, answerable_ids: set[str], negatives: EvalReport) -> WarningRates:
    """The shipped floors' behaviour on the golden set (``answered``) and the unanswerable set."""
    pos = [q for q in answered.queries if q.id in answerable_ids]
    warned = sum("no_strong_match" in q.warnings for q in pos)
    return WarningRates(
        label,
        answerable_warned=warned / max(1, len(pos)),
        unanswerable_warned=sum("no_strong_match" in q.warnings for q in negatives.queries)
        / max(1, len(negatives.queries)),
        short_lists=sum(q.n_ranked < 10 for q in pos) / max(1, len(pos)),
        answerable=len(pos),
        unanswerable=len(negatives.queries),
    )

"""Calibrating the no-strong-match warning, and measuring how honest it is.

A *floor* separates questions the library answers from questions it cannot: the best ranked ``base``
of an answered question should reach it, an unanswerable question's should not. In hybrid mode a second
floor guards the meaning part (the best ranked similarity), so that one shared keyword cannot pass for a
match (see :mod:`amicus_desktop.bundle.floors`). Both are chosen to maximise balanced accuracy — the mean
of "answered questions kept" and "unanswerable questions flagged" — with candidates at the midpoints
between observed values, so a floor never sits on an observation; ties go to the lower floor.
"""

from __future__ import annotations

import itertools
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


def calibrate(model: str, mode: SearchMode, answerable: Sequence[float], unanswerable: Sequence[float]) -> Floor:
    """The base floor maximising balanced accuracy over the two lists of best base scores."""
    best: Floor | None = None
    for cut in _cuts([*answerable, *unanswerable]):
        kept = sum(v >= cut for v in answerable) / max(1, len(answerable))
        flagged = sum(v < cut for v in unanswerable) / max(1, len(unanswerable))
        candidate = Floor(model, mode, round(cut, 3), kept, flagged)
        if best is None or (kept + flagged) > (best.kept + best.flagged) + 1e-12:
            best = candidate
    assert best is not None
    return best


def calibrate_joint(
    model: str,
    answerable: Sequence[tuple[float, float]],
    unanswerable: Sequence[tuple[float, float]],
) -> Floor:
    """The hybrid pair (base floor, meaning floor) maximising balanced accuracy; each question is given as
    (best base, best similarity). A question is kept when both reach their floor."""
    bases = _cuts([b for b, _ in (*answerable, *unanswerable)])
    meanings = [0.0, *_cuts([m for _, m in (*answerable, *unanswerable)])]
    best: Floor | None = None
    for b, m in itertools.product(bases, meanings):
        kept = sum(x >= b and y >= m for x, y in answerable) / max(1, len(answerable))
        flagged = sum(x < b or y < m for x, y in unanswerable) / max(1, len(unanswerable))
        candidate = Floor(model, SearchMode.HYBRID, round(b, 3), kept, flagged, round(m, 3))
        if best is None or (kept + flagged) > (best.kept + best.flagged) + 1e-12:
            best = candidate
    assert best is not None
    return best


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

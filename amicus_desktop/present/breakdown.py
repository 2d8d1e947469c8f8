"""Why a result ranks where it does, step by step in words: the breakdown of "Why this rank". No Qt.

:func:`breakdown_steps` turns a :class:`~amicus_desktop.core.results.ScoreBreakdown` into the lines the
breakdown pane shows: the base score of the mode that made it, then each factor of its list with the reason
it is what it is (the sentences of :mod:`.factors`: the open chapter, the profile, a named passage, under the
app's ranking the kind of material and the spread over sources, and under an overlay its vocabulary), then
the final score.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.names import DEFAULT_NAMES, Names
from ..core.query import RetrievalContext, SearchMode
from ..core.references import PassageRef
from ..core.results import Candidate, ScoreBreakdown
from .factors import MATERIAL_NAMES, Subject, factor_label, factor_sentence
from .formats import fmt_score

__all__ = ["MATERIAL_NAMES", "Step", "breakdown_steps"]


@dataclass(frozen=True)
class Step:
    """One line of a breakdown: a label, the multiplier (``None`` for non-multiplying steps),
    the running value after it, and a sentence."""

    label: str
    factor: float | None
    value: float
    words: str


def breakdown_steps(
    b: ScoreBreakdown,
    candidate: Candidate,
    ctx: RetrievalContext | None,
    names: Names = DEFAULT_NAMES,
    references: tuple[PassageRef, ...] = (),
) -> list[Step]:
    """The base score (distance → similarity; the keyword score; their fusion) → each factor → final, with a
    reason per step."""
    subject = Subject(candidate, ctx, names, references)
    steps = _base_steps(b)
    value = b.base if b.base is not None else 0.0
    for f in b.factors:
        value *= f.value
        steps.append(Step(factor_label(f), f.value, value, factor_sentence(f, subject, value)))
    steps.append(Step("final", None, b.final, f"Final score: {b.final:.4f}."))
    return steps


def _base_steps(b: ScoreBreakdown) -> list[Step]:
    """The steps before the multipliers: what ``base`` is in the mode that produced ``b``."""
    steps: list[Step] = []
    if b.distance is not None and b.similarity is not None:
        steps.append(Step("distance", None, b.distance, f"Cosine distance to the question: {b.distance:.4f}."))
        steps.append(Step("similarity", None, b.similarity,
                          f"Similarity = 1 − {b.distance:.4f} = {b.similarity:.4f}."))
    if b.mode is SearchMode.SEMANTIC:
        return steps
    lexical = b.lexical if b.lexical is not None else 0.0
    found = "matches the question's words" if b.lexical else "holds none of the question's words"
    steps.append(Step("keyword", None, lexical,
                      f"Keyword score (BM25, normalised): {fmt_score(b.lexical)} — it {found}."))
    if b.mode is SearchMode.HYBRID:
        base = b.base if b.base is not None else 0.0
        steps.append(Step("base", None, base,
                          f"Hybrid base: the similarity and the keyword score fused = {base:.4f}."))
    return steps

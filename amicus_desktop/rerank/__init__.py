"""Re-ranking of KNN candidates (CONTRACT section 3, steps 3–7), as small pure functions.

:func:`rerank` chains them; the UI calls it again on kept candidates when the chapter or the
profile changes, so nothing is embedded or searched twice. Under the app's ranking policy
(:class:`~amicus_desktop.core.query.RankingPolicy`) three steps change: a passage the question names
takes the open chapter's place (:func:`chapter_context`), each kind of material is weighed by the
question's intent (:mod:`.prior`), and the per-scholar cap becomes a spread over sources (:mod:`.spread`).
Under an overlay (CONTRACT section 12) forbidden sources are taken out first (:mod:`.forbidden`) and the
role's vocabulary multiplies the final score (:mod:`.vocabulary`). Each multiplier of the score is a step of
:mod:`.factors`, which returns its named factor; the breakdown holds the list.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.query import RetrievalContext
from ..core.references import ChapterRef, PassageRef
from ..core.results import Candidate, RejectedChunk, RetrievedChunk, ScoreBreakdown, ScoredCandidate
from .base import base_scores
from .chapter import chapter_boost
from .cutoff import apply_cutoff
from .factors import STEPS, Scoring, chapter_context, factors_of, scoring
from .forbidden import reject_forbidden, split_forbidden
from .ordering import order, order_key
from .reference import reference_boost
from .scholar import scholar_boost
from .scholar_cap import apply_scholar_cap
from .similarity import similarity
from .spread import apply_spread
from .threshold import apply_threshold
from .tradition import tradition_boost
from .vocabulary import vocabulary_boost

__all__ = [
    "STEPS",
    "Scoring",
    "apply_cutoff",
    "apply_scholar_cap",
    "apply_spread",
    "apply_threshold",
    "base_scores",
    "chapter_boost",
    "chapter_context",
    "order",
    "order_key",
    "reference_boost",
    "reject_forbidden",
    "rerank",
    "scholar_boost",
    "score",
    "similarity",
    "split_forbidden",
    "tradition_boost",
    "vocabulary_boost",
]


def score(
    candidate: Candidate,
    ctx: RetrievalContext,
    base: float | None = None,
    references: Sequence[PassageRef] = (),
    *,
    about_a_word: bool = False,
    focus: ChapterRef | None = None,
    off_topic: bool = False,
    floor: float | None = None,
    related_floor: float = 0.0,
) -> ScoreBreakdown:
    """Step 4 for one candidate: the base and each factor of :data:`.factors.STEPS`, multiplied in that order.

    ``base`` defaults to the similarity (``semantic`` mode, CONTRACT section 3). The keywords are what
    :func:`.factors.scoring` decides for a whole question (:class:`.factors.Scoring`): under the app's policy
    the source prior multiplies too (``about_a_word``: the question's intent, :func:`.prior.word_question`),
    and with no chapter open the ``focus`` chapter (:func:`.focus.focus_chapter`) takes the chapter boost's
    place at the policy's own, smaller weight. Under an overlay its vocabulary factor multiplies too.
    ``off_topic``: the question does not relate to the open chapter (:func:`.focus.chapter_relation`), which is
    then set aside as if none were open; ``floor``: the open chapter boosts only a candidate whose base reaches it.
    """
    return _score(candidate, base, Scoring(ctx, references, about_a_word=about_a_word, focus=focus,
                                           off_topic=off_topic, floor=floor, related_floor=related_floor))


def _score(candidate: Candidate, base: float | None, s: Scoring) -> ScoreBreakdown:
    sim = candidate.similarity
    if base is None:
        if sim is None:
            raise ValueError(f"candidate {candidate.chunk_id!r} has no similarity to score by")
        base = sim
    return ScoreBreakdown(candidate.distance, sim, factors_of(candidate, base, s), mode=s.ctx.mode, base=base,
                          lexical=candidate.lexical)


def rerank(
    candidates: Sequence[Candidate],
    ctx: RetrievalContext,
    pinned: Sequence[Candidate] = (),
    references: Sequence[PassageRef] = (),
    quoted: Sequence[ChapterRef] = (),
) -> tuple[list[RetrievedChunk], list[RejectedChunk]]:
    """Threshold, score, order, cap per scholar and cut off at ``ctx.k``; pins first.

    Returns the results — the ``pinned`` chunks in the order given (ranks 1..p, ``pinned=True``), then
    the ranked ones (ranks p+1..p+k) — and every rejected candidate with its reason, in the order they
    were dropped: ``forbidden_source`` first (pins too: an overlay's forbidden source is never shown), then
    ``below_threshold``, ``scholar_cap`` by rank order, then ``below_cutoff``. Pins are exempt from the
    threshold and the cap and do not count toward either or toward ``k``. ``quoted``: the chapters whose verses
    the question quotes (:mod:`amicus_desktop.candidates.quoted`), which an open chapter among them relates to.
    """
    allowed, forbidden = split_forbidden(candidates, ctx.governance)
    allowed_pins, forbidden_pins = split_forbidden(pinned, ctx.governance)
    bases = base_scores([*allowed, *allowed_pins], ctx.mode, ctx.fusion)
    if forbidden or forbidden_pins:  # scored for "Why not X?" only, against the whole pool
        bases = {**base_scores([*candidates, *pinned], ctx.mode, ctx.fusion), **bases}
    s = scoring(ctx, references, allowed, bases, quoted)

    def scored(c: Candidate) -> ScoreBreakdown:
        return _score(c, bases[c.chunk_id], s)

    rejected_forbidden = reject_forbidden([*forbidden_pins, *forbidden], scored)
    pins = [RetrievedChunk(rank, c, scored(c), pinned=True) for rank, c in enumerate(allowed_pins, start=1)]
    kept, rejected_threshold = apply_threshold(allowed, ctx.min_similarity)
    ordered = order(ScoredCandidate(c, scored(c)) for c in kept)
    cap = ctx.weights.per_scholar_cap
    if ctx.policy.spread is None:
        survivors, rejected_cap = apply_scholar_cap(ordered, cap)
    else:
        survivors, rejected_cap = apply_spread(ordered, cap, ctx.policy.spread), []
    results, rejected_cutoff = apply_cutoff(survivors, ctx.k, first_rank=len(pins) + 1)
    return pins + results, rejected_forbidden + rejected_threshold + rejected_cap + rejected_cutoff

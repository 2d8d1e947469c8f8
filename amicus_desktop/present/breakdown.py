"""Why a result ranks where it does, step by step in words: the breakdown of "Why this rank". No Qt.

:func:`breakdown_steps` turns a :class:`~amicus_desktop.core.results.ScoreBreakdown` into the lines the
breakdown pane shows: the base score of the mode that made it, then each multiplier with the reason it is
what it is (the open chapter, the profile, a named passage, under the app's ranking the kind of
material and the spread over sources, and under an overlay its vocabulary), then the final score.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass

from ..core.names import DEFAULT_NAMES, Names
from ..core.query import RetrievalContext, SearchMode
from ..core.references import ChapterRef, PassageRef
from ..core.results import Candidate, ChunkMetadata, ScoreBreakdown
from ..rerank.prior import Material, material
from ..rerank.vocabulary import RELATED_SHARE, first_term
from .describe import fmt_boost, fmt_score, ordinal

#: how the breakdown names each kind of material (the source prior's step)
MATERIAL_NAMES: dict[Material, str] = {
    Material.COMMENTARY: "commentary",
    Material.WORD_STUDY: "a word study",
    Material.LEXICON: "a dictionary entry",
    Material.NAME: "a dictionary entry of a name",
    Material.NUMBER: "a dictionary entry of a number",
    Material.NAME_STUDY: "a word study of a name",
    Material.CROSS_REFERENCE: "a cross-reference note",
    Material.FAQ: "the app's help",
    Material.NOTE: "your own note",
    Material.OTHER: "material",
}



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
    """The base score (distance → similarity; the keyword score; their fusion) → each multiplier →
    final, with a reason per step."""
    meta = candidate.metadata
    chapter = ctx.chapter if ctx else None
    profile = ctx.profile if ctx else None
    steps = _base_steps(b)
    value = b.base if b.base is not None else 0.0
    # chapter
    value *= b.chapter_boost
    chunk_ch = names.chapter(ChapterRef(meta.book_id, meta.chapter_num)
                             if meta.book_id and meta.chapter_num is not None else None)
    current = names.chapter(chapter)
    if b.chapter_focus:
        why = (f"it is about {chunk_ch}, where the library's commentary on your question centres "
               "(no chapter is open)")
    elif b.chapter_boost != 1.0:
        why = f"it is about {chunk_ch}, the chapter you are reading"
    elif b.chapter_off_topic:
        why = (f"it is about {chunk_ch}, the chapter you are reading, but not about your question: the "
               "chapter helps only what answers it")
    elif b.chapter_suspended:
        why = (f"it is about {chunk_ch}, the chapter you are reading, but your question names "
               f"{_refs_text(references, None, names)}: a passage you name comes first")
    elif chapter is None:
        why = "no chapter is open, so nothing gets the chapter boost"
    elif not chunk_ch:
        why = "it is not tied to a chapter"
    else:
        why = f"it is about {chunk_ch}, not {current}"
    steps.append(_factor_step("chapter", b.chapter_boost, value, why))
    # scholar and tradition: the profile's preferences
    value *= b.scholar_boost
    why = _preferred_why("scholar", b.scholar_boost, meta.scholar_id,
                         profile.preferred_scholars if profile is not None else None)
    steps.append(_factor_step("scholar", b.scholar_boost, value, why))
    value *= b.tradition_boost
    why = _preferred_why("tradition", b.tradition_boost, meta.tradition,
                         profile.preferred_traditions if profile is not None else None)
    steps.append(_factor_step("tradition", b.tradition_boost, value, why))
    # reference
    value *= b.reference_boost
    refs = references
    if b.reference_boost != 1.0:
        why = f"it covers {_refs_text(refs, meta, names)}, named in your question"
    elif not refs:
        why = "your question names no passage"
    else:
        why = f"it does not cover {_refs_text(refs, None, names)}, named in your question"
    steps.append(_factor_step("reference", b.reference_boost, value, why))
    if b.extended:
        steps += _policy_steps(b, candidate, ctx, value)
        value *= b.source_prior * b.diversity
    if b.governed:
        steps.append(_vocabulary_step(b, candidate, ctx, value * b.vocabulary_boost))
    steps.append(Step("final", None, b.final, f"Final score: {b.final:.4f}."))
    return steps


def _policy_steps(b: ScoreBreakdown, candidate: Candidate, ctx: RetrievalContext | None, value: float) -> list[Step]:
    """The app policy's two factors: the source prior and the spread over sources."""
    kind = MATERIAL_NAMES[material(candidate)]
    value *= b.source_prior
    if b.source_prior != 1.0:
        why = f"{kind}, and your question is not about a word: commentary comes first"
    elif material(candidate) in (Material.LEXICON, Material.WORD_STUDY):
        why = f"{kind}; your question asks about a word, so it counts fully"
    else:
        why = f"{kind} counts fully"
    steps = [_factor_step("source", b.source_prior, value, why)]
    value *= b.diversity
    spread = ctx.policy.spread if ctx else None
    cap = ctx.weights.per_scholar_cap if ctx else None
    if b.diversity != 1.0 and spread and cap:
        nth = cap + round(math.log(b.diversity) / math.log(spread))
        author = candidate.metadata.scholar_id or "one author"
        why = (f"the {ordinal(nth)} chunk of {kind} by {author} in the list; past {cap} from one source "
               f"each further one counts ×{spread:g} less")
    else:
        why = "no source has more than its share above it"
    steps.append(_factor_step("diversity", b.diversity, value, why))
    return steps


def _factor_step(name: str, factor: float, value: float, why: str) -> Step:
    """One multiplier's line: ``×1.5 chapter: <why> → 0.7500.``"""
    return Step(f"{fmt_boost(factor)} {name}", factor, value, f"{fmt_boost(factor)} {name}: {why} → {value:.4f}.")


def _preferred_why(kind: str, boost: float, named: str | None, preferred: Collection[str] | None) -> str:
    """Why a chunk's scholar (or tradition) got the profile's boost or not; ``preferred`` is ``None``
    without a profile."""
    if boost != 1.0:
        return f"{named} is one of your preferred {kind}s"
    if named is None:
        return f"no {kind} is named for it"
    if preferred is not None and not preferred:
        return f"your profile prefers no {kind}"
    return f"{named} is not among your preferred {kind}s"


def _vocabulary_step(b: ScoreBreakdown, candidate: Candidate, ctx: RetrievalContext | None, value: float) -> Step:
    """The overlay's vocabulary factor, with the term that set it."""
    gov = ctx.governance if ctx is not None else None
    role = f"the overlay {gov.role_id!r}" if gov is not None else "the overlay"
    suppressed = first_term(candidate.text, gov.suppress_terms) if gov is not None else None
    boosted = first_term(candidate.text, gov.boost_terms) if gov is not None else None
    if b.vocabulary_boost < 1.0 and suppressed:
        why = f"it holds “{suppressed}”, a word {role} suppresses" + (
            f" (and “{boosted}”, which it boosts: suppressing wins)" if boosted else "")
    elif b.vocabulary_boost > 1.0 and boosted:
        why = f"it holds “{boosted}”, a word {role} boosts"
    elif boosted and ctx is not None and ctx.weights.vocabulary != 1.0:
        why = (f"it holds “{boosted}”, a word {role} boosts, but the question is not about this passage (its "
               f"similarity is under {RELATED_SHARE:.0%} of the best): the overlay's words count where the question "
               "relates, unless it says every question")
    elif gov is not None and not gov.has_vocabulary:
        why = f"{role} names no words to boost or suppress"
    else:
        why = f"it holds none of the words {role} boosts or suppresses"
    label = f"×{b.vocabulary_boost:.3g} vocabulary"
    return Step(label, b.vocabulary_boost, value, f"{label}: {why} → {value:.4f}.")


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


def _refs_text(refs: tuple[PassageRef, ...], meta: ChunkMetadata | None, names: Names) -> str:
    """The referenced passages (those ``meta`` covers, when given), named as the reader names them."""
    chosen = [r for r in refs if meta is None or r.covers(meta)] or list(refs)
    return ", ".join(names.passage(r) for r in chosen)



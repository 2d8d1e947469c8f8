"""Words for a score's factors: their labels, and the sentence that says why each is what it is. No Qt.

The labels (``×1.5 chapter``), the final score's formula and "Why #1 beat #2" read the breakdown's list of
factors (:class:`~amicus_desktop.core.breakdown.Factor`), whatever it holds. The sentences are a registry
keyed by factor name (:data:`WORDS`): each factor's ``why`` reads the factor (its value and flags) and the
:class:`Subject` — the candidate, the question's context, the reader's names, the passages the question
names. A new factor registers its sentence here with :func:`words`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from dataclasses import dataclass

from ..core.breakdown import Factor, ScoreBreakdown
from ..core.names import Names
from ..core.query import RetrievalContext, SearchMode
from ..core.references import ChapterRef, PassageRef
from ..core.results import Candidate, ChunkMetadata, RetrievedChunk
from ..rerank.prior import Material, about_another_word, material, verse_exposition, word_stems
from ..rerank.vocabulary import RELATED_SHARE, first_term
from .formats import BASE_NAMES, fmt_boost, fmt_score, ordinal


@dataclass(frozen=True)
class Subject:
    """What a factor's sentence may read besides the factor: the candidate, the question's context (``None``
    when unknown), the reader's names for chapters and passages, and the passages the question names."""

    candidate: Candidate
    ctx: RetrievalContext | None
    names: Names
    references: tuple[PassageRef, ...] = ()


#: a factor's sentence: why it is what it is (without the label and the running value)
Why = Callable[[Factor, Subject], str]


@dataclass(frozen=True)
class FactorWords:
    """How a factor is written: why it is what it is, and its multiplier in a label (``×1.5``)."""

    why: Why
    label: Callable[[float], str] = fmt_boost


#: factor name → its words, registered by :func:`words`
WORDS: dict[str, FactorWords] = {}


def words(name: str, label: Callable[[float], str] = fmt_boost) -> Callable[[Why], Why]:
    """Register the decorated function as the sentence of the factor called ``name``."""

    def register(why: Why) -> Why:
        WORDS[name] = FactorWords(why, label)
        return why

    return register


def _unwritten(factor: Factor, subject: Subject) -> str:
    return f"the {factor.name} factor"


def words_of(factor: Factor) -> FactorWords:
    """The words registered for ``factor`` (a plain sentence for a factor that has none)."""
    return WORDS.get(factor.name, FactorWords(_unwritten))


def factor_label(factor: Factor) -> str:
    """``×1.5 chapter``."""
    return f"{words_of(factor).label(factor.value)} {factor.name}"


def factor_sentence(factor: Factor, subject: Subject, value: float) -> str:
    """``×1.5 chapter: it is about Romans 8, the chapter you are reading → 0.7500.`` (``value``: the running
    score after this factor)."""
    return f"{factor_label(factor)}: {words_of(factor).why(factor, subject)} → {value:.4f}."


# -- labels of a whole breakdown --------------------------------------------------------------------
def boost_labels(b: ScoreBreakdown) -> list[str]:
    """The boosts applied, written out: ``["×1.5 chapter", "×1.1 scholar"]`` (empty if none)."""
    return [f"{fmt_boost(f.value)} {f.name}" for f in b.factors if f.value != 1.0]


def final_formula(b: ScoreBreakdown) -> str:
    """``0.5000 similarity × 1.5 chapter × … = 0.7500``: the final score's making, in one line."""
    factors = " × ".join(f"{f.value:g} {f.name}" for f in b.factors)
    return f"{fmt_score(b.base)} {BASE_NAMES[b.mode]} × {factors} = {b.final:.4f}"


def boosts_text(b: ScoreBreakdown | None) -> str:
    if b is None:
        return "not scored"
    labels = boost_labels(b)
    return ", ".join(labels) if labels else "none"


def compare_text(a: RetrievedChunk, b: RetrievedChunk) -> str:
    """Why the higher-ranked of two results beat the other, in words: the base score and each
    multiplier that differs ("Why #1 beat #2")."""
    first, second = sorted((a, b), key=lambda r: r.rank)
    fb, sb = first.breakdown, second.breakdown
    lines = [f"#{first.rank} ({fb.final:.4f}) beat #{second.rank} ({sb.final:.4f}) by {fb.final - sb.final:.4f}."]
    base_a, base_b = fb.base or 0.0, sb.base or 0.0
    if abs(base_a - base_b) > 5e-5:
        word = "similarity" if fb.mode is SearchMode.SEMANTIC else "base score"
        closer = "closer to" if base_a > base_b else "further from"
        lines.append(f"Its {word} is {base_a:.4f} against {base_b:.4f}: #{first.rank} is {closer} the question.")
    else:
        lines.append(f"Both start from the same base score ({base_a:.4f}).")
    differing = [(f.name, f.value, sb.value(f.name)) for f in fb.factors if f.value != sb.value(f.name)]
    for name, x, y in differing:
        lines.append(f"×{x:g} {name} for #{first.rank}, ×{y:g} for #{second.rank}.")
    if not differing:
        lines.append("Their boosts are the same: the base score decided.")
    return "\n".join(lines)


# -- each factor's sentence ---------------------------------------------------------------------------
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


@words("chapter")
def _chapter(f: Factor, s: Subject) -> str:
    meta = s.candidate.metadata
    chapter = s.ctx.chapter if s.ctx else None
    chunk_ch = s.names.chapter(ChapterRef(meta.book_id, meta.chapter_num)
                               if meta.book_id and meta.chapter_num is not None else None)
    if f.flag("chapter_focus"):
        return (f"it is about {chunk_ch}, where the library's commentary on your question centres "
                "(no chapter is open)")
    if f.value != 1.0:
        return f"it is about {chunk_ch}, the chapter you are reading"
    if f.flag("chapter_off_topic"):
        return (f"it is about {chunk_ch}, the chapter you are reading, but not about your question: the "
                "chapter helps only what answers it")
    if f.flag("chapter_suspended"):
        return (f"it is about {chunk_ch}, the chapter you are reading, but your question names "
                f"{_refs_text(s.references, None, s.names)}: a passage you name comes first")
    if chapter is None:
        return "no chapter is open, so nothing gets the chapter boost"
    if not chunk_ch:
        return "it is not tied to a chapter"
    return f"it is about {chunk_ch}, not {s.names.chapter(chapter)}"


@words("scholar")
def _scholar(f: Factor, s: Subject) -> str:
    profile = s.ctx.profile if s.ctx else None
    return _preferred_why("scholar", f.value, s.candidate.metadata.scholar_id,
                          profile.preferred_scholars if profile is not None else None)


@words("tradition")
def _tradition(f: Factor, s: Subject) -> str:
    profile = s.ctx.profile if s.ctx else None
    return _preferred_why("tradition", f.value, s.candidate.metadata.tradition,
                          profile.preferred_traditions if profile is not None else None)


@words("reference")
def _reference(f: Factor, s: Subject) -> str:
    refs = s.references
    meta = s.candidate.metadata
    if f.value != 1.0 and meta.book_id and not any(r.covers(meta) for r in refs):  # a book named alone
        return f"it introduces {s.names.book(meta.book_id)}, the book your question names"
    if f.value != 1.0:
        return f"it covers {_refs_text(refs, meta, s.names)}, named in your question"
    if not refs:
        return "your question names no passage"
    return f"it does not cover {_refs_text(refs, None, s.names)}, named in your question"


@words("source")
def _source(f: Factor, s: Subject) -> str:
    kind = MATERIAL_NAMES[material(s.candidate)]
    if f.value != 1.0:
        if material(s.candidate) is Material.COMMENTARY and verse_exposition(s.candidate):
            return f"{kind} on one verse, and no chapter applies: notes on a whole passage come first"
        if s.ctx is not None and about_another_word(s.candidate, word_stems(s.ctx.query, s.references)):
            return f"{kind} of a word your question does not ask about (it quotes verses that use your words)"
        return f"{kind}, and your question is not about a word: commentary comes first"
    if material(s.candidate) in (Material.LEXICON, Material.WORD_STUDY):
        return f"{kind}; your question asks about a word, so it counts fully"
    return f"{kind} counts fully"


@words("diversity")
def _diversity(f: Factor, s: Subject) -> str:
    spread = s.ctx.policy.spread if s.ctx else None
    cap = s.ctx.weights.per_scholar_cap if s.ctx else None
    if f.value != 1.0 and spread and cap:
        kind = MATERIAL_NAMES[material(s.candidate)]
        nth = cap + round(math.log(f.value) / math.log(spread))
        author = s.candidate.metadata.scholar_id or "one author"
        return (f"the {ordinal(nth)} chunk of {kind} by {author} in the list; past {cap} from one source "
                f"each further one counts ×{spread:g} less")
    return "no source has more than its share above it"


@words("vocabulary", label=lambda value: f"×{value:.3g}")
def _vocabulary(f: Factor, s: Subject) -> str:
    ctx = s.ctx
    gov = ctx.governance if ctx is not None else None
    role = f"the overlay {gov.role_id!r}" if gov is not None else "the overlay"
    suppressed = first_term(s.candidate.text, gov.suppress_terms) if gov is not None else None
    boosted = first_term(s.candidate.text, gov.boost_terms) if gov is not None else None
    if f.value < 1.0 and suppressed:
        return f"it holds “{suppressed}”, a word {role} suppresses" + (
            f" (and “{boosted}”, which it boosts: suppressing wins)" if boosted else "")
    if f.value > 1.0 and boosted:
        return f"it holds “{boosted}”, a word {role} boosts"
    if boosted and ctx is not None and ctx.weights.vocabulary != 1.0:
        return (f"it holds “{boosted}”, a word {role} boosts, but the question is not about this passage (its "
                f"similarity is under {RELATED_SHARE:.0%} of the best): the overlay's words count where the question "
                "relates, unless it says every question")
    if gov is not None and not gov.has_vocabulary:
        return f"{role} names no words to boost or suppress"
    return f"it holds none of the words {role} boosts or suppresses"


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


def _refs_text(refs: tuple[PassageRef, ...], meta: ChunkMetadata | None, names: Names) -> str:
    """The referenced passages (those ``meta`` covers, when given), named as the reader names them."""
    chosen = [r for r in refs if meta is None or r.covers(meta)] or list(refs)
    return ", ".join(names.passage(r) for r in chosen)

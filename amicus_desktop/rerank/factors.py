"""The factors of a score (CONTRACT section 3 step 4, sections 6, 12 and 15): one step each, in one list.

Each step reads one candidate, its base score and what was decided about the question once
(:class:`Scoring`, made by :func:`scoring`) and returns its
:class:`~amicus_desktop.core.breakdown.Factor` — name, value, JSON key and the flags its sentence needs —
or ``None`` when the factor has no part in this configuration (the ranking policy's under the contract's
ranking, the overlay's without an overlay). :data:`STEPS` is their order: the order the breakdown lists
them, ``final`` multiplies them, and the JSON, the labels and "Why this rank" show them. The pure rules the
steps apply live beside them (:mod:`.chapter`, :mod:`.scholar`, :mod:`.prior`, :mod:`.vocabulary`, …).

A new factor is a step here and its line in :data:`STEPS`, its sentence in
:mod:`amicus_desktop.present.factors` and its key in ``resources/schemas/bundle.schema.json``
(README.md, "How to add a factor").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..core.breakdown import Factor, FactorPart
from ..core.query import RetrievalContext
from ..core.references import ChapterRef, PassageRef
from ..core.results import Candidate
from ..understand.books import named_books
from .chapter import chapter_boost
from .focus import chapter_relation, focus_chapter
from .prior import VERSE_NOTE_PRIOR, Material, material, source_prior, verse_exposition, word_question, word_stems
from .reference import reference_boost
from .scholar import scholar_boost
from .tradition import tradition_boost
from .vocabulary import related_floor, vocabulary_boost


@dataclass(frozen=True)
class Scoring:
    """What the steps read about the question, decided once for all its candidates.

    ``about_a_word``: the question asks what a word means (:func:`.prior.word_question`), ``stems`` its words as
    :func:`.prior.about_another_word` compares them (only then); ``focus``: the
    focus chapter (:func:`.focus.focus_chapter`) when no chapter is open or the open one is set aside;
    ``off_topic``: the question does not relate to the open chapter (:func:`.focus.chapter_relation`), which
    is then set aside as if none were open; ``floor``: the open chapter boosts only a candidate whose base
    reaches it; ``related_floor``: the similarity an overlay's boost term needs (:func:`.vocabulary.related_floor`);
    ``books``: the books the question names by name alone (:func:`~amicus_desktop.understand.books.named_books`,
    under the app's ``named_books`` rule), whose introductions count as a named passage.
    """

    ctx: RetrievalContext
    references: Sequence[PassageRef] = ()
    about_a_word: bool = False
    stems: frozenset[str] = frozenset()
    focus: ChapterRef | None = None
    off_topic: bool = False
    floor: float | None = None
    related_floor: float = 0.0
    books: frozenset[str] = frozenset()


#: a step: (candidate, its base score, the question's scoring) → its factor, or ``None`` when it has no part
Step = Callable[[Candidate, float, Scoring], Factor | None]


def chapter_context(ctx: RetrievalContext, references: Sequence[PassageRef]) -> ChapterRef | None:
    """The chapter the chapter boost is for: the open one — unless the app's policy puts a passage the
    question names first and the question names only other chapters (then none)."""
    if ctx.chapter is None or not ctx.policy.passage_first or not references:
        return ctx.chapter
    return ctx.chapter if any(r.chapter_ref == ctx.chapter for r in references) else None


def scoring(
    ctx: RetrievalContext, references: Sequence[PassageRef], allowed: Sequence[Candidate], bases: dict[str, float],
    quoted: Sequence[ChapterRef] = (),
) -> Scoring:
    """What the question's candidates ``allowed`` (with their ``bases``) decide for every step. An open chapter
    whose verses the question quotes (``quoted``) relates to it whatever its commentary's evidence."""
    policy = ctx.policy
    word = policy.source_priors and word_question(ctx.query, references, allowed)
    chapter = chapter_context(ctx, references)
    # a question naming a passage of the open chapter is about it, whatever the candidates' evidence says
    names_it = chapter is not None and any(r.chapter_ref == chapter for r in references)
    off_topic = (chapter is not None and not names_it and chapter not in quoted and policy.chapter_relation is not None
                 and chapter_relation(allowed, bases, chapter) < policy.chapter_relation)
    floor = None
    if chapter is not None and not off_topic and policy.chapter_floor is not None:
        floor = policy.chapter_floor * max((bases[c.chunk_id] for c in allowed), default=0.0)
    books = frozenset(named_books(ctx.query)) if policy.named_books else frozenset()
    focus = None
    if policy.focus is not None and (ctx.chapter is None or off_topic) and not references and not word:
        # a question naming a book centres in that book, if anywhere ("Who wrote Hebrews?" not on Psalm 119)
        focus = focus_chapter([c for c in allowed if not books or c.metadata.book_id in books], bases)
    words_floor = related_floor((c.similarity for c in allowed), ctx.governance, policy.is_contract)
    stems = word_stems(ctx.query, references) if word else frozenset()
    return Scoring(ctx, references, about_a_word=word, stems=stems, focus=focus, off_topic=off_topic, floor=floor,
                   related_floor=words_floor, books=books)


def chapter_factor(candidate: Candidate, base: float, s: Scoring) -> Factor:
    """Step 4a: the open chapter's boost — or, under the app's policy, the focus chapter's, or none when a
    named passage comes first or the chapter is set aside (the flags say which)."""
    ctx, meta, policy = s.ctx, candidate.metadata, s.ctx.policy
    weight = ctx.weights.chapter
    chapter = chapter_context(ctx, s.references)
    suspended = chapter is None and chapter_boost(meta, ctx.chapter, weight) != 1.0
    in_chapter = chapter_boost(meta, chapter, weight) != 1.0
    set_aside = in_chapter and (s.off_topic or (s.floor is not None and base < s.floor))
    if s.off_topic:
        chapter = None
    value = 1.0 if set_aside else chapter_boost(meta, chapter, weight)
    focused = False
    if chapter is None and s.focus is not None and policy.focus is not None:
        value = chapter_boost(meta, s.focus, policy.focus)
        focused = value != 1.0
    flags = () if policy.is_contract else (
        ("chapter_suspended", suspended), ("chapter_focus", focused), ("chapter_off_topic", set_aside and not focused))
    return Factor("chapter", value, "chapter_boost", flags=flags)


def scholar_factor(candidate: Candidate, base: float, s: Scoring) -> Factor:
    """Step 4b: the profile's preferred scholars."""
    return Factor("scholar", scholar_boost(candidate.metadata, s.ctx.profile, s.ctx.weights.scholar), "scholar_boost")


def tradition_factor(candidate: Candidate, base: float, s: Scoring) -> Factor:
    """Step 4c: the profile's preferred traditions."""
    value = tradition_boost(candidate.metadata, s.ctx.profile, s.ctx.weights.tradition)
    return Factor("tradition", value, "tradition_boost")


def reference_factor(candidate: Candidate, base: float, s: Scoring) -> Factor:
    """Section 6: a passage the question names — under the app's policy also a book named alone, whose
    introductions (its commentary tied to no chapter) answer a question about it."""
    meta = candidate.metadata
    value = reference_boost(meta, s.references, s.ctx.weights.reference)
    if (value == 1.0 and meta.book_id in s.books and meta.chapter_num is None
            and material(candidate) is Material.COMMENTARY):
        value = s.ctx.weights.reference
    return Factor("reference", value, "reference_boost", FactorPart.SEARCH)


def source_factor(candidate: Candidate, base: float, s: Scoring) -> Factor | None:
    """Section 15: the kind of material under the question's intent (:mod:`.prior`)."""
    policy = s.ctx.policy
    if policy.is_contract:
        return None
    # no chapter applies (none open, a named passage first, or the open one set aside): the whole library's
    # dictionary competes with the commentary (:data:`.prior.WIDE_PRIORS`)
    wide = s.off_topic or chapter_context(s.ctx, s.references) is None
    value = source_prior(candidate, s.about_a_word, wide=wide, stems=s.stems) if policy.source_priors else 1.0
    if policy.source_priors and wide and not s.references and not s.about_a_word and verse_exposition(candidate):
        value *= VERSE_NOTE_PRIOR  # a topical question over the whole library: notes on a passage first
    return Factor("source", value, "source_prior", FactorPart.POLICY)


def diversity_factor(candidate: Candidate, base: float, s: Scoring) -> Factor | None:
    """Section 15: the spread over sources — 1.0 here; :func:`.spread.apply_spread` lowers it once the list is
    ordered (so ``final`` multiplies it last)."""
    if s.ctx.policy.is_contract:
        return None
    return Factor("diversity", 1.0, "diversity", FactorPart.POLICY, last=True)


def vocabulary_factor(candidate: Candidate, base: float, s: Scoring) -> Factor | None:
    """Section 12: the overlay's boost and suppress words (:mod:`.vocabulary`)."""
    governance = s.ctx.governance
    if governance is None:
        return None
    sim = candidate.similarity
    related = s.related_floor <= 0.0 or (sim is not None and sim >= s.related_floor)
    value = vocabulary_boost(candidate.text, governance, s.ctx.weights.vocabulary, related=related)
    return Factor("vocabulary", value, "vocabulary_boost", FactorPart.OVERLAY)


#: every factor's step, in the order the breakdown lists them
STEPS: tuple[Step, ...] = (chapter_factor, scholar_factor, tradition_factor, reference_factor, source_factor,
                           diversity_factor, vocabulary_factor)


def factors_of(candidate: Candidate, base: float, s: Scoring) -> tuple[Factor, ...]:
    """``candidate``'s factors: each step's that has a part in this configuration, in :data:`STEPS`' order."""
    return tuple(f for step in STEPS if (f := step(candidate, base, s)) is not None)


def contract_factors(
    chapter: float = 1.0, scholar: float = 1.0, tradition: float = 1.0, reference: float = 1.0,
) -> tuple[Factor, ...]:
    """The contract's four factors with the given values, for a breakdown made by hand (a test, a tool)."""
    return (Factor("chapter", chapter, "chapter_boost"), Factor("scholar", scholar, "scholar_boost"),
            Factor("tradition", tradition, "tradition_boost"),
            Factor("reference", reference, "reference_boost", FactorPart.SEARCH))

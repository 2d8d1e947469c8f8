"""Warnings of the retrieval bundle (CONTRACT section 7), one small rule per code.

Two kinds: *ranking* warnings depend on what is ranked (re-ranking recomputes them) and *lasting*
warnings on what the question asked for (re-ranking keeps them). Messages say what happened and what
to do; they never repeat the question.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ..core.books import BY_ID
from ..core.bundle import Coverage
from ..core.governance import ForbiddenRule
from ..core.query import RetrievalContext
from ..core.references import PassageRef
from ..core.results import Origin, RejectedChunk, RejectReason, RetrievalWarning, RetrievedChunk, WarningCode
from .floors import MatchFloor


def no_strong_match(
    ranked: Sequence[RetrievedChunk], floor: MatchFloor | None, spelling: Mapping[str, str], question: str
) -> RetrievalWarning | None:
    """The best ranked result's ``base`` is below the model's floor — or, in hybrid, its best similarity is
    below the meaning floor, so shared words alone lifted the list (never in keyword mode: no floor).

    Under the app's ranking each base is weighed by its source prior first (:func:`strength`): a name's
    dictionary entry that shares a word with a topical question is not a strong match. Under the contract's
    ranking every prior is 1, so this is section 7's rule exactly.
    """
    if floor is None:
        return None
    best = max((strength(r) for r in ranked), default=None)
    closest = max((r.breakdown.similarity for r in ranked if r.breakdown.similarity is not None), default=None)
    weak_meaning = floor.meaning is not None and closest is not None and closest < floor.meaning
    if best is not None and best >= floor.base and not weak_meaning:
        return None
    suggestion = respell(question, spelling) if spelling else None
    if suggestion is not None and _same(suggestion, question):
        suggestion = None  # "Did you mean" the question itself is no suggestion
    message = "Nothing in the library matches this question well"
    if best is not None and best < floor.base:
        raw = max((r.breakdown.base or 0.0 for r in ranked), default=best)
        weighed = " once weighed by its kind of material" if raw > best + 1e-9 else ""
        message += f" (best match {best:.2f}{weighed}, below {floor.base:.2f})."
    elif weak_meaning:
        assert closest is not None and floor.meaning is not None
        message += (f": the results share words with it, but none is close in meaning (closest {closest:.2f}, "
                    f"below {floor.meaning:.2f}).")
    else:
        message += "."
    if suggestion:
        message += f" Did you mean “{suggestion}”?"
    else:
        message += " Try other words, a scripture reference, or search by words."
    return RetrievalWarning(WarningCode.NO_STRONG_MATCH, message, suggestion)


def strength(result: RetrievedChunk) -> float:
    """How strongly one result matches: its base, weighed by how much its kind of material counts for the
    question (the source prior; 1 under the contract's ranking)."""
    return (result.breakdown.base or 0.0) * result.breakdown.source_prior


def few_results(
    ranked: Sequence[RetrievedChunk], rejected: Sequence[RejectedChunk], ctx: RetrievalContext
) -> RetrievalWarning | None:
    """Fewer than ``k`` ranked results, with the cause that cut the list and advice that fits it."""
    k = ctx.k
    if len(ranked) >= k:
        return None
    capped = sum(r.reason is RejectReason.SCHOLAR_CAP for r in rejected)
    below = sum(r.reason is RejectReason.BELOW_THRESHOLD for r in rejected)
    forbidden = sum(r.reason is RejectReason.FORBIDDEN_SOURCE and Origin.PIN not in r.candidate.origins
                    for r in rejected)
    head = f"Only {len(ranked)} of the {k} results asked for passed the ranking"
    if forbidden and not capped and not below:
        role = ctx.governance.role_id if ctx.governance else "the overlay"
        why = f": the overlay {role!r} forbids the sources of {forbidden} more (see them under Rejected)."
    elif capped:
        cap = ctx.weights.per_scholar_cap
        why = (f": the per-scholar cap (at most {cap} from each author) set aside {capped} more. "
               "See them under Rejected, or raise the cap in the ranking settings (--scholar-cap).")
    elif below:
        why = (f": {below} candidates fell below the minimum similarity. "
               "Lower it, or see them under Rejected.")
    elif ctx.filters.active:
        why = ": no more chunks match the filters that are set. Widen them to see more."
    else:
        why = ": the library holds no more chunks that match the question. Try other words or another mode."
    return RetrievalWarning(WarningCode.FEW_RESULTS, head + why)


def single_source_type(ranked: Sequence[RetrievedChunk]) -> RetrievalWarning | None:
    """Every ranked result is one kind of material (see :func:`chosen_by_reader`)."""
    kinds = {r.candidate.source_type for r in ranked}
    if len(ranked) < 2 or len(kinds) != 1:
        return None
    (kind,) = kinds
    return RetrievalWarning(
        WarningCode.SINGLE_SOURCE_TYPE,
        f"Every result is a {kind.replace('_', ' ')}. Other kinds of material may answer too: "
        "try another mode, or filter by source type to compare.",
    )


def forbidden_hit(rejected: Sequence[RejectedChunk], ctx: RetrievalContext) -> RetrievalWarning | None:
    """The overlay's forbidden sources removed candidates (pins included): how many, by which rule."""
    hits = [r for r in rejected if r.reason is RejectReason.FORBIDDEN_SOURCE]
    if not hits:
        return None
    role = ctx.governance.role_id if ctx.governance else "?"
    scholars = sorted({r.candidate.metadata.scholar_id or "" for r in hits if r.rule is ForbiddenRule.SCHOLAR})
    kinds = sorted({r.candidate.source_type for r in hits if r.rule is ForbiddenRule.SOURCE_TYPE})
    which = "; ".join(part for part in (
        f"by {', '.join(scholars)} (forbidden scholars)" if scholars else "",
        f"of the kind{'s' * (len(kinds) != 1)} {', '.join(k.replace('_', ' ') for k in kinds)} (forbidden kinds of "
        "source)" if kinds else "",
    ) if part)
    n = len(hits)
    return RetrievalWarning(
        WarningCode.FORBIDDEN_HIT,
        f"The overlay {role!r} removed {n} candidate{'s' * (n != 1)} {which}: they are never shown. "
        "See them under Rejected, with the rule that removed each.",
    )


def reference_not_in_corpus(ref: PassageRef) -> RetrievalWarning:
    return RetrievalWarning(
        WarningCode.REFERENCE_NOT_IN_CORPUS,
        f"No study material in this library covers {ref.label()}; results cannot be boosted for it. "
        "A larger library (build-db --all) may.",
    )


def books_not_searchable(needed: Sequence[str], coverage: Coverage | None) -> RetrievalWarning | None:
    """The question names or needs books (:func:`~amicus_desktop.understand.books.books_needed`, the open chapter's,
    the book filter's) this library holds no study material for: which, and how much of the Bible it does hold.

    Only for a library of the Bible's books (one with study material on some book, or one a build is still
    growing); a library complete on all 66 never warns."""
    if coverage is None or coverage.complete or not (coverage.books or coverage.growing):
        return None
    missing = [b for b in dict.fromkeys(needed) if b in BY_ID and b not in coverage.books]
    if not missing:
        return None
    names = [BY_ID[b].name for b in missing]
    which = names[0] if len(names) == 1 else (
        f"{', '.join(names[:-1])} and {names[-1]}" if len(names) <= 3 else f"{', '.join(names[:2])} and "
        f"{len(names) - 2} more books")
    one = len(names) == 1
    count = f"{len(coverage.books)} of {coverage.total} books"
    if coverage.growing:
        message = (f"{which} {'is' if one else 'are'} still being prepared: {count} searchable so far. "
                   f"{'Its' if one else 'Their'} text can be read and searched by words now (Verses); "
                   "the study material follows when the build reaches it.")
    else:
        held = [BY_ID[b].name for b in coverage.books if b in BY_ID]
        have = f"{count}: {', '.join(held)}" if len(held) <= 3 else count
        message = (f"{which} {'has' if one else 'have'} no study material in this library ({have}), so nothing "
                   f"on {'it' if one else 'them'} could be found. {'Its' if one else 'Their'} text can still be "
                   "read and searched by words (Verses); build the whole Bible ('build-db --all --resume') to search "
                   f"{'it' if one else 'them'}.")
    return RetrievalWarning(WarningCode.BOOKS_NOT_SEARCHABLE, message)


def pin_not_found(chunk_id: str) -> RetrievalWarning:
    if chunk_id.startswith("note:"):  # says nothing of any workspace but the question's own
        return RetrievalWarning(
            WarningCode.PIN_NOT_FOUND,
            f"The pinned note {chunk_id!r} is not among the notes of this question's workspace (or it is not "
            "embedded yet); unpin it.",
        )
    return RetrievalWarning(
        WarningCode.PIN_NOT_FOUND,
        f"The pinned chunk {chunk_id!r} is not in this database; unpin it or open the database it came from.",
    )


def notes_pending(count: int) -> RetrievalWarning:
    """Notes of the question's workspace without a vector of the library's model yet."""
    which = "1 of your notes is" if count == 1 else f"{count} of your notes are"
    return RetrievalWarning(
        WarningCode.NOTES_PENDING,
        f"{which} not embedded yet: until then only a search by words (keyword mode) finds them. "
        "They are embedded the next time the embed proxy can be reached.",
    )


def respell(question: str, spelling: Mapping[str, str]) -> str:
    """``question`` with each unknown word replaced by the index word suggested for it."""
    out = question
    for word, better in spelling.items():
        out = _replace_word(out, word, better)
    return out


def _same(a: str, b: str) -> bool:
    """Whether two questions read the same (case and spacing aside)."""
    return " ".join(a.casefold().split()) == " ".join(b.casefold().split())


def _replace_word(text: str, word: str, better: str) -> str:
    return re.sub(rf"(?i)(?<!\w){re.escape(word)}(?!\w)", better, text)


def ranking_warnings(
    results: Sequence[RetrievedChunk],
    rejected: Sequence[RejectedChunk],
    ctx: RetrievalContext,
    floor: MatchFloor | None,
    spelling: Mapping[str, str] | None = None,
) -> list[RetrievalWarning]:
    """The warnings that follow from what is ranked (pins are not part of the ranking)."""
    ranked = [r for r in results if not r.pinned]
    found = [
        forbidden_hit(rejected, ctx),
        no_strong_match(ranked, floor, spelling or {}, ctx.query),
        few_results(ranked, rejected, ctx),
        single_source_type(ranked),
    ]
    return [w for w in found if w is not None]


def chosen_by_reader(warning: RetrievalWarning, ctx: RetrievalContext) -> bool:
    """Whether a warning only restates a choice the reader made: "one kind of material" after filtering to
    one kind. The bundle keeps it (CONTRACT section 7); the app does not show it as a warning."""
    return warning.code is WarningCode.SINGLE_SOURCE_TYPE and len(ctx.filters.source_types) == 1


def lasting_warnings(missing_references: Sequence[PassageRef], missing_pins: Sequence[str],
                     pending_notes: int = 0, *, needed_books: Sequence[str] = (),
                     coverage: Coverage | None = None) -> list[RetrievalWarning]:
    """The warnings about what the question asked for: books the library holds no study material for,
    references and pins the database (and the workspace's notes) lack, and notes not embedded yet."""
    partial = books_not_searchable(needed_books, coverage)
    found = [*([partial] if partial else []), *(reference_not_in_corpus(r) for r in missing_references),
             *(pin_not_found(p) for p in missing_pins)]
    return [*found, notes_pending(pending_notes)] if pending_notes else found

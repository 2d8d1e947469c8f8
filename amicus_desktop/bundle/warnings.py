"""Warnings of the retrieval bundle (CONTRACT section 7), one small rule per code.

Two kinds: *ranking* warnings depend on what is ranked (re-ranking recomputes them) and *lasting*
warnings on what the question asked for (re-ranking keeps them). Messages say what happened and what
to do; they never repeat the question.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ..core.query import RetrievalContext
from ..core.references import PassageRef
from ..core.results import RetrievalWarning, RetrievedChunk, WarningCode


def no_strong_match(
    ranked: Sequence[RetrievedChunk], floor: float | None, spelling: Mapping[str, str], question: str
) -> RetrievalWarning | None:
    """The best ranked result's ``base`` is below the model's floor (never in keyword mode: no floor)."""
    if floor is None:
        return None
    best = max((r.breakdown.base or 0.0 for r in ranked), default=None)
    if best is not None and best >= floor:
        return None
    suggestion = respell(question, spelling) if spelling else None
    if suggestion is not None and _same(suggestion, question):
        suggestion = None  # "Did you mean" the question itself is no suggestion
    message = "Nothing in the library matches this question well"
    message += f" (best match {best:.2f}, below {floor:.2f})." if best is not None else "."
    if suggestion:
        message += f" Did you mean “{suggestion}”?"
    else:
        message += " Try other words, a scripture reference, or search by words."
    return RetrievalWarning(WarningCode.NO_STRONG_MATCH, message, suggestion)


def few_results(ranked: Sequence[RetrievedChunk], k: int) -> RetrievalWarning | None:
    if len(ranked) >= k:
        return None
    return RetrievalWarning(
        WarningCode.FEW_RESULTS,
        f"Only {len(ranked)} of the {k} results asked for passed the ranking. "
        "Loosen the filters, raise the number of candidates, or see the rejected candidates for why.",
    )


def single_source_type(ranked: Sequence[RetrievedChunk]) -> RetrievalWarning | None:
    kinds = {r.candidate.source_type for r in ranked}
    if len(ranked) < 2 or len(kinds) != 1:
        return None
    (kind,) = kinds
    return RetrievalWarning(
        WarningCode.SINGLE_SOURCE_TYPE,
        f"Every result is a {kind.replace('_', ' ')}. Other kinds of material may answer too: "
        "try another mode, or filter by source type to compare.",
    )


def reference_not_in_corpus(ref: PassageRef) -> RetrievalWarning:
    return RetrievalWarning(
        WarningCode.REFERENCE_NOT_IN_CORPUS,
        f"No study material in this library covers {ref.label()}; results cannot be boosted for it. "
        "A larger library (build-db --all) may.",
    )


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
    ctx: RetrievalContext,
    floor: float | None,
    spelling: Mapping[str, str] | None = None,
) -> list[RetrievalWarning]:
    """The warnings that follow from what is ranked (pins are not part of the ranking)."""
    ranked = [r for r in results if not r.pinned]
    found = [
        no_strong_match(ranked, floor, spelling or {}, ctx.query),
        few_results(ranked, ctx.k),
        single_source_type(ranked),
    ]
    return [w for w in found if w is not None]


def lasting_warnings(missing_references: Sequence[PassageRef], missing_pins: Sequence[str],
                     pending_notes: int = 0) -> list[RetrievalWarning]:
    """The warnings about what the question asked for: references and pins the database (and the
    workspace's notes) lack, and notes not embedded yet."""
    found = [*(reference_not_in_corpus(r) for r in missing_references), *(pin_not_found(p) for p in missing_pins)]
    return [*found, notes_pending(pending_notes)] if pending_notes else found

"""The sentences of verse search and of copied scripture (Qt-free): the Verses tab's title and states, each
verse's "why this rank", and the text a reader copies with its reference.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.errors import AmicusError, ErrorCode
from ..core.references import reference_text
from ..states import AskFailure, InternalError
from ..verses import VerseBreakdown, VerseHit, VerseSearchResult

EMPTY = ("Matching verses appear here when you ask a question: the Bible text itself, searched the way "
         "the results are (by meaning, by words or both), each verse with why it ranks where it does.")
BUSY = "Searching the verses…"
NONE_FOUND = "No verse matched. Try other words, or search by meaning."
OPEN_HINT = "Enter or double-click opens the verse in the reader."


def title(result: VerseSearchResult) -> str:
    """``"12 verses · hybrid · World English Bible (WEB)"``."""
    n = len(result.results)
    name = result.translation_name + (f" ({result.translation_abbreviation})" if result.translation_abbreviation
                                      else "")
    return f"{n} verse{'s' * (n != 1)} · {result.mode.value} search · {name}"


def failure_text(failure: AskFailure) -> str:
    """Why the verses could not be searched (what to do is in the sentence)."""
    if isinstance(failure, InternalError):
        return f"Verse search failed because of a problem in Amicus Desktop ({failure.kind}); see the log file."
    if failure.code is ErrorCode.VERSES_NOT_INDEXED:
        return (failure.message.replace("(--mode keyword)", "(the Words mode)")
                .replace("with 'amicus-desktop build-db'", "(File ▸ Build the demo database, or build-db)"))
    return failure.message


def _signal(value: float | None, weight: float) -> float:
    return (value or 0.0) * weight


def why(b: VerseBreakdown, weights: dict[str, float], names: dict[str, str] | None = None) -> list[str]:
    """The breakdown in words, one line a signal that counts, the sum last: what the Verses tab shows."""
    names = names or {}
    lines = []
    labels = (
        ("similarity", "Meaning: the verse is close to the question", None),
        ("keyword", "Words: the verse holds the question's words", None),
        ("phrase", "Phrases: word pairs of the question appear in the verse", None),
        ("commentary", "Commentary: a note on this verse is close to the question", "commentary_source"),
        ("commentary_keyword", "Commentary words: a note on this verse holds the question's words",
         "commentary_keyword_source"),
        ("lexicon", "Lexicon: a word of this verse means what the question asks", "lexicon_source"),
        ("lexicon_keyword", "Lexicon words: a word of this verse is defined with the question's words",
         "lexicon_keyword_source"),
    )
    for key, label, source_key in labels:
        value = getattr(b, key)
        weight = weights.get(key, 0.0)
        if value is None or not weight or not value:
            continue
        source = getattr(b, source_key) if source_key else None
        where = f" ({names.get(source, source)})" if source else ""
        lines.append(f"{label}{where}: {value:.2f} × {weight:g} = {_signal(value, weight):.3f}")
    lines.append(f"Base (the sum): {b.base:.3f}")
    if b.neighbour and weights.get("neighbour"):
        lines.append(f"Neighbour ({b.neighbour_source or '—'} scores {b.neighbour:.3f}) × {weights['neighbour']:g}"
                     f" = +{b.neighbour * weights['neighbour']:.3f}")
    if b.reference_boost != 1.0:
        lines.append(f"Named passage: × {b.reference_boost:g}")
    lines.append(f"Score: {b.final:.3f}")
    return lines


def copied(reference: str, abbreviation: str, verses: Sequence[tuple[int, str]]) -> str:
    """Scripture as a reader copies it: the verses' text, then ``— Romans 8:28 (WEB)``."""
    text = " ".join(t for _n, t in verses)
    label = f" ({abbreviation})" if abbreviation else ""
    return f"{text}\n— {reference}{label}"


def verse_reference(book_name: str, chapter: int, verses: Sequence[int]) -> str:
    """``Romans 8:28`` or ``Romans 8:28-30`` for the verse numbers given (first to last)."""
    return reference_text(book_name, chapter, min(verses), max(verses))


def copied_status(reference: str, abbreviation: str) -> str:
    return f"Copied {reference}" + (f" ({abbreviation})" if abbreviation else "") + " with its reference."


def hit_reference(hit: VerseHit, abbreviation: str) -> str:
    return hit.reference + (f" ({abbreviation})" if abbreviation else "")


def is_not_indexed(failure: AskFailure | None) -> bool:
    return isinstance(failure, AmicusError) and failure.code is ErrorCode.VERSES_NOT_INDEXED

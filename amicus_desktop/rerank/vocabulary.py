"""An overlay's vocabulary factor (CONTRACT section 12): the role's words count, or count against.

``vocabulary_boost`` is ``weight`` (``weights.vocabulary``) when a chunk's text holds one of the
overlay's boost terms, ``1 / weight`` when it holds a suppress term — a suppress term wins over a boost
term in the same chunk — and 1.0 otherwise.

A term matches as **whole words, case-insensitively, with accents folded** ("Covenant" and "COVENANT"
match ``covenant``; "covenanted" does not; ``agape`` matches "agápē"); a term of several words matches
them in that order with any spacing between. Terms are **not stemmed**: "covenants" is another term, so
a curator lists the forms that matter. (The keyword search the boost terms also join stems both sides,
as it always does — CONTRACT section 6.) Pure and cached: the terms are compiled once per overlay.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from ..core.governance import Governance
from ..understand.query import fold


@lru_cache(maxsize=64)
def _pattern(terms: tuple[str, ...]) -> re.Pattern[str] | None:
    """One expression matching any of ``terms`` as whole words of folded text (``None``: no terms)."""
    parts = []
    for term in terms:
        words = fold(term).split()
        if words:
            parts.append(r"\s+".join(re.escape(w) for w in words))
    if not parts:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(parts) + r")(?!\w)")


def holds(text: str, terms: Sequence[str]) -> bool:
    """Whether ``text`` holds one of ``terms`` (whole words, any case, accents folded)."""
    return first_term(text, terms) is not None


def first_term(text: str, terms: Sequence[str]) -> str | None:
    """The first of ``terms`` (in their order) that ``text`` holds, for saying why a factor applied."""
    folded = fold(text)
    for term in terms:
        pattern = _pattern((term,))
        if pattern is not None and pattern.search(folded) is not None:
            return term
    return None


#: Under the app's ranking, a boost term multiplies a passage only when the passage is one the question relates
#: to on its own: its similarity in meaning (which the boost words, joining the keyword search, do not lift) at
#: least this share of the best candidate's (docs/UI.md, "Overlay words").
RELATED_SHARE = 0.7


def related_floor(similarities: Iterable[float | None], governance: Governance | None, contract: bool) -> float:
    """The similarity a passage needs for a boost term to multiply it: 0 under the contract's ranking, without
    boost terms, or when the overlay says they count in every question; else :data:`RELATED_SHARE` of the best
    (in keyword mode, with no similarities, 0: the words are the question's search)."""
    if contract or governance is None or not governance.boost_terms or governance.vocabulary_everywhere:
        return 0.0
    return RELATED_SHARE * max((s for s in similarities if s is not None), default=0.0)


def vocabulary_boost(text: str, governance: Governance | None, weight: float, related: bool = True) -> float:
    """The chunk's vocabulary factor under ``governance`` (1.0 without an overlay or its terms); ``related``
    ``False`` (the passage is below :func:`related_floor`): a boost term does not count (a suppress term does)."""
    if governance is None or not governance.has_vocabulary:
        return 1.0
    if holds(text, governance.suppress_terms):
        return 1.0 / weight
    if related and holds(text, governance.boost_terms):
        return weight
    return 1.0

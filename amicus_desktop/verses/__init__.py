"""Verse search: "find the verse I am thinking of" over the Bible text itself (CONTRACT section 14). No Qt.

    signals  what the library says about each candidate verse (database thread)
    score    the weighted sum, the neighbour's share, the reference boost, order, adjacent verses joined
    engine   VerseSearch over a Retriever: errors in the contract's order, embedding, timings
"""

from .engine import VerseLibrary, VerseSearch
from .model import VerseBreakdown, VerseHit, VerseQuery, VerseSearchResult, VerseWeights

__all__ = ["VerseBreakdown", "VerseHit", "VerseLibrary", "VerseQuery", "VerseSearch", "VerseSearchResult",
           "VerseWeights"]

"""Ranking verses from their signals (pure): the weighted sum, the neighbour's share, the reference boost,
the order, and adjacent verses joined into one result.

A verse's ``base`` is the weighted sum of its signals (:mod:`.model`); ``final`` adds ``w_n`` × the better
of its two neighbours' bases (a verse's meaning often runs on into the next: the neighbour of a strong
verse is worth reading) and multiplies by the reference boost when the question names the verse's
passage. Order: ``final`` descending, then ``base``, then canonical order. Walking that order, a verse
next to the result just above it (same chapter, one verse before or after its range) that scores within
:data:`JOIN_WITHIN` of that result's best joins it, up to :data:`MAX_SPAN` verses: "Romans 8:38-39" rather
than two results, while a verse that clearly leads (a quotation's own verse) stays alone. The flattened
verse order is unchanged by the joining.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..core.query import SearchMode
from .model import VerseBreakdown, VerseWeights
from .signals import Sourced, VerseSignals

MAX_SPAN = 3
#: a neighbour joins a result when its final score is at least this share of the result's best
JOIN_WITHIN = 0.9


@dataclass(frozen=True)
class RankedVerse:
    rowid: int
    breakdown: VerseBreakdown


@dataclass(frozen=True)
class RankedGroup:
    """Adjacent ranked verses of one chapter, best first in :attr:`members`."""

    members: tuple[RankedVerse, ...]

    @property
    def best(self) -> RankedVerse:
        return self.members[0]

    @property
    def rowids(self) -> list[int]:
        return sorted(m.rowid for m in self.members)


def _value(signal: dict[int, float] | dict[int, Sourced], rowid: int) -> float:
    value = signal.get(rowid)
    if value is None:
        return 0.0
    return value.value if isinstance(value, Sourced) else float(value)


def _source(signal: dict[int, Sourced], rowid: int) -> str | None:
    hit = signal.get(rowid)
    return hit.source if hit is not None else None


def rank(signals: VerseSignals, weights: VerseWeights, mode: SearchMode,
         neighbours: Callable[[int], Sequence[int]], verse_id: Callable[[int], str],
         top: int | None = None) -> list[RankedVerse]:
    """The candidates scored and ordered best first; with ``top``, only the first ``top`` of them."""
    w = weights
    s = signals
    parts = [(signal, weight) for signal, weight in (
        (s.similarity, w.similarity), (s.keyword, w.keyword), (s.phrase, w.phrase), (s.commentary, w.commentary),
        (s.commentary_keyword, w.commentary_keyword), (s.lexicon, w.lexicon), (s.lexicon_keyword, w.lexicon_keyword),
    ) if weight]
    base = {r: sum(weight * _value(signal, r) for signal, weight in parts) for r in s.scored}
    best_near: dict[int, int | None] = {}
    final: dict[int, float] = {}
    for r in s.candidates:
        near = [n for n in neighbours(r) if n in base]
        best = max(near, key=lambda n: (base[n], -n)) if near else None
        best_near[r] = best
        share = base[best] if best is not None else 0.0
        final[r] = (base[r] + w.neighbour * share) * (w.reference if r in s.referenced else 1.0)
    order = sorted(s.candidates, key=lambda r: (-final[r], -base[r], r))
    return [RankedVerse(r, _breakdown(r, s, w, mode, base, best_near[r], final[r], verse_id))
            for r in (order if top is None else order[:top])]


def _breakdown(r: int, s: VerseSignals, w: VerseWeights, mode: SearchMode, base: dict[int, float],
               best: int | None, final: float, verse_id: Callable[[int], str]) -> VerseBreakdown:
    def shown(signal: dict[int, float] | dict[int, Sourced], weight: float) -> float | None:
        return _value(signal, r) if weight else None

    return VerseBreakdown(
        mode=mode,
        similarity=shown(s.similarity, w.similarity), keyword=shown(s.keyword, w.keyword),
        phrase=shown(s.phrase, w.phrase),
        commentary=shown(s.commentary, w.commentary),
        commentary_keyword=shown(s.commentary_keyword, w.commentary_keyword),
        lexicon=shown(s.lexicon, w.lexicon), lexicon_keyword=shown(s.lexicon_keyword, w.lexicon_keyword),
        base=base[r], neighbour=base[best] if best is not None else 0.0,
        reference_boost=w.reference if r in s.referenced else 1.0, final=final,
        commentary_source=_source(s.commentary, r) if w.commentary else None,
        commentary_keyword_source=_source(s.commentary_keyword, r) if w.commentary_keyword else None,
        lexicon_source=_source(s.lexicon, r) if w.lexicon else None,
        lexicon_keyword_source=_source(s.lexicon_keyword, r) if w.lexicon_keyword else None,
        neighbour_source=verse_id(best) if best is not None and w.neighbour else None,
    )


def group(ranked: Sequence[RankedVerse], k: int, chapter_of: Callable[[int], tuple[str, int]]) -> list[RankedGroup]:
    """The first ``k`` results, a verse joining the result just above it when adjacent (see module doc)."""
    groups: list[list[RankedVerse]] = []
    for verse in ranked:
        if groups:
            last = groups[-1]
            ids = [m.rowid for m in last]
            if (len(last) < MAX_SPAN and chapter_of(verse.rowid) == chapter_of(ids[0])
                    and verse.rowid in (min(ids) - 1, max(ids) + 1)
                    and verse.breakdown.final >= JOIN_WITHIN * last[0].breakdown.final):
                last.append(verse)
                continue
        if len(groups) == k:
            break
        groups.append([verse])
    return [RankedGroup(tuple(g)) for g in groups]

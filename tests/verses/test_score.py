"""Ranking verses from their signals (pure): weighted sum, neighbour share, reference boost, order, joining."""

from __future__ import annotations

from typing import Any

import pytest

from amicus_desktop.core.query import SearchMode
from amicus_desktop.verses.model import VerseWeights
from amicus_desktop.verses.score import JOIN_WITHIN, MAX_SPAN, group, rank
from amicus_desktop.verses.signals import Sourced, VerseSignals

#: rowid → (book, chapter): 1-5 in chapter 1, 6-9 in chapter 2
CHAPTER = {r: ("john", 1 if r <= 5 else 2) for r in range(1, 10)}


def neighbours(r: int) -> list[int]:
    return [n for n in (r - 1, r + 1) if n in CHAPTER and CHAPTER[n] == CHAPTER[r]]


def verse_id(r: int) -> str:
    return f"john:{CHAPTER[r][1]}:{r}"


def signals(sim: dict[int, float], **more: Any) -> VerseSignals:
    return VerseSignals(candidates=sorted(sim), scored=sorted(sim), similarity=sim, **more)


def test_the_base_is_the_weighted_sum_and_the_final_adds_the_better_neighbour() -> None:
    s = signals({1: 0.5, 2: 0.2, 3: 0.9}, keyword={2: 0.4},
                commentary={2: Sourced(0.6, "mhcc:john:1:1-5#1")}, lexicon={2: Sourced(0.3, "G3056")})
    w = VerseWeights(neighbour=0.5, lexicon=0.5)  # the lexicon's weight given here: its default is tuned (RELEVANCE.md)
    ranked = {v.rowid: v.breakdown for v in rank(s, w, SearchMode.HYBRID, neighbours, verse_id)}
    b = ranked[2]
    assert b.base == pytest.approx(0.2 + 0.1 * 0.4 + 0.5 * 0.6 + 0.5 * 0.3)
    assert b.neighbour == pytest.approx(0.9) and b.neighbour_source == "john:1:3"  # verse 3's base beats verse 1's
    assert b.final == pytest.approx(b.base + 0.5 * 0.9)
    assert (b.commentary_source, b.lexicon_source) == ("mhcc:john:1:1-5#1", "G3056")
    assert ranked[1].commentary is None or ranked[1].commentary == 0.0


def test_a_chapter_boundary_is_not_a_neighbour_and_the_reference_boost_multiplies() -> None:
    s = signals({5: 0.3, 6: 0.9}, referenced={5})
    ranked = {v.rowid: v.breakdown for v in rank(s, VerseWeights(), SearchMode.SEMANTIC, neighbours, verse_id)}
    assert ranked[5].neighbour == 0.0 and ranked[5].neighbour_source is None
    assert ranked[5].reference_boost == 1.25 and ranked[5].final == pytest.approx(0.3 * 1.25)
    assert ranked[6].reference_boost == 1.0


def test_signals_a_mode_does_not_use_are_shown_as_not_computed() -> None:
    s = signals({1: 0.5}, keyword={1: 0.7})
    (b,) = [v.breakdown for v in rank(s, VerseWeights.for_mode(SearchMode.SEMANTIC), SearchMode.SEMANTIC,
                                      neighbours, verse_id)]
    assert b.keyword is None and b.phrase is None and b.similarity == 0.5
    (b,) = [v.breakdown for v in rank(s, VerseWeights.for_mode(SearchMode.KEYWORD), SearchMode.KEYWORD,
                                      neighbours, verse_id)]
    assert b.similarity is None and b.keyword == 0.7 and b.base == pytest.approx(0.7)


def test_order_is_final_then_base_then_canonical() -> None:
    s = signals({3: 0.5, 1: 0.5, 8: 0.5})
    order = [v.rowid for v in rank(s, VerseWeights(neighbour=0.0), SearchMode.SEMANTIC, neighbours, verse_id)]
    assert order == [1, 3, 8]


def chapter_of(r: int) -> tuple[str, int]:
    return CHAPTER[r]


def test_adjacent_verses_that_rank_together_join_one_result() -> None:
    s = signals({2: 0.99, 3: 1.0, 4: 0.98, 5: 0.97, 6: 0.96, 9: 0.2})
    ranked = rank(s, VerseWeights(neighbour=0.0), SearchMode.SEMANTIC, neighbours, verse_id)
    groups = group(ranked, 10, chapter_of)
    assert [g.rowids for g in groups] == [[2, 3, 4], [5], [6], [9]]  # at most MAX_SPAN; 6 is another chapter
    assert MAX_SPAN == 3
    assert [m.rowid for g in groups for m in g.members] == [v.rowid for v in ranked]  # flattened order kept
    assert [g.best.rowid for g in groups] == [3, 5, 6, 9]


def test_a_verse_that_clearly_leads_stays_alone_and_k_counts_results() -> None:
    s = signals({3: 1.0, 4: 0.8 * JOIN_WITHIN, 7: 0.5, 8: 0.49})
    groups = group(rank(s, VerseWeights(neighbour=0.0), SearchMode.SEMANTIC, neighbours, verse_id), 2, chapter_of)
    assert [g.rowids for g in groups] == [[3], [4]]

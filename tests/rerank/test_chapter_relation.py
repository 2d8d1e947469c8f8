"""The open chapter helps where the question relates to it (issue 33): the app's ranking sets the chapter aside
for a question about something else, and lifts only the chapter's passages that are near the question — and the
contract's ranking boosts every passage of the open chapter, as section 6 says."""

from __future__ import annotations

from typing import Any

import pytest

from amicus_desktop.core.query import RankingPolicy, RetrievalContext
from amicus_desktop.core.references import ChapterRef
from amicus_desktop.core.results import Candidate, ChunkMetadata
from amicus_desktop.present.breakdown import breakdown_steps
from amicus_desktop.rerank import rerank
from amicus_desktop.rerank.focus import chapter_relation

ROMANS_8 = ChapterRef("romans", 8)
POLICY = RankingPolicy(source_priors=True, focus=1.2, chapter_relation=0.8, chapter_floor=0.8)


def note(chunk_id: str, distance: float, book: str, chapter: int, **meta: Any) -> Candidate:
    return Candidate(0, chunk_id, "section_panel", chunk_id, "text",
                     ChunkMetadata(book_id=book, chapter_num=chapter, scholar_id=meta.pop("scholar", "henry"), **meta),
                     distance)


def government() -> list[Candidate]:
    """"How should Christians treat the government?": Romans 13 answers, Romans 8 does not."""
    return [note("rom13-a", 0.40, "romans", 13), note("rom13-b", 0.45, "romans", 13, scholar="scofield"),
            note("rom8-a", 0.55, "romans", 8), note("rom8-b", 0.60, "romans", 8, scholar="scofield")]


def test_the_relation_is_the_chapters_evidence_against_the_best_chapters() -> None:
    cands = government()
    bases = {c.chunk_id: 1 - (c.distance or 0) for c in cands}
    assert chapter_relation(cands, bases, ChapterRef("romans", 13)) == 1.0
    assert chapter_relation(cands, bases, ROMANS_8) == pytest.approx((0.45 + 0.4 / 2) / (0.6 + 0.55 / 2))
    assert chapter_relation(cands, bases, ChapterRef("john", 3)) == 0.0  # no commentary on it in the pool


def test_an_unrelated_open_chapter_is_set_aside_and_says_so() -> None:
    ctx = RetrievalContext(query="How should Christians treat the government?", chapter=ROMANS_8, policy=POLICY)
    results, _ = rerank(government(), ctx)
    assert [r.chunk_id for r in results[:2]] == ["rom13-a", "rom13-b"]
    by_id = {r.chunk_id: r.breakdown for r in results}
    assert by_id["rom8-a"].chapter_boost == 1.0 and by_id["rom8-a"].chapter_off_topic
    assert not by_id["rom8-a"].chapter_suspended  # that flag is for a passage the question names
    assert by_id["rom13-a"].chapter_focus  # ranked as with no chapter open: the focus chapter applies
    assert by_id["rom8-a"].to_json()["chapter_off_topic"] is True
    off = next(r for r in results if r.chunk_id == "rom8-a")
    steps = breakdown_steps(off.breakdown, off.candidate, ctx)
    assert any("chapter" in s.label and "not about your question" in s.words for s in steps)


def test_a_related_open_chapter_lifts_only_its_passages_near_the_question() -> None:
    cands = [note("rom8-a", 0.40, "romans", 8), note("rom8-far", 0.75, "romans", 8, scholar="scofield"),
             note("rom5", 0.45, "romans", 5, scholar="other")]
    ctx = RetrievalContext(query="no condemnation", chapter=ROMANS_8, policy=POLICY)
    by_id = {r.chunk_id: r.breakdown for r in rerank(cands, ctx)[0]}
    assert by_id["rom8-a"].chapter_boost == 1.5 and not by_id["rom8-a"].chapter_off_topic
    # 0.25 is below 0.8 × the best base (0.6): no lift, and the breakdown says why
    assert by_id["rom8-far"].chapter_boost == 1.0 and by_id["rom8-far"].chapter_off_topic


def test_the_contract_boosts_every_passage_of_the_open_chapter() -> None:
    ctx = RetrievalContext(query="How should Christians treat the government?", chapter=ROMANS_8)
    results, _ = rerank(government(), ctx)
    by_id = {r.chunk_id: r.breakdown for r in results}
    assert by_id["rom8-a"].chapter_boost == by_id["rom8-b"].chapter_boost == 1.5
    assert "chapter_off_topic" not in by_id["rom8-a"].to_json()

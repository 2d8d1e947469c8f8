"""Issue 33 item 7: a topical question over the whole library, with no chapter applying, gets notes on a passage
before notes that expound one verse (on the whole Bible Spurgeon's Psalms and Henry's Proverbs, verse by verse,
held a third of full questions' top 10). On the real demo library through the real embed proxy, with the app's own
retrieval."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.retrieval.test_reader_cases import ask, henry, on, rank_of

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]


def source(r):  # type: ignore[no-untyped-def]
    return next(f for f in r.breakdown.factors if f.name == "source")


def test_a_note_on_one_verse_gives_way_to_notes_on_a_passage(demo_db: Path, local_proxy) -> None:
    result = ask(demo_db, local_proxy.url, "What does the Holy Spirit do in a believer's life?")
    # before: Henry on Romans 8:9 alone was 6th at full weight and Henry on John 16:7-15 (the Spirit's work) was out
    assert rank_of(result, lambda r: henry(r) and on("john", 16, 8)(r)) <= 10
    assert rank_of(result, lambda r: r.chunk_id == "mhcc:romans:8:9-9#1") > 10  # lowered ×0.8, out of the list
    named = ask(demo_db, local_proxy.url, "What does Romans 8:9 say the Holy Spirit does?")  # names the passage
    assert rank_of(named, lambda r: r.chunk_id == "mhcc:romans:8:9-9#1") <= 3
    assert all(source(r).value == 1.0 for r in named.ranked if r.candidate.source_type == "section_panel")
    headed = [r for r in result.ranked if r.chunk_id.startswith("scofield:") and r.candidate.metadata.verse_start
              is not None and r.candidate.metadata.verse_start == r.candidate.metadata.verse_end]
    assert headed and all(source(r).value == 1.0 for r in headed)  # "Comforter: …": a note on a subject counts fully

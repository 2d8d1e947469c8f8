"""Issue 33: answers that follow the question, not the open chapter — the cases a reader reported, on the real demo
library through the real embed proxy, with the app's own retrieval (:func:`app_context`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from amicus_desktop.core.references import ChapterRef
from amicus_desktop.core.results import Origin
from tests.retrieval.test_reader_cases import ask, henry, on, rank_of

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]
ROMANS_8 = ChapterRef("romans", 8)


def test_the_government_question_with_romans_8_open_leads_with_romans_13(demo_db: Path, local_proxy) -> None:
    result = ask(demo_db, local_proxy.url, "How should Christians treat the government?", ROMANS_8)
    assert henry(result.ranked[0]) and on("romans", 13, 1)(result.ranked[0])
    assert rank_of(result, lambda r: henry(r) and on("romans", 13, 5)(r)) <= 3
    chapter_8 = [r for r in result.ranked if on("romans", 8)(r)]
    assert all(r.breakdown.chapter_boost == 1.0 and r.breakdown.chapter_off_topic for r in chapter_8)


def test_born_again_with_romans_8_open_finds_the_new_birth(demo_db: Path, local_proxy) -> None:
    result = ask(demo_db, local_proxy.url, "What does it mean to be born again?", ROMANS_8)
    assert rank_of(result, lambda r: henry(r) and on("john", 3, 3)(r)) <= 10
    assert rank_of(result, on("john", 3)) == 1
    # John 3 leads; Romans 8's material ranks only by its own score (Scofield's note on the Spirit's work, #3
    # since the dictionary weighs less with no chapter applying), never by the chapter's ×1.5
    assert rank_of(result, on("romans", 8)) > 2
    assert all(r.breakdown.chapter_boost == 1.0 for r in result.ranked if on("romans", 8)(r))


def test_a_question_about_the_open_chapter_still_gets_its_boost(demo_db: Path, local_proxy) -> None:
    result = ask(demo_db, local_proxy.url, "Who shall separate us from the love of Christ?", ROMANS_8)
    first = result.ranked[0]
    assert on("romans", 8, 35)(first) and first.breakdown.chapter_boost == 1.5
    assert not any(r.breakdown.chapter_off_topic for r in result.ranked)


def test_a_named_chapter_keeps_its_notes_whoever_wrote_them(demo_db: Path, local_proxy) -> None:
    """"predestination and free will in Romans 9" with Romans 8 open: Henry's notes on Romans 9 are many, and the
    spread used to lower his seventh below the cut-off; a note on the named passage is never lowered now."""
    result = ask(demo_db, local_proxy.url, "predestination and free will in Romans 9", ROMANS_8)
    assert rank_of(result, lambda r: henry(r) and on("romans", 9, 6)(r)) <= 10
    assert rank_of(result, lambda r: henry(r) and on("romans", 9, 14)(r)) <= 3
    named = [r for r in result.ranked if on("romans", 9)(r)]
    assert named and all(r.breakdown.diversity == 1.0 for r in named)


def test_a_question_that_quotes_the_open_chapter_relates_to_it(demo_db: Path, local_proxy) -> None:
    """"Simon Peter was standing and warming himself" (John 18:25) with John 18 open: the library's commentary on
    the words centres on John 21 (Peter restored), and the chapter used to be set aside as unrelated; the question
    quotes a verse of it (:mod:`amicus_desktop.candidates.quoted`), so the chapter applies and Henry on the denial
    leads."""
    john_18 = ChapterRef("john", 18)
    result = ask(demo_db, local_proxy.url, "Simon Peter was standing and warming himself", john_18)
    assert john_18 in result.quoted
    first = result.ranked[0]
    assert henry(first) and on("john", 18, 25)(first) and first.breakdown.chapter_boost == 1.5
    assert not any(r.breakdown.chapter_off_topic for r in result.ranked)


def test_the_notes_on_a_quoted_verse_join_the_answer(demo_db: Path, local_proxy) -> None:
    """"in the garden was a new tomb" with John 19 open: no search found Henry on John 19:38-42 (the burial), and
    the chapter was set aside; the notes covering the quoted verse (19:41) join the pool, the chapter applies."""
    result = ask(demo_db, local_proxy.url, "in the garden was a new tomb", ChapterRef("john", 19))
    burial = next(r for r in result.ranked if henry(r) and on("john", 19, 41)(r))
    assert burial.rank <= 3 and Origin.QUOTE in burial.candidate.origins and burial.breakdown.chapter_boost == 1.5
    assert not any(r.breakdown.chapter_off_topic for r in result.ranked)


def test_the_verse_a_reader_half_remembers_keeps_its_chapter(demo_db: Path, local_proxy) -> None:
    """The reported case: "all things work together for good" with Romans 8 open (the Verses tab's first is
    Romans 8:28) keeps the chapter's boost and leads with Henry on Romans 8:28 — quoted, whatever else the
    commentary on the words says (on a whole-Bible library it centres on Ecclesiastes 3)."""
    result = ask(demo_db, local_proxy.url, "all things work together for good", ROMANS_8)
    assert result.quoted == (ROMANS_8,)
    first = result.ranked[0]
    assert henry(first) and on("romans", 8, 28)(first) and first.breakdown.chapter_boost == 1.5


def test_a_common_phrase_or_a_topic_quotes_no_chapter(demo_db: Path, local_proxy) -> None:
    """Many verses hold "the love of God"; the government question quotes none: neither relates a chapter by its
    words (the government question with Romans 8 open still sets it aside, above)."""
    assert ask(demo_db, local_proxy.url, "the love of God", ROMANS_8).quoted == ()
    assert ask(demo_db, local_proxy.url, "How should Christians treat the government?", ROMANS_8).quoted == ()


def test_a_verse_of_the_open_chapter_named_in_the_question_keeps_the_chapter(demo_db: Path, local_proxy) -> None:
    """"What does Romans 8:28 promise?" with Romans 8 open: the candidates' evidence (Abraham's promise in Romans 4,
    by its words) set the open chapter aside as "not about this question", and Henry on Romans 8:28 came 5th. A
    question naming a verse of the open chapter is about it: the chapter and the named passage both apply."""
    result = ask(demo_db, local_proxy.url, "What does Romans 8:28 promise?", ROMANS_8)
    assert henry(result.ranked[0]) and on("romans", 8, 28)(result.ranked[0])
    assert not any(r.breakdown.chapter_off_topic for r in result.ranked)
    covering = [r for r in result.ranked if henry(r) and on("romans", 8, 28)(r)]
    assert len(covering) == 3 and all(r.breakdown.chapter_boost == 1.5 for r in covering)


def test_what_a_named_verse_means_is_answered_by_its_commentary(demo_db: Path, local_proxy) -> None:
    """"What does John 3:16 mean?" with John 3 open: "mean" made it a question about a word, the dictionary counted
    in full, and word studies filed under John 3 (βασιλεία, Νικόδημος) came first. It asks what a passage means."""
    result = ask(demo_db, local_proxy.url, "What does John 3:16 mean?", ChapterRef("john", 3))
    first = result.ranked[0]
    assert on("john", 3, 16)(first) and first.candidate.source_type == "section_panel", first.candidate.chunk_id
    assert rank_of(result, lambda r: henry(r) and on("john", 3, 16)(r)) <= 2


def test_a_rare_name_in_the_open_chapter_relates_it(demo_db: Path, local_proxy) -> None:
    """"Who was Melchizedek?" with Hebrews 7 open: the library's commentary on the name centres elsewhere (on the
    whole Bible, Genesis 14; here, with no study of Hebrews, nowhere), and the open chapter was set aside. The name
    stands in ten verses of the Bible, five of them in Hebrews 7: the chapter relates to the question, and its
    verses holding the name lead to their notes as a quote's do. A common word in the chapter relates nothing."""
    hebrews_7 = ChapterRef("hebrews", 7)
    result = ask(demo_db, local_proxy.url, "Who was Melchizedek?", hebrews_7)
    assert hebrews_7 in result.quoted
    government = ask(demo_db, local_proxy.url, "How should Christians treat the government?", ROMANS_8)
    assert ROMANS_8 not in government.quoted
    faith = ask(demo_db, local_proxy.url, "What is faith?", ROMANS_8)  # "faith": in hundreds of verses
    assert ROMANS_8 not in faith.quoted

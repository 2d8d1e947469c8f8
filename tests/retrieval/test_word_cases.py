"""Issue 33: a word question gets the word's meaning — its own entries first, then the commentary where the word
is used — not the dictionary entries its letters resemble; and a good answer carries no "no strong match".
On the real demo library through the real embed proxy, with the app's own retrieval."""

from __future__ import annotations

from pathlib import Path

import pytest

from amicus_desktop.core.references import ChapterRef
from amicus_desktop.core.results import Origin, WarningCode
from amicus_desktop.rerank.prior import Material, about_another_word, material, word_stems
from tests.retrieval.test_reader_cases import ask, henry, on, rank_of

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]


def own(number: str):  # type: ignore[no-untyped-def]
    def test(r) -> bool:  # type: ignore[no-untyped-def]
        cid = r.chunk_id
        return cid == f"strongs:{number}" or cid.startswith((f"abbott-smith:{number}#", f"wordstudy:{number}:"))
    return test


def test_agape_brings_its_entries_then_commentary_on_love_not_its_alphabetical_neighbours(demo_db: Path,
                                                                                           local_proxy) -> None:
    result = ask(demo_db, local_proxy.url, "agape")
    assert all(own("G26")(r) for r in result.ranked[:4])  # Strong's, both word studies, Abbott-Smith
    stray = {"strongs:G514", "strongs:G1296", "strongs:G21", "strongs:G4863"}  # ἄξιος, διαταγή, ἀγαλλιάω, συνάγω
    assert not stray & {r.chunk_id for r in result.ranked}
    notes = [r for r in result.ranked if material(r.candidate) is Material.COMMENTARY]
    assert notes and all(Origin.WORD in r.candidate.origins for r in notes)  # the bridge: where ἀγάπη is used
    assert WarningCode.NO_STRONG_MATCH not in {w.code for w in result.warnings}


def test_logos_brings_its_entries_and_the_prologue(demo_db: Path, local_proxy) -> None:
    result = ask(demo_db, local_proxy.url, "logos", ChapterRef("romans", 8))
    assert own("G3056")(result.ranked[0])
    assert rank_of(result, lambda r: own("G3056")(r) and r.chunk_id.startswith("abbott-smith:")) <= 7
    assert rank_of(result, lambda r: r.chunk_id == "scofield:john:intro#2") <= 3  # Scofield's prologue: the Word
    assert not any(on("romans", 8)(r) for r in result.ranked)  # Romans 8 open has nothing to do with it
    assert WarningCode.NO_STRONG_MATCH not in {w.code for w in result.warnings}


def test_an_english_word_is_a_topic_not_a_transliteration(demo_db: Path, local_proxy) -> None:
    result = ask(demo_db, local_proxy.url, "propitiation")
    assert not any(Origin.WORD in r.candidate.origins for r in result.ranked)
    assert result.ranked[0].chunk_id == "scofield:romans:3:25:propitiation#1"


def test_no_strong_match_stays_quiet_over_romans_13_for_the_government_question(demo_db: Path, local_proxy) -> None:
    result = ask(demo_db, local_proxy.url, "How should Christians treat the government?", ChapterRef("romans", 8))
    assert henry(result.ranked[0]) and on("romans", 13)(result.ranked[0])
    assert WarningCode.NO_STRONG_MATCH not in {w.code for w in result.warnings}
    nonsense = ask(demo_db, local_proxy.url, "What is the capital of France?")
    assert WarningCode.NO_STRONG_MATCH in {w.code for w in nonsense.warnings}


def test_a_word_question_lowers_word_studies_of_other_words(demo_db: Path, local_proxy) -> None:
    """"What is the wrath of God?" asks about a word, so the dictionary counts fully — but only entries about its
    words: ἡμεῖς ("we") and ὑποτάσσω ("to subject") quote verses of Romans holding "wrath" and "God" and used to
    stand 3rd and 4th; a word study whose head (the word, its meaning, its renderings) holds none of the question's
    words counts as it would for a topical question, and Henry on Romans 1:18 (the wrath revealed) joins the top 5."""
    result = ask(demo_db, local_proxy.url, "What is the wrath of God?")
    assert own("G3709")(result.ranked[0])  # ὀργή, the word itself
    studies = [r for r in result.ranked[:5] if material(r.candidate) is Material.WORD_STUDY]
    assert studies and all(not about_another_word(r.candidate, word_stems("What is the wrath of God?"))
                           for r in studies)
    assert not {"wordstudy:G2249:romans", "wordstudy:G5293:romans"} & {r.chunk_id for r in result.ranked[:5]}
    assert rank_of(result, lambda r: henry(r) and on("romans", 1, 18)(r)) <= 5
    other = [r for r in result.ranked if about_another_word(r.candidate, word_stems("What is the wrath of God?"))]
    assert all(r.breakdown.source_prior < 1.0 for r in other)

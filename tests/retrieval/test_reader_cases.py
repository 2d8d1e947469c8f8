"""What a reader gets (issue "answers a reader can trust"): the cases found in a real window, on the real demo
library (Romans and John, built by the test with the real local model) through the real embed proxy, with the
app's own retrieval (:func:`amicus_desktop.session.controller.app_context`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from amicus_desktop.core.query import RetrievalContext, SearchMode
from amicus_desktop.core.references import ChapterRef, PassageRef
from amicus_desktop.core.results import RetrievalResult, WarningCode
from amicus_desktop.rerank.prior import Material, material
from amicus_desktop.retrieval import retrieve
from amicus_desktop.session.controller import app_context
from amicus_desktop.settings import Settings
from amicus_desktop.store import ScriptureStore

# building the demo library takes about a minute on a quiet 2-core machine, several under load
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]


def ask(db: Path, proxy_url: str, question: str, chapter: ChapterRef | None = None) -> RetrievalResult:
    return retrieve(app_context(Settings(), question, chapter=chapter), db=db, proxy=proxy_url)


def rank_of(result: RetrievalResult, predicate) -> int:  # type: ignore[no-untyped-def]
    return next((r.rank for r in result.ranked if predicate(r)), 99)


def on(book: str, chapter: int, verse: int | None = None):  # type: ignore[no-untyped-def]
    def test(r) -> bool:  # type: ignore[no-untyped-def]
        m = r.candidate.metadata
        if (m.book_id, m.chapter_num) != (book, chapter):
            return False
        return verse is None or m.verse_start is None or m.verse_start <= verse <= (m.verse_end or m.verse_start)
    return test


def henry(r) -> bool:  # type: ignore[no-untyped-def]
    return r.candidate.metadata.scholar_id == "matthew-henry" and r.candidate.source_type == "section_panel"


def test_a_word_question_gets_a_full_list_with_its_word_studies(demo_db: Path, local_proxy) -> None:
    result = ask(demo_db, local_proxy.url, "agape")
    assert len(result.ranked) == 10 and WarningCode.FEW_RESULTS not in {w.code for w in result.warnings}
    studies = [r for r in result.ranked[:5] if r.candidate.source_type == "word_study" and "G26" in r.chunk_id]
    assert studies, "the ἀγάπη word studies are in the top 5, not rejected by a cap"


def test_a_verse_question_keeps_henrys_note_on_the_verse(demo_db: Path, local_proxy) -> None:
    result = ask(demo_db, local_proxy.url, "Romans 8:28")
    assert len(result.ranked) == 10
    assert rank_of(result, lambda r: henry(r) and on("romans", 8, 28)(r)) <= 3


def test_the_passage_named_comes_before_the_open_chapter(demo_db: Path, local_proxy) -> None:
    result = ask(demo_db, local_proxy.url, "predestination and free will in Romans 9", ChapterRef("romans", 3))
    named = rank_of(result, on("romans", 9))
    assert named < rank_of(result, on("romans", 3))
    assert rank_of(result, lambda r: henry(r) and on("romans", 9, 14)(r)) <= 3
    suspended = [r for r in result.ranked if on("romans", 3)(r)]
    assert all(r.breakdown.chapter_suspended for r in suspended)  # and the breakdown says why


def test_names_do_not_crowd_out_commentary(demo_db: Path, local_proxy) -> None:
    paul = ask(demo_db, local_proxy.url, "Tell me about Paul")
    assert all(material(r.candidate) is not Material.NAME for r in paul.ranked[:5])  # no "Sergius Paulus"
    jacob = ask(demo_db, local_proxy.url, "Jacob and Esau")
    assert jacob.ranked[0].candidate.metadata.book_id == "romans" and henry(jacob.ranked[0])
    # the names' entries and word studies (Jacob's well in John) come after the commentary on the question
    names = rank_of(jacob, lambda r: material(r.candidate) in (Material.NAME, Material.NAME_STUDY))
    assert names > rank_of(jacob, lambda r: material(r.candidate) is Material.COMMENTARY
                           and r.candidate.metadata.book_id == "romans" and r.rank > 1)
    nicodemus = ask(demo_db, local_proxy.url, "Jesus and Nicodemus")
    assert rank_of(nicodemus, lambda r: henry(r) and on("john", 3, 1)(r)) <= 3


def test_a_question_about_a_statement_leads_with_the_commentary_on_it(demo_db: Path, local_proxy) -> None:
    """"What does it mean that the Word became flesh?" asks about John 1:14, not about a word: Henry's note on
    it leads, not the lexicon's entries for "flesh" and "meat"."""
    result = ask(demo_db, local_proxy.url, "What does it mean that the Word became flesh?", ChapterRef("john", 1))
    first = result.ranked[0]
    assert henry(first) and on("john", 1, 14)(first)


def test_a_word_the_library_has_no_entry_for_brings_no_stray_entries(demo_db: Path, local_proxy) -> None:
    result = ask(demo_db, local_proxy.url, "What does propitiation mean?")
    top = [r.chunk_id for r in result.ranked[:5]]
    assert "strongs:G5348" not in top  # φθάνω, "to be beforehand"
    assert all("propitiat" in r.candidate.text.lower() for r in result.ranked[:3])


def test_one_shared_word_is_not_a_strong_match(demo_db: Path, local_proxy) -> None:
    result = ask(demo_db, local_proxy.url, "Noah's ark")
    assert WarningCode.NO_STRONG_MATCH in {w.code for w in result.warnings}


def test_henrys_note_on_john_3_16_is_a_note_on_3_16(demo_db: Path) -> None:
    with ScriptureStore(demo_db) as store:
        ids = {row[0] for row in store.fetch(store.covering(PassageRef("john", 3, 16, 16))).values()}
    assert any(cid.startswith("mhcc:john:3:11-21#") for cid in ids)


def test_a_reference_typed_with_spaces_is_the_verse_it_names(demo_db: Path, local_proxy) -> None:
    result = ask(demo_db, local_proxy.url, "John 3 16")
    (ref,) = result.trace.references
    assert (ref.book_id, ref.chapter, ref.verse_start, ref.verse_end) == ("john", 3, 16, 16)  # never John 16
    assert on("john", 3, 16)(result.ranked[0])


def test_a_full_question_searches_its_topic_words(demo_db: Path, local_proxy) -> None:
    """The app's keyword half looks for "relate" and "law", not for "Bible" and "Christians" (whole-Bible
    full questions 0.496 → 0.513, docs/RELEVANCE.md); the contract's keyword search keeps every word."""
    question = "What does the Bible say about how Christians relate to the law?"
    app = ask(demo_db, local_proxy.url, question)
    assert app.trace.keywords == ("relate", "law")
    contract = retrieve(RetrievalContext(question, mode=SearchMode.HYBRID), db=demo_db, proxy=local_proxy.url)
    assert contract.trace.keywords == ("bible", "christians", "relate", "law")
    assert any(r.candidate.source_type == "section_panel" and r.candidate.metadata.book_id == "romans"
               for r in app.ranked[:3]), "Romans' commentary on the law leads"

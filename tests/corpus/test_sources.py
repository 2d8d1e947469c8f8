"""Chunk sources on the demo scope (Romans and John) and a few others, from the real modules."""

from __future__ import annotations

import re
from collections import Counter

from amicus_desktop.core.books import BY_ID
from amicus_desktop.core.query import SOURCE_TYPES
from amicus_desktop.core.scholars import KNOWN_SCHOLARS
from amicus_desktop.corpus.sources import Scope
from amicus_desktop.corpus.sources.commentaries import read_scofield, tdavid_chunks
from amicus_desktop.corpus.sources.faq import faq_chunks
from amicus_desktop.corpus.sources.henry import mhcc_chunks
from amicus_desktop.corpus.sources.lexicon import Lexicon


def _by_id(records):
    return {r.chunk_id: r for r in records}


def test_demo_chunks_are_well_formed(demo_chunks):
    bible, records = demo_chunks
    ids = [r.chunk_id for r in records]
    assert len(ids) == len(set(ids))
    counts = Counter(r.source_type for r in records)
    assert set(counts) <= set(SOURCE_TYPES)
    for source_type in ("section_panel", "chapter_panel", "word_study", "lexicon_entry",
                        "cross_ref_thread_note", "meta_faq"):
        assert counts[source_type] > 0, source_type
    # no public-domain source exists for these: never invented
    assert counts["debate_topic"] == 0 and counts["journey_stop"] == 0
    for r in records:
        m = r.metadata
        assert r.text.strip() == r.text and r.text, r.chunk_id
        # no markup left ("<" alone is Abbott-Smith's "derived from", "<-" an arrow in notes)
        assert "\x01" not in r.text and not re.search(r"</?[A-Za-z]", r.text), r.chunk_id
        assert "  " not in r.text, r.chunk_id
        # every chunk comes from a named author's work except the app's own help texts
        assert (m.scholar_id is None) == (r.source_type == "meta_faq"), r.chunk_id
        if m.scholar_id is not None:
            assert m.scholar_id in KNOWN_SCHOLARS, r.chunk_id
            assert m.tradition == KNOWN_SCHOLARS[m.scholar_id].tradition
        if m.book_id is not None:
            assert m.book_id in ("romans", "john"), r.chunk_id
            if m.chapter_num is not None:
                assert 1 <= m.chapter_num <= BY_ID[m.book_id].chapters
        if m.verse_start is not None:
            assert m.chapter_num is not None and 1 <= m.verse_start <= m.verse_end
        if r.source_type == "lexicon_entry":
            assert m.book_id is None and m.tradition is None
            assert m.scholar_id in ("james-strong", "g-abbott-smith"), r.chunk_id
            # an entry in several parts ends "#2/3" (core.parts)
            assert re.fullmatch(r"(?:AbbottSmith:)?G\d+[a-z]?(?:\.\d)?(?:#\d+/\d+)?|H\d+", r.source_id), r.source_id
        if r.source_type in ("section_panel", "chapter_panel"):
            assert len(r.text.split()) <= 400, r.chunk_id
    assert len(bible.verses) == 430 + 879


def test_mhcc_romans_9_is_about_israel_and_election(demo_chunks):
    _, records = demo_chunks
    chunks = _by_id(records)
    note = chunks["mhcc:romans:9:1-5#1"]
    assert note.source_type == "section_panel" and note.metadata.scholar_id == "matthew-henry"
    assert note.metadata.tradition == "reformed"
    assert (note.metadata.chapter_num, note.metadata.verse_start, note.metadata.verse_end) == (9, 1, 5)
    assert "apostle" in note.text and "Jews" in note.text
    rom9 = " ".join(r.text for r in records if r.chunk_id.startswith("mhcc:romans:9:"))
    for word in ("Esau", "Jacob", "potter", "remnant"):
        assert word in rom9
    outline = chunks["mhcc:romans:9:outline"]
    assert outline.source_type == "chapter_panel" and outline.metadata.panel_type == "outline"
    assert "(1-5)" in outline.text and (outline.metadata.verse_start, outline.metadata.verse_end) == (1, 33)
    assert chunks["mhcc:romans:intro#1"].metadata.panel_type == "book_intro"


def test_long_notes_are_split_keeping_the_range(demo_chunks):
    _, records = demo_chunks
    parts = [r for r in records if r.chunk_id.startswith("mhcc:romans:9:14-24#")]
    assert len(parts) >= 2
    assert {(r.metadata.verse_start, r.metadata.verse_end) for r in parts} == {(14, 24)}
    assert all(40 <= len(r.text.split()) <= 260 for r in parts)


def test_scofield_notes_and_quotations(demo_chunks):
    _, records = demo_chunks
    chunks = _by_id(records)
    sin = next(r for r in records if r.chunk_id.startswith("scofield:romans:3:23:"))
    assert "Sin, Summary" in sin.text and sin.metadata.scholar_id == "c-i-scofield"
    intro = chunks["scofield:romans:intro#1"]
    assert "Paul" in intro.text and intro.source_type == "chapter_panel"
    # Scofield quotes Bunyan at Romans 3:21: the quotation is its own chunk, credited to Bunyan
    quote = chunks["scofield:romans:3:21:note:quote#1"]
    assert quote.metadata.scholar_id == "john-bunyan" and "Bunyan" in quote.text
    assert quote.metadata.tradition is None and quote.metadata.panel_type == "quotation"
    for r in records:
        if r.metadata.scholar_id == "c-i-scofield":
            assert "--Bunyan" not in r.text and "righteousness of God by faith.”" not in r.text
    chain = chunks["scofield-chain:Rom.3.23:romans"]
    assert chain.source_type == "cross_ref_thread_note"
    assert (chain.metadata.chapter_num, chain.metadata.verse_start) == (3, 23)
    assert "2:12" in chain.text


def test_word_study_and_lexicon(demo_chunks):
    _, records = demo_chunks
    chunks = _by_id(records)
    lex = chunks["strongs:G1344"]
    assert lex.source_type == "lexicon_entry" and lex.source_id == "G1344"
    assert "δικαιόω" in lex.text and "just or innocent" in lex.text
    study = chunks["wordstudy:G1344:romans"]
    assert study.source_type == "word_study" and study.metadata.book_id == "romans"
    assert "justified" in study.text and "3:24" in study.text
    assert "wordstudy:G25:john" in chunks  # agapaō in John
    assert "wordstudy:G2532:romans" not in chunks  # καί: a particle, no study
    # both are James Strong's: his dictionary, and studies built on his numbers and definitions
    assert lex.metadata.scholar_id == study.metadata.scholar_id == "james-strong"
    assert lex.metadata.tradition is None and study.metadata.tradition is None


def test_nave_topics(demo_chunks):
    _, records = demo_chunks
    chunks = _by_id(records)
    topic = chunks["nave:justification:romans"]
    assert topic.metadata.scholar_id == "orville-nave" and topic.metadata.tradition is None
    assert "Romans 1:16, 17" in topic.text and "John" not in topic.text


def test_lexicon_hebrew_entry(library):
    entry = Lexicon(library).get("H430")
    assert entry is not None and entry.lemma == "אלהים" and "God" in entry.definition


def test_spurgeon_only_on_psalms_and_never_for_quotations(library):
    assert list(tdavid_chunks(library, Scope.of(["romans"]))) == []
    records = list(tdavid_chunks(library, Scope.of(["psalms"])))
    assert records and {r.metadata.book_id for r in records} == {"psalms"}
    assert all(r.metadata.scholar_id == "charles-spurgeon" for r in records)
    text = "\n".join(r.text for r in records)
    # "Explanatory Notes and Quaint Sayings" are quotations of other writers (Psalm 23's opens
    # with Henry Ward Beecher's "nightingale of the Psalms"): not used at all
    assert "David has left no sweeter Psalm than the short" not in text
    assert "nightingale of the Psalms" not in text
    # a quotation inside the exposition of Psalm 101, signed "—John Calvin.", is left out
    assert "—John Calvin." not in text and "—Alfred Edersheim." not in text
    ps23 = [r for r in records if r.metadata.chapter_num == 23]
    verse1 = [r for r in ps23 if r.source_type == "section_panel" and r.metadata.verse_start == 1]
    assert verse1 and "shepherd" in verse1[0].text.lower()
    assert any(r.source_type == "chapter_panel" and r.metadata.panel_type == "intro" for r in ps23)
    assert len({r.chunk_id for r in records}) == len(records)


def test_mhcc_whole_bible_ids_unique(library):
    records = list(mhcc_chunks(library, Scope.of(None)))
    assert len({r.chunk_id for r in records}) == len(records) > 5000
    genesis = [r for r in records if r.metadata.book_id == "genesis" and r.metadata.chapter_num == 1]
    assert "beginning" in " ".join(r.text for r in genesis).lower()


def test_scofield_whole_bible_links(library):
    data = read_scofield(library, Scope.of(["jude"]))
    assert len(data.links) > 500  # chains are read from every book
    assert all(r.metadata.book_id == "jude" for r in data.records)


def test_faq():
    records = list(faq_chunks())
    assert 8 <= len(records) <= 15
    ids = {r.source_id for r in records}
    assert {"faq-scoring", "faq-boosts", "faq-scholar-cap", "faq-offline", "faq-profile"} <= ids
    assert all(r.metadata.scholar_id is None and r.metadata.book_id is None for r in records)


def test_scope_parsing():
    assert [b.book_id for b in Scope.of(["John", "rom"]).books] == ["john", "romans"]
    assert Scope.of(None).full
    import pytest

    with pytest.raises(ValueError):
        Scope.of(["notabook"])

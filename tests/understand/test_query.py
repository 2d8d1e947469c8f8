"""How a question is read: the words the keyword search looks for, and the passages it names."""

from __future__ import annotations

from pathlib import Path

import pythonbible as pb
from hypothesis import given, settings
from hypothesis import strategies as st

from amicus_desktop.core.books import BOOKS, Book
from amicus_desktop.core.references import PassageRef
from amicus_desktop.understand.query import keywords, plan
from tests.support.cli import query_json
from tests.support.corpora import corpus_db as corpus_db  # the fixture ``db``
from tests.support.corpora import corpus_proxy as corpus_proxy  # the fixture ``proxy``
from tests.support.scripted_proxy import ScriptedProxy


def test_stop_words_and_question_words_are_dropped() -> None:
    assert plan("How is a person justified before God?").keywords == ("person", "justified", "god")
    assert plan("What does it mean?").keywords == ()


def test_the_apps_keyword_half_looks_for_a_full_questions_topic_not_its_frame() -> None:
    question = "What does the Bible say about getting drunk?"
    assert plan(question).keywords == ("bible", "getting", "drunk")  # the contract's keywords: every word
    assert plan(question, framing=False).keywords == ("drunk",)
    assert plan("How should Christians treat the government?", framing=False).keywords == ("treat", "government")
    assert plan("What does true repentance look like?", framing=False).keywords == ("repentance",)
    # God and people name topics too; a question of framing words alone keeps them (nothing else is left)
    assert plan("Why do God's people fast?", framing=False).keywords == ("god", "people", "fast")
    assert plan("Who are the called?", framing=False).keywords == ("called",)
    # an overlay's boost terms are looked for whatever they are
    assert plan("What is faith like?", ("like",), framing=False).keywords == ("faith", "like")


def test_reference_words_are_not_keywords() -> None:
    p = plan("What does Rom 9:11 say about election?")
    assert [r.label() for r in p.references] == ["Romans 9:11"]
    assert p.keywords == ("election",)


def test_fts_syntax_is_plain_text() -> None:
    p = plan('agápē "NEAR" AND (grace*) -faith:hope ^love')
    assert p.keywords == ("agápē", "near", "grace", "faith", "hope", "love")


def test_repeats_are_dropped_in_order() -> None:
    assert keywords("Grace, grace and more GRACE; faith") == ("grace", "faith")
    assert plan("the of and").keywords == ()


def test_romans_nine_in_words_is_not_a_reference(db: Path, proxy: ScriptedProxy) -> None:
    code, out = query_json("Romans nine", "--db", str(db), "--proxy", proxy.url)
    assert code == 0 and out["query_trace"]["references"] == []


# -- references are taken out of the question by position (issue #30 item 6) ---------------------------
def _verses(book: Book, chapter: int) -> int:
    return int(pb.get_number_of_verses(pb.Book(book.ordinal), chapter))


@st.composite
def _reference(draw: st.DrawFn) -> tuple[str, PassageRef]:
    """A reference as a reader writes it ("John 3:16", "Rom 9:1-5", "Ps 23"), and what it names."""
    book = draw(st.sampled_from(BOOKS))
    name = draw(st.sampled_from((book.name, book.osis)))
    chapter = draw(st.integers(1, book.chapters))
    if draw(st.booleans()) and book.chapters > 1:
        return f"{name} {chapter}", PassageRef(book.book_id, chapter)
    verses = _verses(book, chapter)
    start = draw(st.integers(1, verses))
    end = draw(st.integers(start, verses))
    written = f"{name} {chapter}:{start}" + (f"-{end}" if end > start else "")
    return written, PassageRef(book.book_id, chapter, start, end)


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(refs=st.lists(_reference(), min_size=1, max_size=6),
       gaps=st.lists(st.sampled_from([" ", ", ", " and ", "; ", "  "]), min_size=6, max_size=6))
def test_any_sequence_of_references_leaves_no_digits_behind(
    refs: list[tuple[str, PassageRef]], gaps: list[str]
) -> None:
    text = "".join(written + gap for (written, _), gap in zip(refs, gaps, strict=False)).strip(" ,;")
    p = plan(text)
    assert not any(ch.isdigit() for word in p.keywords for ch in word), (text, p.keywords)
    if any(not gap.strip() for gap in gaps[: len(refs) - 1]):
        return  # "Genesis 1 John 1" is also "Genesis" and "1 John 1": only the digits are sure to go
    found = {(r.book_id, r.chapter, r.verse_start, r.verse_end) for r in p.references}
    for _, ref in refs:
        assert (ref.book_id, ref.chapter, ref.verse_start, ref.verse_end) in found, (text, ref, found)


def test_a_reference_inside_a_longer_one_is_not_cut_out_of_it() -> None:
    # "John 3:1" is the start of "John 3:16": cutting its text out wherever it occurred left "6", and
    # the "1" read as "1 John" hid John 3:16 from the parser altogether
    for text, labels in (("John 3:1 John 3:16", ["John 3:1", "John 3:16"]),
                         ("Rom 9:1 Rom 9:10", ["Romans 9:1", "Romans 9:10"]),
                         ("Romans 9 Romans 9:1", ["Romans 9", "Romans 9:1"])):
        p = plan(text)
        assert [r.label() for r in p.references] == labels
        assert p.keywords == ()
    assert plan("Read 1 John 3:16 and John 3:16 on love").keywords == ("read", "love")

"""Issue 33, found on the whole Bible: a name or transliteration spelt another way than the library spells it, and
a book named alone. On the real demo library (John and Romans) through the real embed proxy, with the app's own
retrieval: "Nikodemus" finds what is written of Nicodemus, "kharis" is χάρις (Strong's "cháris"), "Who wrote
Romans?" leads with the introduction to Romans, and "What did John teach about love?" is about the apostle, not the
book John."""

from __future__ import annotations

from pathlib import Path

import pytest

from amicus_desktop.candidates.lexical import KeywordIndex
from amicus_desktop.candidates.quoted import rare_words
from amicus_desktop.core.names import Names
from amicus_desktop.core.results import Origin
from amicus_desktop.present.factors import Subject, factor_sentence
from amicus_desktop.store import ScriptureStore
from tests.retrieval.test_reader_cases import ask, henry, on, rank_of

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]


def test_a_rare_name_is_looked_for_in_its_other_spellings_only(demo_db: Path) -> None:
    with ScriptureStore(demo_db) as store:
        index = KeywordIndex.for_store(store)
        words = ("nikodemus", "water", "jesus", "iskariot")
        rare = rare_words(store, words)
        assert "water" not in rare and "jesus" not in rare  # common words: their sound-alikes are other words
        found = index.variants(rare)
        assert found["nikodemus"] == ("nicodemu",) and "iscariot" in found["iskariot"]
        # a variant counts as the word: a chunk spelling it right scores as it would for the right spelling
        right = dict(index.search(["nicodemus"], 5))
        spelt = dict(index.search(["nikodemus"], 5, variants=found))
        assert spelt and set(spelt) == set(right)


def test_a_name_spelt_otherwise_finds_the_commentary_on_it(demo_db: Path, local_proxy) -> None:
    result = ask(demo_db, local_proxy.url, "Nikodemus")
    # before: no chunk held the word, and only Νικόδημος's dictionary entries came (by their letters' meaning)
    first = result.ranked[0]
    assert first.candidate.metadata.scholar_id == "matthew-henry" and on("john", 3)(first)  # his outline of John 3
    assert rank_of(result, lambda r: henry(r) and on("john", 3, 1)(r)) <= 3
    assert first.candidate.lexical and first.candidate.lexical > 0.3


def test_a_transliteration_spelt_otherwise_is_the_word(demo_db: Path, local_proxy) -> None:
    result = ask(demo_db, local_proxy.url, "kharis")  # Strong's writes χάρις "cháris"
    assert result.ranked[0].chunk_id == "strongs:G5485"
    ours = [r for r in result.ranked[:5] if "G5485" in r.chunk_id]
    assert len(ours) >= 3 and all(Origin.WORD in r.candidate.origins for r in ours)  # the word bridge read it


def test_a_book_named_alone_leads_with_its_introduction(demo_db: Path, local_proxy) -> None:
    result = ask(demo_db, local_proxy.url, "Who wrote Romans?")
    first = result.ranked[0]
    assert first.chunk_id.startswith(("scofield:romans:intro", "mhcc:romans:intro"))
    reference = next(f for f in first.breakdown.factors if f.name == "reference")
    assert reference.value == 1.25
    why = factor_sentence(reference, Subject(first.candidate, result.context, Names()), first.breakdown.final)
    assert "it introduces Romans, the book your question names" in why
    people = ask(demo_db, local_proxy.url, "John the Baptist")  # a person, not the book
    assert all(f.value == 1.0 for r in people.ranked for f in r.breakdown.factors if f.name == "reference")


def test_a_person_named_like_a_book_is_not_the_book(demo_db: Path, local_proxy) -> None:
    def intro(r) -> bool:  # type: ignore[no-untyped-def]
        return r.candidate.metadata.book_id == "john" and r.candidate.metadata.chapter_num is None

    def boosted(r) -> bool:  # type: ignore[no-untyped-def]
        return any(f.name == "reference" and f.value != 1.0 for f in r.breakdown.factors)

    person = ask(demo_db, local_proxy.url, "What did John teach about love?")
    # before: the introduction to John had the named book's ×1.25 and was 3rd, the focus kept inside John
    assert not any(boosted(r) for r in person.ranked)
    assert rank_of(person, intro) > 5
    book = ask(demo_db, local_proxy.url, "Who wrote the Gospel of John?")  # the book: still its introductions
    assert intro(book.ranked[0]) and boosted(book.ranked[0])


def test_a_name_henry_spells_otherwise_scores_by_its_words(demo_db: Path, local_proxy) -> None:
    result = ask(demo_db, local_proxy.url, "Who was Phoebe?")  # the WEB's spelling; Henry writes "Phebe"
    note = next(r for r in result.ranked if henry(r) and on("romans", 16, 1)(r))
    assert note.rank <= 3 and note.candidate.lexical and note.candidate.lexical > 0.3

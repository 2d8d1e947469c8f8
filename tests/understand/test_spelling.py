"""Spellings of one name or transliterated word meet (understand/spelling.py), and a book named alone is found
(understand/books.py ``named_books``): pure functions of text."""

from __future__ import annotations

import pytest

from amicus_desktop.understand.books import named_books
from amicus_desktop.understand.spelling import same_word, sound_key


@pytest.mark.parametrize(("a", "b"), [
    ("hesed", "chêsêd"),  # Strong's ח as "ch"; a reader types "hesed"
    ("Melchizedek", "Melchizedec"),  # the WEB and Matthew Henry
    ("Melchizedek", "Melchisedec"),  # the KJV
    ("torah", "tôwrâh"),
    ("tzedakah", "tsedâqâh"),
    ("agape", "agápē"),
    ("Kaiaphas", "Caiaphas"),
    ("shabbath", "shabat"),
])
def test_spellings_of_one_word_meet(a: str, b: str) -> None:
    assert same_word(a, b) and sound_key(a) == sound_key(b)


@pytest.mark.parametrize(("a", "b"), [
    ("Judas", "Judæa"),  # a ligature is two letters, not none
    ("Elisha", "Elishah"),  # two people
    ("love", "live"),
    ("sin", "zin"),  # keys under four letters are never compared
])
def test_other_words_stay_apart(a: str, b: str) -> None:
    assert not same_word(a, b)


@pytest.mark.parametrize(("question", "books"), [
    ("Who wrote Hebrews?", ("hebrews",)),
    ("What is 1 John about?", ("1-john",)),
    ("What is the theme of John?", ("john",)),
    ("what do the Psalms say about fear", ("psalms",)),
    ("Hebrews 7 and Melchizedek", ()),  # a chapter follows: a reference, found elsewhere
    ("Who were the Hebrews in Egypt?", ()),  # "the Hebrews" are a people
    ("John the Baptist", ()),  # an epithet: a person
    ("Acts of kindness", ()),  # a common word opening the question
    ("Summarize Acts", ("acts",)),
    ("who wrote hebrews", ()),  # a book's name is written with a capital
])
def test_a_book_named_alone(question: str, books: tuple[str, ...]) -> None:
    assert named_books(question) == books


@pytest.mark.parametrize(("a", "b"), [("Zacchaeus", "Zaccheus"), ("Phoebe", "Phebe"), ("Judaea", "Judea")])
def test_a_greek_names_latin_diphthong_is_its_plain_vowel(a: str, b: str) -> None:
    assert same_word(a, b)

"""A book's name that is also a person's (understand/books.py ``named_books``): the book where the question is about
the book — its author, date, theme, "the Gospel of …" —, the person where the person is its subject (issue 33: "Why did
Mark leave Paul and Barnabas?" boosted the introductions to Mark on the whole Bible; "What did John teach about
love?" centred on John 21 where 1 John 4 answers). Pure functions of text."""

from __future__ import annotations

import pytest

from amicus_desktop.understand.books import named_books


@pytest.mark.parametrize(("question", "books"), [
    ("Who wrote Hebrews?", ("hebrews",)),  # no person bears it: named as before
    ("What is Romans about?", ("romans",)),
    ("Who wrote the Gospel of John?", ("john",)),
    ("What is the theme of John?", ("john",)),
    ("Who is the author of James?", ("james",)),
    ("When was Daniel written?", ("daniel",)),
    ("What is Jonah about?", ("jonah",)),
    ("What is the purpose of the letter to Philemon?", ("philemon",)),
    ("the book of Ruth", ("ruth",)),
    ("John's Gospel and the signs", ("john",)),
    ("the Gospel according to Mark and the Messianic secret", ("mark",)),
    ("Who wrote Luke and Acts?", ("luke", "acts")),
])
def test_a_question_about_the_book_names_it(question: str, books: tuple[str, ...]) -> None:
    assert named_books(question) == books


@pytest.mark.parametrize("question", [
    "Why did Mark leave Paul and Barnabas?",
    "What did John teach about love?",
    "Who was Mark?",
    "Who is John?",
    "Where was Jonah when the fish swallowed him?",
    "What did James say about faith and works?",
    "Why did Ruth stay with Naomi?",
    "How did Esther save her people?",
    "Why did Job suffer?",
    "Why does John call Jesus' miracles signs?",
])
def test_a_person_who_shares_a_books_name_is_not_the_book(question: str) -> None:
    assert named_books(question) == ()

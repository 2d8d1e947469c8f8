"""A question that is a verse's own words, stop-words and all ("Who is my neighbor?", Luke 10:29): too few pairs of
other words to weigh as a quote (:func:`~amicus_desktop.candidates.quoted.word_pairs`), it quotes the verse when the
verse holds every one of its word pairs (:func:`~amicus_desktop.candidates.quoted.whole_question_pairs`). On the real
demo library, which holds the whole Bible's text, through the real embed proxy."""

from __future__ import annotations

from pathlib import Path

import pytest

from amicus_desktop.candidates.quoted import quoted_verses, whole_question_pairs, word_pairs
from amicus_desktop.core.references import ChapterRef, PassageRef
from amicus_desktop.store.scripture import ScriptureStore
from amicus_desktop.understand.query import plan
from tests.retrieval.test_reader_cases import ask

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]


@pytest.mark.parametrize(("question", "verse"), [
    ("Who is my neighbor?", PassageRef("luke", 10, 29, 29)),
    ("Where are you staying?", PassageRef("john", 1, 38, 38)),
])
def test_a_question_of_a_verse_s_own_words_quotes_it(demo_db: Path, question: str, verse: PassageRef) -> None:
    p = plan(question)
    assert len(word_pairs(p)) < 2 <= len(whole_question_pairs(p))  # too few other words to weigh as pairs
    with ScriptureStore(demo_db) as store:
        assert quoted_verses(store, p) == (verse,)


def test_a_short_question_many_verses_hold_or_none_holds_whole_quotes_nothing(demo_db: Path) -> None:
    with ScriptureStore(demo_db) as store:
        assert quoted_verses(store, plan("What shall we say then?")) == ()  # Romans asks it seven times
        assert quoted_verses(store, plan("Who is my teacher?")) == ()  # no verse holds it word for word
        assert whole_question_pairs(plan("What is truth?")) == []  # three words: too short to be a place


def test_the_open_chapter_a_question_quotes_is_not_set_aside(demo_db: Path, local_proxy) -> None:
    """"Where are you staying?" with John 1 open (the disciples' question, 1:38): the commentary nearest the words
    centres elsewhere, and the chapter used to be set aside as unrelated."""
    john_1 = ChapterRef("john", 1)
    result = ask(demo_db, local_proxy.url, "Where are you staying?", john_1)
    assert john_1 in result.quoted
    assert not any(r.breakdown.chapter_off_topic for r in result.ranked)
    assert any(r.breakdown.chapter_boost == 1.5 for r in result.ranked)

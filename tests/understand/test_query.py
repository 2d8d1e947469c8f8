"""The words the keyword search looks for."""

from __future__ import annotations

from amicus_desktop.understand.query import keywords, plan


def test_stop_words_and_question_words_are_dropped() -> None:
    assert plan("How is a person justified before God?").keywords == ("person", "justified", "god")
    assert plan("What does it mean?").keywords == ()


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

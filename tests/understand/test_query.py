"""How a question is read: the words the keyword search looks for, and the passages it names."""

from __future__ import annotations

from pathlib import Path

from amicus_desktop.understand.query import keywords, plan
from tests.support.cli import query_json
from tests.support.corpora import corpus_db as corpus_db  # the fixture ``db``
from tests.support.corpora import corpus_proxy as corpus_proxy  # the fixture ``proxy``
from tests.support.scripted_proxy import ScriptedProxy


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


def test_romans_nine_in_words_is_not_a_reference(db: Path, proxy: ScriptedProxy) -> None:
    code, out = query_json("Romans nine", "--db", str(db), "--proxy", proxy.url)
    assert code == 0 and out["query_trace"]["references"] == []

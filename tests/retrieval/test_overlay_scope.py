"""An overlay's boosted words count where the question relates (issue #33 item 3), on the real demo library
through the real local proxy with the app's own retrieval: "regeneration" boosted, asked "What is faith?"."""

from __future__ import annotations

from pathlib import Path

import pytest

from amicus_desktop.overlays import Overlay
from amicus_desktop.present.describe import results_title
from amicus_desktop.rerank.vocabulary import RELATED_SHARE, holds
from amicus_desktop.retrieval import retrieve
from amicus_desktop.session import ResultView
from amicus_desktop.session.context import app_context
from amicus_desktop.settings import Settings

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]

WORDS = ("regeneration",)


def test_a_boosted_word_lifts_only_the_passages_the_question_is_about(demo_db: Path, local_proxy) -> None:
    answers = {}

    def ask(question: str, scope: str) -> list:  # type: ignore[type-arg]
        overlay = Overlay("born-again", boost_terms=WORDS, vocabulary_scope=scope)
        answers[question, scope] = retrieve(app_context(Settings(), question, overlay=overlay), db=demo_db,
                                            proxy=local_proxy.url)
        return list(answers[question, scope].results)

    related = ask("What is faith?", "related")
    best = max(r.breakdown.similarity or 0.0 for r in related)
    lifted = [r for r in related if r.breakdown.vocabulary_boost > 1.0]
    assert all((r.breakdown.similarity or 0.0) >= RELATED_SHARE * best for r in lifted)
    everywhere = ask("What is faith?", "every_question")
    assert sum(holds(r.candidate.text, WORDS) for r in related) < sum(holds(r.candidate.text, WORDS)
                                                                      for r in everywhere)
    # where the question is about the word's matter, the passages holding it are lifted
    born = ask("What does it mean to be born again?", "related")
    assert any(r.breakdown.vocabulary_boost > 1.0 for r in born)
    # the results header says when the words counted though the question is not about them
    header = results_title(ResultView(answers["What is faith?", "every_question"], None, "ask", 0.0))
    assert "born-again's words weighed in every question" in header
    assert "every question" not in results_title(ResultView(answers["What is faith?", "related"], None, "ask", 0.0))

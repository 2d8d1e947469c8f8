"""An overlay's vocabulary factor (``rerank/vocabulary.py``, CONTRACT section 12): whole words, any case,
accents folded, not stemmed; suppress wins; it multiplies the final score, and only under an overlay."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from amicus_desktop.core.governance import Governance
from amicus_desktop.core.query import BoostWeights, RetrievalContext
from amicus_desktop.core.results import Candidate, ChunkMetadata, Origin
from amicus_desktop.rerank import score
from amicus_desktop.rerank.vocabulary import holds, vocabulary_boost

_ids = itertools.count()


def cand(distance: float, source_type: str = "section_panel", text: str = "text", *, lexical: float | None = None,
         pin: bool = False, **meta: Any) -> Candidate:
    cid = f"c{next(_ids):03d}"
    origins = frozenset({Origin.PIN}) if pin else frozenset({Origin.DENSE})
    return Candidate(0, cid, source_type, cid, text, ChunkMetadata(**meta), distance, lexical, origins)


ROLE = Governance("pastor", frozenset({"scofield"}), frozenset({"meta_faq"}), ("covenant", "new birth"),
                  ("dispensation",))


# -- the vocabulary --------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "terms", "found"), [
    ("The COVENANT of grace", ("covenant",), True),  # any case
    ("covenants and promises", ("covenant",), False),  # whole words, not stemmed
    ("a covenanted people", ("covenant",), False),
    ("God's covenant.", ("covenant",), True),  # punctuation is not a word character
    ("the new\n  birth", ("new birth",), True),  # a phrase, any spacing
    ("the birth was new", ("new birth",), False),  # its words in order
    ("Agápē is love", ("agape",), True),  # accents folded on both sides
    ("agape", ("Agápē",), True),
    ("", ("covenant",), False),
])
def test_a_term_matches_whole_words_in_any_case_with_accents_folded(text: str, terms: tuple[str, ...],
                                                                    found: bool) -> None:
    assert holds(text, terms) is found


def test_boost_suppress_and_suppress_wins() -> None:
    assert vocabulary_boost("the covenant", ROLE, 1.2) == 1.2
    assert vocabulary_boost("a dispensation", ROLE, 1.2) == pytest.approx(1 / 1.2)
    assert vocabulary_boost("the covenant in this dispensation", ROLE, 1.2) == pytest.approx(1 / 1.2)
    assert vocabulary_boost("nothing", ROLE, 1.2) == 1.0
    assert vocabulary_boost("the covenant", None, 1.2) == 1.0


def test_the_factor_multiplies_final_and_is_in_the_breakdown_only_under_an_overlay() -> None:
    c = cand(0.2, text="the covenant of grace")
    plain = score(c, RetrievalContext(query="q"))
    governed = score(c, RetrievalContext(query="q", governance=ROLE, weights=BoostWeights(vocabulary=1.3)))
    assert governed.vocabulary_boost == 1.3 and governed.final == pytest.approx(plain.final * 1.3)
    assert "vocabulary_boost" not in plain.to_json() and governed.to_json()["vocabulary_boost"] == 1.3
    assert governed.boosts["vocabulary"] == 1.3 and "vocabulary" not in plain.boosts


# -- where the boost words count (issue #33 item 3) ------------------------------------------------------
def test_under_the_apps_ranking_boost_words_count_only_where_the_question_relates() -> None:
    from dataclasses import replace as dc_replace

    from amicus_desktop.core.preset import APP
    from amicus_desktop.rerank import rerank
    from amicus_desktop.rerank.vocabulary import RELATED_SHARE

    best = cand(0.2, text="faith is the substance of things hoped for")  # similarity 0.8: the question's own
    near = cand(0.25, text="the covenant and faith")  # 0.75 ≥ 0.7 × 0.8: related, boosted
    far = cand(0.5, text="the covenant of circumcision")  # 0.5: a passage the question is not about
    assert (near.similarity or 0) >= RELATED_SHARE * (best.similarity or 0) > (far.similarity or 0)

    def factors(governance: Governance, policy: Any) -> dict[str, float]:
        ctx = RetrievalContext(query="What is faith?", governance=governance, policy=policy, k=10,
                               weights=BoostWeights(vocabulary=1.3))
        results, _rejected = rerank([best, near, far], ctx)
        return {r.chunk_id: r.breakdown.vocabulary_boost for r in results}

    app = factors(ROLE, APP.policy)
    assert app[near.chunk_id] == 1.3 and app[far.chunk_id] == 1.0  # the unrelated passage is not lifted
    everywhere = factors(dc_replace(ROLE, vocabulary_everywhere=True), APP.policy)
    assert everywhere[far.chunk_id] == 1.3  # the overlay says every question
    contract = factors(ROLE, RetrievalContext(query="q").policy)
    assert contract[far.chunk_id] == 1.3  # the contract's ranking: every chunk holding the word, as written
    far_suppressed = cand(0.5, text="a dispensation")  # suppressing counts everywhere
    ctx = RetrievalContext(query="q", governance=ROLE, policy=APP.policy, weights=BoostWeights(vocabulary=1.3))
    results, _ = rerank([best, far_suppressed], ctx)
    assert next(r for r in results if r.chunk_id == far_suppressed.chunk_id).breakdown.vocabulary_boost < 1.0

"""The score as a list of named factors (``rerank/factors.py``, ``core/breakdown.py``): one step per factor, in
one order, that the JSON, the labels, the "why" sentences and the bundle check all read — and a new factor
reaches every one of them from its step, its words and its schema line."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from amicus_desktop.bundle.check import factor_keys, rule_problems
from amicus_desktop.core.breakdown import Factor, FactorPart
from amicus_desktop.core.governance import Governance
from amicus_desktop.core.preset import APP
from amicus_desktop.core.query import BoostWeights, RetrievalContext
from amicus_desktop.core.references import ChapterRef
from amicus_desktop.core.results import Candidate, ChunkMetadata
from amicus_desktop.present import factors as words
from amicus_desktop.present.breakdown import breakdown_steps
from amicus_desktop.rerank import factors, rerank
from amicus_desktop.schemas import schema

_ids = itertools.count()
ROLE = Governance("pastor", boost_terms=("covenant",), suppress_terms=("dispensation",))
#: every factor has a part: the app's policy and an overlay, with a chapter open
EVERYTHING = RetrievalContext(query="the covenant", chapter=ChapterRef("romans", 8), policy=APP.policy,
                              governance=ROLE, weights=BoostWeights(per_scholar_cap=1, vocabulary=1.2))


def cand(distance: float, text: str = "the covenant of grace", **meta: Any) -> Candidate:
    cid = f"f{next(_ids):03d}"
    return Candidate(0, cid, "section_panel", cid, text, ChunkMetadata(**meta), distance)


def pool() -> list[Candidate]:
    return [cand(0.2, scholar_id="henry", book_id="romans", chapter_num=8),
            cand(0.25, scholar_id="henry", book_id="romans", chapter_num=8),
            cand(0.3, "a dispensation", scholar_id="scofield", book_id="john", chapter_num=3)]


def test_the_breakdown_lists_each_steps_factor_in_the_steps_order_and_final_is_their_product() -> None:
    results, _ = rerank(pool(), EVERYTHING)
    names = [step.__name__.removesuffix("_factor") for step in factors.STEPS]
    for r in results:
        b = r.breakdown
        assert [f.name for f in b.factors] == names
        product = b.base or 0.0
        for f in b.factors:
            product *= f.value
        assert b.final == pytest.approx(product, rel=1e-12)
    lowered = min((r.breakdown for r in results), key=lambda b: b.diversity)  # henry's second, past the cap of one
    assert lowered.diversity < 1.0 and lowered.factor("diversity") == Factor(
        "diversity", lowered.diversity, "diversity", FactorPart.POLICY, last=True)


def test_without_a_policy_or_an_overlay_their_factors_are_absent_and_the_json_is_the_contracts() -> None:
    results, _ = rerank(pool(), RetrievalContext(query="q", chapter=ChapterRef("romans", 8)))
    b = results[0].breakdown
    assert [f.name for f in b.factors] == ["chapter", "scholar", "tradition", "reference"]
    assert not b.extended and not b.governed
    assert list(b.to_json()) == ["distance", "similarity", "chapter_boost", "scholar_boost", "tradition_boost",
                                 "final", "mode", "base", "lexical", "reference_boost"]


def test_the_schema_marks_exactly_the_factors_keys_and_every_factor_has_its_words() -> None:
    results, _ = rerank(pool(), EVERYTHING)
    produced = {f.key for r in results for f in r.breakdown.factors}
    assert produced == set(factor_keys())
    assert {f.name for r in results for f in r.breakdown.factors} <= set(words.WORDS)


def test_with_factor_computes_final_again() -> None:
    b = rerank(pool(), EVERYTHING)[0][0].breakdown
    halved = b.with_factor("scholar", b.scholar_boost / 2)
    assert halved.final == pytest.approx(b.final / 2) and halved.factors[0] == b.factors[0]


def recency_factor(candidate: Candidate, base: float, s: factors.Scoring) -> Factor:
    """A factor a developer might add: a chunk holding "grace" counts ×1.1."""
    return Factor("recency", 1.1 if "grace" in candidate.text else 1.0, "recency_boost", FactorPart.POLICY)


def test_a_new_factor_reaches_the_json_labels_sentences_and_check_from_its_step_words_and_schema_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What "How to add a factor" (README) promises: its step (and its line in STEPS), its words, its schema line."""
    monkeypatch.setattr(factors, "STEPS", (*factors.STEPS, recency_factor))
    monkeypatch.setitem(words.WORDS, "recency", words.FactorWords(lambda f, s: "it speaks of grace"))
    top = rerank(pool(), EVERYTHING)[0][0]
    b = top.breakdown
    assert b.value("recency") == 1.1 and b.to_json()["recency_boost"] == 1.1
    assert "×1.1 recency" in words.boost_labels(b) and "× 1.1 recency =" in words.final_formula(b)
    step = breakdown_steps(b, top.candidate, EVERYTHING)[-2]
    assert step.words.startswith("×1.1 recency: it speaks of grace → ") and step.value == pytest.approx(b.final)
    bundle = {"results": [{"rank": 1, "score": b.final, "breakdown": b.to_json()}]}
    shape = schema("bundle")["$defs"]["breakdown"]
    # without its schema line the bundle check refuses the key and the product misses the factor
    assert [e.validator for e in Draft202012Validator(shape).iter_errors(b.to_json())] == ["additionalProperties"]
    assert [p.path for p in rule_problems(bundle)] == ["/results/0/breakdown/final"]
    monkeypatch.setitem(shape["properties"], "recency_boost", {"type": "number", "x-factor": True})
    factor_keys.cache_clear()
    try:
        assert not list(Draft202012Validator(shape).iter_errors(b.to_json())) and not rule_problems(bundle)
    finally:
        monkeypatch.undo()
        factor_keys.cache_clear()

"""The weight search (``evaluate/tuning/``) on a real database through the scripted proxy over HTTP.

Its scores come from re-ranking each question's kept candidates; they must be exactly what a fresh
``evaluate`` of the same configuration scores, or the search would report numbers no reader gets.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from amicus_desktop.core.preset import APP
from amicus_desktop.core.query import BoostWeights, Fusion, FusionMethod
from amicus_desktop.evaluate import tuning
from amicus_desktop.evaluate.golden import GoldenQuery, GoldenSet
from amicus_desktop.evaluate.run import EvalConfig, evaluate
from amicus_desktop.retrieval import Retriever
from tests.support.corpora import DIMS, corpus
from tests.support.dbs import build_db
from tests.support.scripted_proxy import ScriptedProxy

QUESTIONS = [
    ("justify", "justified by faith", None, {"h-justify": 3, "h-law": 2, "lex-1": 1}),
    ("potter", "the potter and the clay", "romans:9", {"h-potter": 3, "s-esau": 1}),
    ("esau", "Jacob have I loved, Esau", "romans:9", {"s-esau": 3, "h-potter": 1}),
    ("grace", "grace abounding", None, {"s-grace": 3, "lex-2": 2}),
    ("love", "agape love", "romans:5", {"n-agape": 2, "lex-3": 3}),
    ("law", "works of the law", "romans:3", {"h-law": 3}),
    ("world", "God so loved the world", None, {"john-3": 3}),
    ("faq", "how do I use this", None, {"faq": 2}),
]
GOLDEN = GoldenSet("axes", tuple(GoldenQuery(i, t, j, chapter=c) for i, t, c, j in QUESTIONS))
START = EvalConfig.of(APP)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return build_db(tmp_path / "scripture.db", corpus())


def test_the_split_is_by_id_and_stable() -> None:
    train, held = tuning.split(GOLDEN)
    assert {q.id for q in train} | {q.id for q in held} == {q.id for q in GOLDEN.queries}
    assert train and held and not {q.id for q in train} & {q.id for q in held}
    more = GoldenSet("more", (*GOLDEN.queries, GoldenQuery("new", "a new question", {})))
    assert [q.id for q in tuning.split(more)[1] if q.id != "new"] == [q.id for q in held]  # nobody moves


def test_search_scores_equal_a_fresh_evaluation_and_the_report_guards_against_overfitting(db: Path) -> None:
    async def main() -> None:
        with ScriptedProxy(dims=DIMS) as proxy:
            retriever = Retriever(db, proxy.url)
            try:
                ticks: list[tuning.Progress] = []
                outcome = await tuning.search_weights(retriever, GOLDEN, START, budget=30, progress=ticks.append)
                _train, held = tuning.split(GOLDEN)
                held_set = GoldenSet("held", tuple(held))
                for config, scores in ((START, outcome.held_before), (outcome.best, outcome.held_after)):
                    fresh = await evaluate(retriever, held_set, config)
                    assert [q.scores["ndcg@10"] for q in fresh.queries] == pytest.approx(list(scores))
                assert outcome.train_after >= outcome.train_before
                assert outcome.tried == ticks[-1].tried and outcome.ended in ("converged", "rounds")
                assert outcome.held == len(held) < tuning.verdict.FEW_QUESTIONS
                words = "\n".join(tuning.summary(outcome))
                assert f"on {outcome.train} training questions" in words and "95% interval" in words
                assert f"Only {outcome.held} held-out questions" in words  # too few to show a small gain

                stopped = tuning.coordinate_ascent(GOLDEN, {}, [], START, stop=lambda: True)
                assert stopped.ended == "stopped" and stopped.best == START and stopped.tried == 1
            finally:
                await retriever.aclose()

    asyncio.run(main())


def test_the_knobs_follow_the_configuration_and_a_budget_ends_the_search() -> None:
    names = {k.name for k in tuning.knobs_for(START, {APP.mode})}
    assert {"chapter-boost", "scholar-cap", "alpha", "fusion", "spread", "focus"} <= names
    contract = EvalConfig(weights=BoostWeights())
    assert not {"alpha", "fusion", "spread"} & {k.name for k in tuning.knobs_for(contract, {contract.mode})}
    found = replace(START, weights=replace(START.weights, chapter=2.0), fusion=Fusion(FusionMethod.RRF, 0.7, 60))
    assert [k.name for k, _a, _b in tuning.differences(START, found)] == ["chapter-boost", "fusion"]
    clock = iter(range(0, 1000, 10))
    timed = tuning.coordinate_ascent(GOLDEN, {}, [], START, budget=25, clock=lambda: float(next(clock)))
    assert timed.ended == "budget" and "The time budget ended the search" in "\n".join(tuning.summary(timed))

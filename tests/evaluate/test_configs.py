"""An evaluation's configuration holds every knob of the table (``evaluate/run.py``, ``evaluate/configs.py``):
those with a part of its own (the weights, the fusion, the policy) and those without one (``other_knobs``), set
on each question's retrieval by their rows and kept through a snapshot's JSON."""

from __future__ import annotations

import pytest

from amicus_desktop.evaluate import EvalConfig, configs
from amicus_desktop.evaluate.golden import GoldenQuery
from amicus_desktop.knobs import BY_NAME, KNOBS, Knob, defaults
from amicus_desktop.retrieval.request import SearchRequest

QUESTION = GoldenQuery(id="q1", query="grace", judgments={})
#: a value other than the default for each knob with a place in a retrieval
OTHER = {"k": 3, "min_similarity": 0.5, "mode": "keyword", "candidates": 30, "workspace": "w1", "chapter_boost": 2.0,
         "reference_boost": 1.1, "scholar_boost": 1.25, "tradition_boost": 1.25, "scholar_cap": None,
         "vocabulary_boost": 1.3, "fusion": "rrf", "alpha": 0.25, "spread": 0.8, "focus": 1.2}


def test_a_knob_without_a_part_is_held_and_reaches_the_retrieval() -> None:
    config = BY_NAME["min_similarity"].put(BY_NAME["k"].put(EvalConfig(), 7), 0.25)
    assert config.other_knobs == (("k", 7), ("min_similarity", 0.25))
    assert BY_NAME["k"].read(config) == 7 and BY_NAME["k"].read(EvalConfig()) == defaults()["k"]
    ctx = config.context(QUESTION, ())
    assert (ctx.k, ctx.min_similarity, ctx.query) == (7, 0.25, "grace")
    assert "k 7" in config.describe()
    assert configs.from_json(configs.to_json(config)) == config
    assert EvalConfig().other_knobs == () and configs.from_json(configs.to_json(EvalConfig())) == EvalConfig()


@pytest.mark.parametrize("knob", [k for k in KNOBS if k.target is not None], ids=lambda k: k.name)
def test_every_knob_with_a_place_is_set_on_a_question_as_on_a_request(knob: Knob) -> None:
    value = OTHER[knob.name]
    assert knob.held(EvalConfig()) and value != defaults()[knob.name]
    ctx = knob.put(EvalConfig(), value).context(QUESTION, ())
    request = SearchRequest.of("grace", {knob.name: value}).context(())
    assert knob.read(ctx) == knob.read(request) == value

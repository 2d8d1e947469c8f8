"""The table of a search request's knobs (``amicus_desktop/knobs.py``) and the request built from it
(``retrieval/request.py``): every face is generated from one row, so the faces agree by construction —
these tests hold the table to that (no name twice, each face's name known there), and check that a value
is read and refused the same way wherever it arrives. No database: the rules run before any I/O."""

from __future__ import annotations

import argparse
import math

import pytest

from amicus_desktop import settings_values
from amicus_desktop.cli.eval import EVAL_KNOBS, changed
from amicus_desktop.cli.search_args import add_search_args, request_from_args
from amicus_desktop.core.preset import APP, CONTRACT
from amicus_desktop.core.query import BoostWeights, FusionMethod, SearchMode
from amicus_desktop.evaluate import EvalConfig, tuning
from amicus_desktop.knobs import BY_KEY, BY_NAME, BY_PARAM, BY_SETTING, KNOBS, Kind, defaults
from amicus_desktop.overlays import Overlay
from amicus_desktop.retrieval.request import RequestError, SearchRequest
from amicus_desktop.serve.errors import ServiceError
from amicus_desktop.serve.openapi import document
from amicus_desktop.serve.params import NAMES, parse
from amicus_desktop.settings import OPTIONS, Settings


def _flags(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser(exit_on_error=False)
    add_search_args(p)
    args = p.parse_args(list(argv))
    args.text = "grace"
    return args


def test_each_face_names_each_knob_once() -> None:
    for face in ("name", "flag", "param", "overlay", "setting"):
        names = [getattr(k, face) for k in KNOBS if getattr(k, face) is not None]
        assert len(names) == len(set(names)), face
    assert set(BY_PARAM) <= set(NAMES) and NAMES[0] == "q"
    ctx = SearchRequest().context(())
    for knob in KNOBS:
        if knob.target is not None:  # its path exists in a retrieval context, and reads back what it set
            assert knob.read(knob.put(ctx, defaults()[knob.name])) == defaults()[knob.name]
        if knob.compare:  # and in an eval configuration
            assert knob.read(EvalConfig()) == defaults()[knob.name]


def test_the_defaults_are_the_contracts_and_a_preset_overrides_them() -> None:
    ctx = SearchRequest.of("grace", {}).context(())
    assert ctx.weights == BoostWeights() and ctx.mode is SearchMode.SEMANTIC and ctx.policy == CONTRACT.policy
    app = SearchRequest.of("grace", {}, preset="app").context(())
    assert app.mode is APP.mode and app.weights == APP.weights and app.policy == APP.policy
    assert app.fusion == APP.fusion and app.k == APP.k


def test_flags_pairs_and_an_overlay_make_the_same_request() -> None:
    by_flags = request_from_args(_flags("--k", "7", "--mode", "hybrid", "--book", "rom", "--pin", "a", "--pin", "b"))
    by_pairs = parse([("q", "grace"), ("k", "7"), ("mode", "hybrid"), ("filter.book", "rom"), ("pin", "a"),
                      ("pin", "b")]).request
    assert by_flags.context({"romans"}) == by_pairs.context({"romans"})
    overlay = Overlay.from_json({"role_id": "r", "retrieval_policy": {"k": 3, "mode": "keyword",
                                                                     "weights": {"chapter": 2}}})
    under = by_pairs.under(overlay).context(())
    assert (under.k, under.mode, under.weights.chapter) == (7, SearchMode.HYBRID, 2.0)  # given explicitly wins
    assert under.governance is not None and under.governance.role_id == "r"


@pytest.mark.parametrize(("pairs", "words"), [
    ([("k", "ten")], "k: invalid int value: 'ten'"),
    ([("k", "0")], "k must be between 1 and 50, not 0"),
    ([("threshold", "inf")], "threshold: not a finite number: 'inf'"),
    ([("filter.source_type", "blog")], "filter.source_type: invalid choice: 'blog'"),
    ([("mode", "fuzzy")], "mode must be one of dense, semantic, hybrid, keyword, not 'fuzzy'."),
    ([("candidates", "3"), ("k", "5")], "candidates (3) must be at least k (5)"),
    ([("pin", "a")] * 51, "A request may give at most 50 chunks to pin."),  # a knob's ``most``
    ([("filter.book", "b")] * 1001, "at most 1,000 values of the repeatable parameters"),
])
def test_the_service_names_its_parameters_in_a_refusal(pairs: list[tuple[str, str]], words: str) -> None:
    with pytest.raises(ServiceError) as caught:
        parse([("q", "grace"), *pairs])
    assert words in caught.value.message


def test_a_refusal_names_the_knob_as_each_face_does() -> None:
    request = SearchRequest.of("grace", {"book": ("narnia",)})
    with pytest.raises(RequestError) as caught:
        request.context(())
    assert str(caught.value) == "--book: no book of the Bible is called 'narnia'"
    assert caught.value.named(lambda k: k.param) == "filter.book: no book of the Bible is called 'narnia'"


def test_compare_keys_and_eval_flags_are_the_tables() -> None:
    assert set(BY_KEY) == {k.key for k in EVAL_KNOBS if k.compare}
    config, connection = changed(EvalConfig(), "chapter-boost=2,fusion=RRF,scholar-cap=none,db=x.db")
    assert (config.weights.chapter, config.fusion.method, config.weights.per_scholar_cap) == (2.0, FusionMethod.RRF,
                                                                                             None)
    assert connection == {"db": "x.db"}
    with pytest.raises(ValueError, match="--compare: alpha takes a number, not 'x'"):
        changed(EvalConfig(), "alpha=x")


def test_the_weight_search_and_the_settings_take_their_ranges_from_the_table() -> None:
    assert [k.name for k in tuning.KNOBS] == [k.key for k in KNOBS if k.grid]
    by_name = {o.name: o for o in OPTIONS}
    for setting, knob in BY_SETTING.items():
        default = getattr(Settings(), setting)
        assert by_name[setting].coerce(default.value if isinstance(default, SearchMode) else default) is not None
        if knob.kind in (Kind.NUMBER, Kind.WHOLE):
            lo, hi = knob.settings_bounds()
            with pytest.raises(ValueError):
                by_name[setting].coerce(hi + 1)
            if not knob.low_open:
                assert by_name[setting].coerce(lo) == lo
    assert settings_values.BOOST_RANGE == BY_NAME["chapter_boost"].settings_bounds()


def test_the_openapi_document_describes_each_knob_from_its_row() -> None:
    params = {p["name"]: p for p in document()["paths"]["/retrieve"]["get"]["parameters"]}
    for name, knob in BY_PARAM.items():
        schema = params[name]["schema"]
        schema = schema.get("items", schema)
        if knob.kind is Kind.WHOLE:
            assert (schema["minimum"], schema["maximum"]) == (knob.lo, knob.hi)
        if knob.choices:
            assert set(knob.choices) <= set(schema["enum"])
    assert "default 5" in params["k"]["description"]
    assert math.isclose(params["threshold"]["schema"]["maximum"], 1.0)

"""Snapshots that replay and N rankings side by side, without a library: a configuration written and read
back the same, a lineup's means, intervals and ranks computed by hand, a replay explained per question."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amicus_desktop.core.governance import Governance
from amicus_desktop.core.query import BoostWeights, Fusion, FusionMethod, Profile, RankingPolicy, SearchMode
from amicus_desktop.evaluate import configs, metrics
from amicus_desktop.evaluate.golden import GoldenQuery, GoldenSet
from amicus_desktop.evaluate.lineup import ALL, Ranking, describe, lineup
from amicus_desktop.evaluate.replay import explain
from amicus_desktop.evaluate.run import EvalConfig
from amicus_desktop.evaluate.snapshots import Snapshot, SnapshotError, load, save


def test_a_configuration_round_trips_through_json() -> None:
    config = EvalConfig(
        mode=SearchMode.HYBRID, weights=BoostWeights(chapter=2.0, scholar=1.1, tradition=1.05, per_scholar_cap=None,
                                                     reference=1.25, vocabulary=1.4),
        fusion=Fusion(FusionMethod.RRF, 0.4), candidates=60,
        policy=RankingPolicy(spread=0.8, passage_first=True, source_priors=True, focus=1.3, word_bridge=True),
        workspace="sermons", governance=Governance("pastor", frozenset({"x"}), frozenset({"lexicon"}), ("grace",),
                                                   ("fate",), True),
        preferred=Profile.of(["c-h-spurgeon"], ["reformed"]))
    data = json.loads(json.dumps(configs.to_json(config)))  # plain JSON all the way
    assert data["knobs"]["mode"] == "hybrid" and data["knobs"]["scholar_cap"] is None
    assert data["knobs"]["workspace"] == "sermons" and data["overlay"]["role_id"] == "pastor"
    assert configs.from_json(data) == config
    assert configs.from_json(configs.to_json(EvalConfig())) == EvalConfig()
    with pytest.raises(ValueError, match=r"knobs\.mode"):
        configs.from_json({"knobs": {"mode": "loud"}})
    with pytest.raises(ValueError, match="overlay"):
        configs.from_json({"overlay": {"forbidden_scholars": []}})


GOLDEN = GoldenSet("t", (
    GoldenQuery("q1", "grace", {"a": 3, "b": 1, "z": 0}, extra={"kind": "word"}),
    GoldenQuery("q2", "faith", {"c": 2}, extra={"kind": "word"}),
    GoldenQuery("q3", "romans 9", {"d": 3, "e": 2}, chapter="romans:9"),
))


def test_three_rankings_against_a_chosen_baseline_per_kind_with_the_rank_of_every_judged_chunk() -> None:
    base = Ranking("base", "semantic", {"q1": ("a", "b", "x"), "q2": ("x", "c"), "q3": ("d", "e")})
    worse = Ranking("worse", "keyword", {"q1": ("x", "b", "a"), "q2": ("x", "y"), "q3": ("e", "x", "d")})
    old = Ranking("old", "hybrid", {"q1": ("a", "b")})  # a snapshot that lacks two questions
    found = lineup([base, worse, old], GOLDEN, baseline=0)
    assert [k.kind for k in found.kinds] == [ALL, "chapter", "word"]
    everything = found.kinds[0]
    per_q = {q: metrics.ndcg(base.ranked[q], GOLDEN.query(q).judgments) for q in ("q1", "q2", "q3")}
    assert everything.cells[0]["ndcg@10"].mean == pytest.approx(sum(per_q.values()) / 3)
    assert everything.cells[0]["ndcg@10"].delta is None  # the baseline is not measured against itself
    cell = everything.cells[1]["ndcg@10"]
    assert cell.delta is not None and cell.delta < 0 and cell.low is not None and cell.high is not None
    assert cell.low <= cell.delta <= cell.high
    word = found.kinds[2]
    assert word.questions == 2 and word.cells[2]["mrr@10"].mean == pytest.approx(0.5)  # q1 1.0, q2 missing: 0
    q1 = next(q for q in found.questions if q.id == "q1")
    assert [(c.chunk_id, c.grade, c.ranks) for c in q1.chunks] == [("a", 3, (1, 3, 1)), ("b", 1, (2, 2, 2))]
    q2 = next(q for q in found.questions if q.id == "q2")
    assert q2.ndcg[2] is None and q2.chunks[0].ranks == (2, None, None)
    assert found.questions[0].spread >= found.questions[-1].spread  # the biggest differences first
    text = describe(found)
    assert "0: base (baseline) — semantic" in text and "word (2 questions)" in text and "#3" in text
    again = lineup([base, worse, old], GOLDEN, baseline=1)
    assert again.kinds[0].cells[0]["ndcg@10"].delta == pytest.approx(-cell.delta)
    assert again.to_json()["baseline"] == "worse"
    with pytest.raises(ValueError, match="baseline"):
        lineup([base], GOLDEN, baseline=1)


def test_a_replay_says_which_judged_chunks_moved_and_which_the_library_lost(tmp_path: Path) -> None:
    then = Snapshot("before", "2026-01-01T00:00:00Z", "t", "semantic", "m",
                    (("q1", "grace", ("a", "b", "x")), ("q2", "faith", ("c",)), ("q3", "romans 9", ("d", "e"))),
                    configs.to_json(EvalConfig()), {"id": "b1", "chunks": 100, "built": "2026-01-01"},
                    {"mean": {"ndcg@10": 0.9}})
    now = Snapshot("before, replayed", "", "t", "semantic", "m",
                   (("q1", "grace", ("x", "b", "y")), ("q2", "faith", ("c",)), ("q3", "romans 9", ("e", "d"))),
                   configs.to_json(EvalConfig()), {"id": "b2", "chunks": 98, "built": "2026-02-01"})
    found = explain(then, now, GOLDEN, gone=frozenset({"a"}))
    by_id = {q.id: q for q in found.questions}
    assert [m.words() for m in by_id["q1"].moved] == ["“a” (grade 3) left the top 10 (was #1) (the library no longer "
                                                      "holds it)"]
    assert by_id["q2"].moved == () and by_id["q2"].delta == 0
    assert [m.words() for m in by_id["q3"].moved] == ["“d” (grade 3) #1 → #2", "“e” (grade 2) #2 → #1"]
    assert by_id["q1"].sentence().startswith("nDCG@10 ") and "left the top 10" in by_id["q1"].sentence()
    changes = found.changes()
    assert "the library held 100 chunks, now 98" in changes
    assert any("another build" in c for c in changes) and any("the judgments changed" in c for c in changes)
    assert found.to_json()["questions"][0]["moved"][0]["gone"] is True
    # the configuration travels in the file, and a configuration that cannot be rebuilt is refused on reading
    path = save(then, tmp_path)
    assert load(path) == then and load(path).replayable
    path.write_text(json.dumps({**then.to_json(), "settings": {"knobs": {"candidates": "many"}}}))
    with pytest.raises(SnapshotError, match=r"knobs\.candidates"):
        load(path)
    assert not Snapshot("old", "", "t", "", "m", ()).replayable

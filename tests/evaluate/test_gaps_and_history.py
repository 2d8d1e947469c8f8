"""Judgment gaps (``evaluate/gaps.py``) and the history of evaluation runs (``evaluate/history.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amicus_desktop.core.query import SearchMode
from amicus_desktop.evaluate import history
from amicus_desktop.evaluate.gaps import coverage, queue
from amicus_desktop.evaluate.golden import parse
from amicus_desktop.evaluate.run import EvalConfig, EvalReport, QueryScore

GOLDEN = parse({"name": "g", "queries": [
    {"id": "a", "query": "q a", "judgments": {"x": 3, "y": 0}},
    {"id": "b", "query": "q b", "judgments": {"z": 1}},
]})


def report(ranked_a: tuple[str, ...], ranked_b: tuple[str, ...]) -> EvalReport:
    return EvalReport("g", EvalConfig(SearchMode.HYBRID), "m", (
        QueryScore("a", "q a", ranked_a, {"ndcg@10": 0.5, "mrr@10": 1.0, "recall@10": 1.0}, relevant=1, in_pool=1),
        QueryScore("b", "q b", ranked_b, {"ndcg@10": 0.0, "mrr@10": 0.0, "recall@10": 0.0}, relevant=1, in_pool=0),
    ))


def test_the_queue_is_by_question_then_rank_each_chunk_once() -> None:
    one, two = report(("u", "x", "v"), ("w", "z")), report(("v", "x"), ("z", "w", "t"))
    gaps = queue(GOLDEN, [one, two])
    assert [(g.query_id, g.rank, g.chunk_id) for g in gaps] == [
        ("a", 1, "u"), ("a", 1, "v"), ("b", 1, "w"), ("b", 3, "t")]
    cov = coverage(GOLDEN, one)
    assert cov.judged_share == pytest.approx((1 / 3 + 1 / 2) / 2) and cov.unjudged == 3 and cov.questions == 2
    assert "3 unjudged results over 2 questions" in cov.sentence()
    assert coverage(GOLDEN, report(("x", "y"), ("z",))).sentence("A") == "A: every top-10 result is judged"


def test_history_keeps_every_run_in_order_and_survives_a_damaged_file(tmp_path: Path) -> None:
    r = report(("x",), ("z",))
    for at in ("2026-11-27T10:00:00Z", "2026-11-20T10:00:00Z"):
        history.record(tmp_path, "demo set/1", history.Run.of(r, library="/x/scripture.db", chunks=12, at=at))
    runs = history.load(tmp_path, "demo set/1")
    assert [run.at for run in runs] == ["2026-11-20T10:00:00Z", "2026-11-27T10:00:00Z"]  # oldest first
    assert runs[0].metrics["ndcg@10"] == 0.25 and runs[0].settings["mode"] == "hybrid" and runs[0].chunks == 12
    path = history.file_for(tmp_path, "demo set/1")
    assert path.name == "demo-set-1.json"
    assert "q a" not in path.read_text()  # no question text in the history
    data = json.loads(path.read_text())
    data["runs"].append({"at": 5})  # one damaged run is left out, the others stay
    path.write_text(json.dumps(data))
    assert len(history.load(tmp_path, "demo set/1")) == 2
    path.write_text("{not json")
    assert history.load(tmp_path, "demo set/1") == []
    history.record(tmp_path, "demo set/1", history.Run.of(r, library="x"))
    assert len(history.load(tmp_path, "demo set/1")) == 1

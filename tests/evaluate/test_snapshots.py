"""Snapshots on disk (#20.14): whatever is in the folder, reading says ``SnapshotError`` or works; and two snapshots
compared question by question (better, worse or the same, on the set's current judgments)."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest

from amicus_desktop.evaluate import snapshots
from amicus_desktop.evaluate.golden import GoldenQuery, GoldenSet
from amicus_desktop.evaluate.snapshots import Snapshot, SnapshotError, listing, load, save

GOOD = Snapshot("before", "2026-01-01T00:00:00Z", "demo", "hybrid", "m", (("q1", "grace", ("a", "b")),))


def test_round_trip_and_newest_first(tmp_path: Path) -> None:
    first = save(GOOD, tmp_path)
    os.utime(first, ns=(1, 1))
    second = save(Snapshot("after", "", "demo", "", "m", ()), tmp_path)
    assert listing(tmp_path) == [second, first]
    assert load(first) == GOOD


def test_a_dangling_link_in_the_folder_is_left_out_and_cannot_be_read(tmp_path: Path) -> None:
    save(GOOD, tmp_path)
    (tmp_path / "gone.json").symlink_to(tmp_path / "nowhere.json")
    assert [p.name for p in listing(tmp_path)] == ["before.json"]  # listing raised FileNotFoundError
    with pytest.raises(SnapshotError, match=r"gone\.json"):
        load(tmp_path / "gone.json")


@pytest.mark.parametrize(
    "text",
    [
        '{"name": "x", "queries": ' + "[" * 3000 + "]" * 3000 + "}",  # RecursionError before
        '{"name": "x", "queries": [{"id": "q", "query": "g", "ranked": "abc"}]}',  # a string is not a ranking
        '{"name": "x", "queries": [{"id": 5, "query": "g", "ranked": []}]}',
        '{"name": "x", "queries": [{"id": "q", "query": "g", "ranked": [1, 2]}]}',
        '{"name": "x", "queries": {"id": "q"}}',
        '{"name": ["x"], "queries": []}',
        '{"name": "x", "model": 7, "queries": []}',
        '{"name": "x", "queries": [{"id": "\\ud800", "query": "g", "ranked": []}]}',
        '{"name": "x", "queries": [{"id": "q", "query": "g", "ranked": [' + "9" * 5000 + "]}]}",
        "[1, 2]",
        "\xff\xfe",
    ],
)
def test_bad_values_and_deep_nesting_are_snapshot_errors(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    with pytest.raises(SnapshotError, match=r"bad\.json"):
        load(path)


def test_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.json")
    with pytest.raises(SnapshotError, match="not a regular file"):
        load(tmp_path / "pipe.json")
    assert json.loads(json.dumps(GOOD.to_json()))["name"] == "before"


# -- before and after (ingest --compare-golden) -------------------------------------------------

def _snap(name: str, ranked: dict[str, tuple[str, ...]]) -> snapshots.Snapshot:
    return snapshots.Snapshot(name, "2026-11-26T00:00:00Z", "g", "hybrid", "m",
                              tuple((qid, f"question {qid}", r) for qid, r in ranked.items()))


GOLDEN = GoldenSet("g", (
    GoldenQuery("up", "question up", {"new": 3}),
    GoldenQuery("down", "question down", {"old": 3}),
    GoldenQuery("flat", "question flat", {"x": 2}),
    GoldenQuery("later", "a question no snapshot has", {"x": 1}),
))


def test_diff_counts_and_scores_every_question() -> None:
    before = _snap("before", {"up": ("a", "b"), "down": ("old", "b"), "flat": ("x",)})
    after = _snap("after", {"up": ("new", "a"), "down": ("new", "old"), "flat": ("x",)})
    d = snapshots.diff(before, after, GOLDEN)
    assert d.counts == {"better": 1, "worse": 1, "same": 2} and d.headline() == "1 better, 1 worse, 2 same"
    by_id = {q.id: q for q in d.questions}
    assert [q.id for q in d.questions][:2] == ["up", "down"]  # biggest changes first (ties by id)
    assert by_id["up"].delta == {"ndcg@10": 1.0, "mrr@10": 1.0, "recall@10": 1.0}
    assert by_id["up"].entered == ("new",) and by_id["up"].left == ("b",)
    assert by_id["down"].after["ndcg@10"] == pytest.approx(1 / math.log2(3))
    assert by_id["down"].after["mrr@10"] == 0.5 and by_id["down"].verdict == "worse"
    assert by_id["later"].before == by_id["later"].after == {"ndcg@10": 0.0, "mrr@10": 0.0, "recall@10": 0.0}
    out = d.to_json()
    assert (out["better"], out["worse"], out["same"]) == (1, 1, 2)
    assert out["mean"]["delta"]["ndcg@10"] == pytest.approx((1.0 + 1 / math.log2(3) - 1) / 4)


def test_an_empty_snapshot_ranks_nothing_and_round_trips(tmp_path) -> None:
    empty = snapshots.empty("before-ingest", GOLDEN, "hybrid", "")
    assert [empty.ranked(q.id) for q in GOLDEN.queries] == [()] * 4
    path = snapshots.save(empty, tmp_path)
    assert snapshots.load(path) == empty
    d = snapshots.diff(empty, _snap("after", {"up": ("new",)}), GOLDEN)
    assert d.counts == {"better": 1, "worse": 0, "same": 3}

"""Snapshots on disk (#20.14): whatever is in the folder, reading says ``SnapshotError`` or works."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

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

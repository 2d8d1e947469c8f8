"""Golden sets: reading with precise errors, keeping what curators add, writing atomically."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amicus_desktop.core.query import SearchMode
from amicus_desktop.evaluate import GoldenError, GoldenQuery, GoldenSet, load, save

GOOD = {
    "name": "t",
    "provenance": "hand-judged",
    "queries": [
        {"id": "q1", "query": "grace", "mode": "hybrid", "chapter": "romans:9",
         "profile": {"scholars": ["henry"], "traditions": []}, "notes": "why",
         "judgments": {"a": 3, "b": 0}},
        {"id": "q2", "query": "love", "judgments": {}},
    ],
}


def test_round_trip_keeps_extra_keys(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(GOOD))
    golden = load(path)
    assert golden.queries[0].mode is SearchMode.HYBRID and golden.queries[0].scholars == ("henry",)
    save(golden, tmp_path / "again.json")
    again = json.loads((tmp_path / "again.json").read_text())
    assert again["provenance"] == "hand-judged" and again["queries"][0]["notes"] == "why"
    assert load(tmp_path / "again.json") == golden
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"name": "t", "queries": [\n  {"id": "q1",\n   "query": }\n]}', "line 3"),
        ('[1, 2]', "JSON object"),
        ('{"queries": []}', "'name'"),
        ('{"name": "t", "queries": {}}', "'queries'"),
        ('{"name": "t", "queries": [{"id": "q1", "query": "x", "judgments": {"a": 4}}]}', "queries[0].judgments['a']"),
        ('{"name": "t", "queries": [{"id": "q1", "query": "x", "judgments": {"a": true}}]}', "grade"),
        ('{"name": "t", "queries": [{"id": "q1", "query": "x"}, {"id": "q1", "query": "y"}]}', "queries[1].id"),
        ('{"name": "t", "queries": [{"id": "q1", "query": " "}]}', "queries[0].query"),
        ('{"name": "t", "queries": [{"id": "q1", "query": "x", "mode": "fuzzy"}]}', "queries[0].mode"),
        ('{"name": "t", "queries": [{"id": "q1", "query": "x", "profile": {"scholars": "a"}}]}', "profile.scholars"),
    ],
)
def test_errors_name_the_line_or_key(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(GoldenError) as err:
        load(path)
    assert says in str(err.value)


def test_judging_adds_and_removes() -> None:
    golden = GoldenSet("t", (GoldenQuery("q1", "grace", {}),))
    q = golden.queries[0].judge("a", 3).judge("b", 1).judge("a", None)
    assert q.judgments == {"b": 1}
    with pytest.raises(GoldenError):
        q.judge("c", 5)
    assert golden.with_query(q).queries[0].judgments == {"b": 1}
    assert len(golden.with_query(GoldenQuery("q2", "x", {})).queries) == 2

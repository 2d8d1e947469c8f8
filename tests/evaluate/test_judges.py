"""Who judged what (``judges`` in a golden set, ``evaluate/judges.py``): read, written, kept compatible."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amicus_desktop.evaluate import GoldenError, load, save
from amicus_desktop.evaluate.golden import GoldenQuery, parse

WITH_JUDGES = {
    "name": "t", "provenance": "two judges",
    "queries": [{
        "id": "q1", "query": "grace", "rationale": {"a": "on topic"}, "judgments": {"a": 3, "b": 1},
        "judges": {"a": [{"by": "ana", "grade": 3, "at": "2026-11-27T10:00:00Z"},
                         {"by": "ben", "grade": 2, "at": "2026-11-28T09:00:00Z"}],
                   "b": [{"by": "ana", "grade": 1}]},
    }],
}


def test_judges_round_trip_beside_the_keys_the_format_does_not_name(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(WITH_JUDGES))
    golden = load(path)
    q = golden.queries[0]
    assert q.judgments == {"a": 3, "b": 1}  # the set's grade: what eval scores
    assert [(r.by, r.grade, r.at) for r in q.ratings["a"]] == [("ana", 3, "2026-11-27T10:00:00Z"),
                                                                ("ben", 2, "2026-11-28T09:00:00Z")]
    assert golden.judges() == ["ana", "ben"]
    save(golden, tmp_path / "again.json")
    again = json.loads((tmp_path / "again.json").read_text())
    assert again == WITH_JUDGES  # every key, the judges' included, as it was
    assert "judges" not in q.extra


def test_judging_under_a_name_records_the_rating_and_replaces_ones_own() -> None:
    q = GoldenQuery("q1", "grace", {})
    q = q.judge("a", 2, by="ana", at="t1").judge("a", 3, by="ben", at="t2").judge("a", 1, by="ana", at="t3")
    assert q.judgments == {"a": 1}  # the last grade given is the set's
    assert [(r.by, r.grade, r.at) for r in q.ratings["a"]] == [("ben", 3, "t2"), ("ana", 1, "t3")]
    q = q.judge("a", None, by="ana")
    assert q.judgments == {} and [r.by for r in q.ratings["a"]] == ["ben"]
    assert GoldenQuery("q", "x", {}).judge("c", 2).ratings == {}  # no name: no rating recorded


@pytest.mark.parametrize(("judges", "says"), [
    ([], "expected an object of chunk id"),
    ({"a": {"by": "x"}}, "expected a list of ratings"),
    ({"a": [{"grade": 2}]}, r"judges\['a'\]\[0\]\.by: expected the judge's name"),
    ({"a": [{"by": "x", "grade": 5}]}, r"judges\['a'\]\[0\]\.grade: a grade is an integer from 0 to 3"),
    ({"a": [{"by": "x", "grade": 1}, {"by": "x", "grade": 2}]}, "rates this chunk twice"),
    ({"a": [{"by": "x", "grade": 1, "at": 5}]}, "expected a time as text"),
])
def test_bad_judges_name_their_key(judges: object, says: str) -> None:
    data = {"name": "t", "queries": [{"id": "q1", "query": "x", "judgments": {}, "judges": judges}]}
    with pytest.raises(GoldenError, match=says):
        parse(data)

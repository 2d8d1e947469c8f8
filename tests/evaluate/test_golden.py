"""Golden sets: reading with precise errors, keeping what curators add, writing atomically."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amicus_desktop.core.query import SearchMode
from amicus_desktop.evaluate import GoldenError, GoldenQuery, GoldenSet, load, save
from amicus_desktop.evaluate.golden import MAX_FILE_BYTES
from amicus_desktop.understand import parse_passage

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


# -- hostile golden files (#20.9) ----------------------------------------------------------------
_Q = '{"name": "t", "queries": [{"id": "q1", "query": "x"%s}]}'


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (_Q % ', "chapter": "nowhere"', "queries[0].chapter"),
        (_Q % ', "chapter": 9', "queries[0].chapter"),
        (_Q % ', "mode": ["hybrid"]', "queries[0].mode"),
        (_Q % ', "mode": {"a": 1}', "queries[0].mode"),
        (_Q % (', "judgments": {"a": ' + "9" * 5000 + "}"), "4300 digits"),
        (_Q % ', "judgments": {"a": 1e999}', "queries[0].judgments['a']"),
        ('{"name": "t", "queries": ' + "[" * 3000 + "]" * 3000 + "}", "nested too deeply"),
        (_Q % (', "notes": {"deep": ' + "[" * 3000 + "]" * 3000 + "}"), "nested too deeply"),
        ('{"name": "t", "queries": [{"id": "q\\ud800", "query": "x"}]}', "queries[0].id"),
        ('{"name": "t", "queries": [{"id": "q1", "query": "\\udfff grace"}]}', "queries[0].query"),
        (_Q % ', "notes": {"why": ["ok", "\\ud83d"]}', "queries[0].notes.why[1]"),
        ('{"name": "t", "queries": [{"id": "q1", "query": "x", "judgments": {"\\ud800": 1}}]}', "a key in"),
    ],
)
def test_hostile_files_are_golden_errors_naming_the_key(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(GoldenError) as err:
        load(path)
    assert says in str(err.value) and len(str(err.value)) < 300


def test_a_fifo_a_device_and_a_huge_file_are_refused_without_reading_them(tmp_path: Path) -> None:
    """``eval`` on a FIFO hung for ever; ``eval /dev/zero`` grew to 21 GB."""
    fifo = tmp_path / "golden.json"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero"), tmp_path):
        with pytest.raises(GoldenError, match="not a regular file"):
            load(path)
    huge = tmp_path / "huge.json"
    with huge.open("wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)  # sparse: costs no disk
    with pytest.raises(GoldenError, match="larger than"):
        load(huge)


_TEXT = st.text(st.characters(categories=["Lu", "Ll", "Nd", "Po", "Cc", "Cs"]), max_size=8)  # Cs: lone surrogates
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False) | _TEXT,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(_TEXT, children, max_size=4),
    max_leaves=5,
)
_TRICKY = st.sampled_from(["hybrid", ["hybrid"], {"a": 3}, 3, None, "nowhere", "romans:9", "rom 9", "q1",
                           {"a": 4}, {"a": True}, [], "Gen 3:11-1Jn 9", "romans:0", {"scholars": "a"}])
_KEYS = st.sampled_from(["id", "query", "mode", "chapter", "profile", "judgments", "notes"])
_QUERY = st.dictionaries(_KEYS, _TRICKY | _TRICKY | _JSON, max_size=5)
_GOLDEN = st.fixed_dictionaries({"name": st.just("t") | _TEXT, "queries": st.lists(_QUERY, max_size=3) | _JSON})
_MONSTERS = st.sampled_from(["[" * 3000 + "]" * 3000, "9" * 5000, "1e999", "-0", '"\\ud800"', "NaN"])


def _insert(text: str, at: int, piece: str) -> bytes:
    at = min(at, len(text))
    return (text[:at] + piece + text[at:]).encode("utf-8", "surrogatepass")


_FILES = st.one_of(
    _GOLDEN.map(lambda d: json.dumps(d).encode()),
    _JSON.map(lambda d: json.dumps(d).encode()),
    st.binary(max_size=64),
    st.builds(_insert, _GOLDEN.map(json.dumps), st.integers(0, 200), _MONSTERS | _TEXT),
)


@settings(max_examples=1000, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=_FILES)
def test_fuzzed_golden_files_are_read_or_refused_by_name(tmp_path: Path, raw: bytes) -> None:
    """1,000 generated files: each is a golden set or a GoldenError — never another exception."""
    path = tmp_path / "fuzzed.json"
    path.write_bytes(raw)
    try:
        golden = load(path)
    except GoldenError as err:
        assert str(err)
        return
    for q in golden.queries:  # what was read is usable: savable text, valid modes, chapters and grades
        json.dumps(q.to_json(), ensure_ascii=False).encode("utf-8")
        assert q.mode is None or isinstance(q.mode, SearchMode)
        assert q.chapter is None or parse_passage(q.chapter, check_bounds=False)
        assert all(g in range(4) for g in q.judgments.values())

"""Reading and checking an overlay (CONTRACT section 12): the shipped schema with ``jsonschema``, every
problem named by its JSON pointer, the rules between fields, and the file read back as it was written."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from amicus_desktop.core.query import SOURCE_TYPES, SearchMode
from amicus_desktop.overlays import Overlay, OverlayError, check, parse_overlay, read_overlay
from amicus_desktop.resources import resource_path
from amicus_desktop.schemas import schema

SAMPLE = resource_path("overlays", "sample-pastor.json")


def sample() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SAMPLE.read_text(encoding="utf-8"))
    return data


def test_the_sample_overlay_is_valid_and_means_what_it_says() -> None:
    overlay = read_overlay(SAMPLE)
    assert overlay.role_id == "sample-pastor"
    assert overlay.governance.forbidden_source_types == {"word_study", "cross_ref_thread_note"}
    assert overlay.governance.boost_terms == ("covenant", "promise", "promises")
    assert overlay.flag_defaults() == {
        "mode": "hybrid", "k": 5, "candidates": 40, "min_similarity": None, "scholar_cap": 3,
        "chapter_boost": 1.5, "scholar_boost": 1.1, "tradition_boost": 1.05, "reference_boost": 1.25,
        "vocabulary_boost": 1.2, "prefer_scholar": ["example-pastor"], "prefer_tradition": ["reformed"],
    }
    assert overlay.golden_set == "../golden/sample.json"
    assert (SAMPLE.parent / overlay.golden_set).is_file()


def test_only_role_id_is_required() -> None:
    assert check({"role_id": "r"}) == []
    assert [str(p) for p in check({})] == ["/role_id: missing (required)"]
    assert Overlay.from_json({"role_id": "r"}).flag_defaults() == {}


def _set(data: dict[str, Any], pointer: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(data)
    *path, last = pointer.strip("/").split("/")
    node: Any = out
    for part in path:
        node = node[int(part)] if isinstance(node, list) else node.setdefault(part, {})
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return out


#: broken copies of the sample: (pointer, value) → the pointer the problem is named by
BROKEN = [
    ("/role_id", "Reformed Pastor", "/role_id"),
    ("/role_id", 7, "/role_id"),
    ("/vocabulary/boost/1", "", "/vocabulary/boost/1"),
    ("/vocabulary/boost/0", " covenant", "/vocabulary/boost/0"),
    ("/vocabulary/suppress", "tabernacle", "/vocabulary/suppress"),
    ("/vocabulary/boost/2", "covenant", "/vocabulary/boost"),  # the same term twice
    ("/vocabulary/stem", True, "/vocabulary/stem"),
    ("/source_policy/forbidden_source_types/0", "sermon", "/source_policy/forbidden_source_types/0"),
    ("/source_policy/forbidden_scholars", ["c i scofield"], "/source_policy/forbidden_scholars/0"),
    ("/retrieval_policy/mode", "fuzzy", "/retrieval_policy/mode"),
    ("/retrieval_policy/k", 0, "/retrieval_policy/k"),
    ("/retrieval_policy/k", 51, "/retrieval_policy/k"),
    ("/retrieval_policy/candidates", 4097, "/retrieval_policy/candidates"),
    ("/retrieval_policy/min_similarity", 1.5, "/retrieval_policy/min_similarity"),
    ("/retrieval_policy/weights/vocabulary", 0, "/retrieval_policy/weights/vocabulary"),
    ("/retrieval_policy/weights/chapter", 101, "/retrieval_policy/weights/chapter"),
    ("/retrieval_policy/weights/era", 1.1, "/retrieval_policy/weights/era"),
    ("/retrieval_policy/scholar_cap", 0, "/retrieval_policy/scholar_cap"),
    ("/retrieval_policy/freshness_days", 30, "/retrieval_policy/freshness_days"),  # not a rule here
    ("/eval_profile/golden_set", "", "/eval_profile/golden_set"),
    ("/anti_goals", "none", "/anti_goals"),
    # what a schema cannot state
    ("/retrieval_policy/candidates", 4, "/retrieval_policy/candidates"),  # below k (5)
    ("/source_policy/forbidden_scholars", ["example-pastor"], "/source_policy/preferred_scholars/0"),
]


@pytest.mark.parametrize(("pointer", "value", "named"), BROKEN)
def test_every_problem_of_a_broken_copy_is_named_by_its_pointer(pointer: str, value: Any, named: str) -> None:
    problems = check(_set(sample(), pointer, value))
    assert named in [p.path for p in problems], problems
    with pytest.raises(OverlayError) as caught:
        parse_overlay(_set(sample(), pointer, value), "broken.json")
    assert str(caught.value).startswith(f"broken.json is not a valid overlay: {problems[0].path}: ")


def test_a_keyword_policy_with_a_minimum_similarity_is_refused() -> None:
    data = _set(_set(sample(), "/retrieval_policy/mode", "keyword"), "/retrieval_policy/min_similarity", 0.3)
    assert [p.path for p in check(data)] == ["/retrieval_policy/min_similarity"]


def test_problems_come_in_the_files_order_and_the_error_counts_the_rest() -> None:
    data = {"retrieval_policy": {"k": 99}, "role_id": "Bad Id", "zzz": 1}
    assert [p.path for p in check(data)] == ["/retrieval_policy/k", "/role_id", "/zzz"]
    with pytest.raises(OverlayError, match=r"/retrieval_policy/k: must be at most 50, not 99 \(and 2 more problems"):
        parse_overlay(data)


@pytest.mark.parametrize(("content", "message"), [
    (b"{not json", "/: not JSON"),
    (b"\xff\xfe{}", "/: not UTF-8 text"),
    (b"[]", "/: must be an object, not"),
    (b"", "/: not JSON"),
])
def test_a_file_that_is_no_overlay_at_all_is_one_problem_at_the_root(tmp_path: Path, content: bytes,
                                                                      message: str) -> None:
    path = tmp_path / "o.json"
    path.write_bytes(content)
    with pytest.raises(OverlayError) as caught:
        read_overlay(path)
    assert str(caught.value.problems[0]).startswith(message)


def test_a_missing_file_and_a_folder_cannot_be_read(tmp_path: Path) -> None:
    for path in (tmp_path / "missing.json", tmp_path):
        with pytest.raises(OverlayError, match="cannot be read"):
            read_overlay(path)


def test_the_schema_agrees_with_the_code() -> None:
    props = schema("overlay")["properties"]
    assert props["source_policy"]["properties"]["forbidden_source_types"]["items"]["enum"] == list(SOURCE_TYPES)
    modes = set(props["retrieval_policy"]["properties"]["mode"]["enum"])
    assert modes == {m.value for m in SearchMode} | {"dense"}


terms = st.lists(st.text(st.characters(categories=("L", "Nd")), min_size=1, max_size=12), unique=True, max_size=4)


@given(boost=terms, suppress=terms, forbidden=st.lists(st.sampled_from(SOURCE_TYPES), unique=True),
       k=st.one_of(st.none(), st.integers(1, 50)), cap=st.one_of(st.none(), st.integers(1, 9)))
def test_what_is_written_is_read_back(boost: list[str], suppress: list[str], forbidden: list[str], k: int | None,
                                      cap: int | None) -> None:
    policy: dict[str, Any] = {"scholar_cap": cap, "weights": {"vocabulary": 1.3}}
    if k is not None:
        policy["k"] = k
    overlay = Overlay("role", boost_terms=tuple(boost), suppress_terms=tuple(suppress),
                      forbidden_source_types=tuple(forbidden), retrieval_policy=policy)
    again = parse_overlay(json.loads(json.dumps(overlay.to_json())))
    assert again == overlay

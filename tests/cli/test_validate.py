"""``amicus-desktop validate overlay|bundle FILE [--json]`` (CONTRACT section 12): exit 0 when valid, else 1
with one ``<json-pointer>: <problem>`` line per problem; the path of every problem in broken copies."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from amicus_desktop.resources import resource_path
from tests.overlays.test_load import BROKEN, _set, sample
from tests.support.cli import query_json, run

SAMPLE = resource_path("overlays", "sample-pastor.json")


def validate(kind: str, path: Path, *flags: str) -> tuple[int, str, str]:
    return run("validate", kind, str(path), *flags)


def test_the_sample_overlay_is_valid() -> None:
    assert validate("overlay", SAMPLE) == (0, f"{SAMPLE}: a valid overlay\n", "")
    code, out, _ = validate("overlay", SAMPLE, "--json")
    assert code == 0 and json.loads(out) == {"valid": True, "errors": []}


@pytest.mark.parametrize(("pointer", "value", "named"), BROKEN)
def test_every_broken_copy_names_the_path_of_its_problem(tmp_path: Path, pointer: str, value: Any,
                                                         named: str) -> None:
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(_set(sample(), pointer, value)))
    code, out, err = validate("overlay", path)
    assert code == 1 and err == ""
    lines = out.splitlines()
    assert lines and all(line.startswith("/") and ": " in line for line in lines)
    assert named in [line.split(": ")[0] for line in lines]
    code, out, _ = validate("overlay", path, "--json")
    report = json.loads(out)
    assert code == 1 and report["valid"] is False and named in [e["path"] for e in report["errors"]]
    assert all(set(e) == {"path", "message"} for e in report["errors"])


def test_one_line_per_problem_in_the_files_order(tmp_path: Path) -> None:
    data = _set(_set(_set(sample(), "/role_id", "Bad Id"), "/retrieval_policy/k", 80), "/unknown", 1)
    path = tmp_path / "three.json"
    path.write_text(json.dumps(data))
    code, out, _ = validate("overlay", path)
    assert code == 1
    assert [line.split(": ")[0] for line in out.splitlines()] == ["/role_id", "/retrieval_policy/k", "/unknown"]


def test_a_file_that_is_not_json_is_one_problem_and_one_that_cannot_be_read_is_usage(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("{oops")
    code, out, _ = validate("overlay", path)
    assert code == 1 and out.startswith("/: not JSON (")
    code, out, err = validate("bundle", tmp_path / "missing.json")
    assert code == 2 and out == "" and "cannot be read" in err
    assert run("validate", "sermon", str(path))[0] == 2


@pytest.fixture(scope="module")
def saved_bundle(sample_db: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    code, out = query_json("What does the new covenant promise?", "--db", str(sample_db), "--overlay", str(SAMPLE),
                           "--mode", "keyword", "--pin", "sample:psalms:23", "--preset", "app")
    assert code == 0
    return out


def test_a_saved_query_json_is_a_valid_bundle(tmp_path: Path, saved_bundle: dict[str, Any]) -> None:
    breakdown = saved_bundle["results"][0]["breakdown"]
    assert {"source_prior", "diversity", "vocabulary_boost"} <= set(breakdown)  # the app's keys and the overlay's
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(saved_bundle))
    assert validate("bundle", path) == (0, f"{path}: a valid bundle\n", "")


def _broken(bundle: dict[str, Any], change: str) -> dict[str, Any]:
    b = copy.deepcopy(bundle)
    if change == "no provenance":
        del b["provenance"]
    elif change == "unknown key":
        b["extra"] = 1
    elif change == "unknown breakdown key":
        b["results"][0]["breakdown"]["era_boost"] = 1.0
    elif change == "unknown reason":
        b["rejected"][0]["reason"] = "too_old"
    elif change == "forbidden without its rule":
        del b["rejected"][0]["rule"]
    elif change == "a rule on another reason":
        b["rejected"][0]["reason"] = "below_cutoff"
    elif change == "score is not final":
        b["results"][1]["score"] += 0.5
    elif change == "ranks skip":
        b["results"][1]["rank"] = 7
    elif change == "final is not the product":
        b["results"][1]["breakdown"]["final"] *= 2
        b["results"][1]["score"] = b["results"][1]["breakdown"]["final"]
    elif change == "no overlay key":
        del b["query_trace"]["overlay"]
    elif change == "a warning code the contract lacks":
        b["warnings"][0]["code"] = "stale_source"
    elif change == "half the policy's keys":
        del b["results"][0]["breakdown"]["diversity"]
    return b


BUNDLE_PROBLEMS = {
    "no provenance": "/provenance",
    "unknown key": "/extra",
    "unknown breakdown key": "/results/0/breakdown/era_boost",
    "unknown reason": "/rejected/0/reason",
    "forbidden without its rule": "/rejected/0/rule",
    "a rule on another reason": "/rejected/0",
    "score is not final": "/results/1/score",
    "ranks skip": "/results/1/rank",
    "final is not the product": "/results/1/breakdown/final",
    "no overlay key": "/query_trace/overlay",
    "a warning code the contract lacks": "/warnings/0/code",
    "half the policy's keys": "/results/0/breakdown",
}


@pytest.mark.parametrize("change", sorted(BUNDLE_PROBLEMS))
def test_a_broken_bundle_names_the_path_of_its_problem(tmp_path: Path, saved_bundle: dict[str, Any],
                                                       change: str) -> None:
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(_broken(saved_bundle, change)))
    code, out, _ = validate("bundle", path)
    assert code == 1, change
    assert BUNDLE_PROBLEMS[change] in [line.split(": ")[0] for line in out.splitlines()], out


def test_an_error_object_is_not_a_bundle(tmp_path: Path) -> None:
    path = tmp_path / "err.json"
    path.write_text('{"error": {"code": "OFFLINE", "message": "m"}}')
    code, out, _ = validate("bundle", path, "--json")
    assert code == 1 and "/error" in [e["path"] for e in json.loads(out)["errors"]]

"""Numbers JSON does not have (issue #30 item 3): ``NaN``, ``Infinity``, ``-Infinity`` and ``1e999`` (a float
too large: infinity to Python) are refused wherever an overlay is read — ``validate``, ``query``, ``serve``
(exit 2 at start) and ``mcp`` (exit 2) — naming the JSON pointer. Python's reader accepts them, NaN then
passed every range check of the schema, and every request naming the overlay got a 400 blaming the client."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amicus_desktop.overlays import OverlayError, read_overlay
from amicus_desktop.resources import resource_path
from amicus_desktop.schemas import NotJson, loads
from tests.support.cli import run
from tests.support.dbs import build_db, demo_like_chunks
from tests.support.proxy import free_port

SAMPLE = resource_path("overlays", "sample-pastor.json")
POINTER = "/retrieval_policy/weights/vocabulary"


def _with(value: str) -> str:
    """The sample overlay with ``weights.vocabulary`` written as ``value`` (JSON text as a person types it)."""
    return SAMPLE.read_text(encoding="utf-8").replace('"vocabulary": 1.2', f'"vocabulary": {value}')


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_db(tmp_path_factory.mktemp("lib") / "scripture.db", demo_like_chunks(dims=8))


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e999", "-1E+400"])
def test_a_non_finite_number_is_not_json_and_names_its_pointer(tmp_path: Path, value: str) -> None:
    path = tmp_path / "nan.json"
    path.write_text(_with(value))
    assert POINTER in path.read_text() or value in path.read_text()
    with pytest.raises(OverlayError) as caught:
        read_overlay(path)
    assert [p.path for p in caught.value.problems] == [POINTER]
    assert "finite" in caught.value.problems[0].message


def test_every_place_is_named_and_finite_numbers_still_read() -> None:
    with pytest.raises(NotJson) as caught:
        loads('{"a": [1.5, NaN, {"b~/c": Infinity}], "d": 2e308}')
    assert [p.path for p in caught.value.problems] == ["/a/1", "/a/2/b~0~1c", "/d"]
    assert loads('{"a": [1.5, -0.0, 1e308, 12345678901234567890]}') == {"a": [1.5, -0.0, 1e308, 12345678901234567890]}


def test_validate_query_serve_and_mcp_refuse_it(tmp_path: Path, library: Path) -> None:
    folder = tmp_path / "overlays"
    folder.mkdir()
    bad = folder / "nanny.json"
    bad.write_text(_with("NaN"))

    code, out, err = run("validate", "overlay", str(bad), "--json")
    assert code == 1 and json.loads(out)["errors"][0]["path"] == POINTER, out + err

    code, out, err = run("query", "grace", "--db", str(library), "--overlay", str(bad), "--mode", "keyword")
    assert code == 2 and out == "" and f"nanny.json is not a valid overlay: {POINTER}: " in err, err

    code, out, err = run("serve", "--db", str(library), "--overlays", str(folder), "--port", str(free_port()))
    assert code == 2 and out == "" and POINTER in err and "nanny.json" in err, err

    code, out, err = run("mcp", "--db", str(library), "--overlay", str(bad))
    assert code == 2 and out == "" and POINTER in err, err

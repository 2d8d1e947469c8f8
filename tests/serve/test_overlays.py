"""Named overlays in the service (CONTRACT sections 9 and 12) and ``mcp --overlay`` (section 10): the same
answer as ``query --overlay``, a parameter given explicitly winning, ``--require-overlay`` (``no_overlay``:
400 ``NO_OVERLAY``), an overlays folder checked at start, a file that goes bad while the service runs."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession

from amicus_desktop.resources import resource_path
from tests.mcp.test_server import drive
from tests.serve.conftest import expect_error
from tests.support.cli import query_json, run
from tests.support.proxy import free_port
from tests.support.serve import ServeProcess

SAMPLE = resource_path("overlays", "sample-pastor.json")
COVENANT = "What does the new covenant promise?"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("overlays")
    shutil.copy(SAMPLE, folder / "sample-pastor.json")
    (folder / "tight.json").write_text(json.dumps({"role_id": "tight", "retrieval_policy": {"k": 20}}))
    return folder


@pytest.fixture(scope="module")
def governed(sample_db: Path, local_proxy: Any, folder: Path) -> Iterator[ServeProcess]:
    serve = ServeProcess(sample_db, local_proxy.url, "--overlays", str(folder), "--require-overlay")
    try:
        yield serve.start()
    finally:
        serve.close()


def test_an_overlay_answers_as_query_does_under_it(governed: ServeProcess, sample_db: Path, local_proxy: Any) -> None:
    response = governed.get(params={"q": COVENANT, "overlay": "sample-pastor"})
    assert response.status_code == 200, response.text
    body = response.json()
    _, expected = query_json(COVENANT, "--db", str(sample_db), "--proxy", local_proxy.url, "--overlay", str(SAMPLE))
    served = [(r["id"], r["score"]) for r in body["results"]]
    assert served == [(r["chunk_id"], r["score"]) for r in expected["results"]]
    assert body["mode"] == "hybrid" and body["k"] == 5  # the overlay's, as no parameter named them
    assert body["query_trace"]["overlay"] == "sample-pastor"
    assert body["results"][0]["breakdown"]["vocabulary_boost"] == 1.2
    assert "forbidden_hit" in [w["code"] for w in body["warnings"]]
    assert {"chunk_id": "sample:word:covenant", "reason": "forbidden_source"}.items() <= next(
        r for r in body["rejected"] if r["chunk_id"] == "sample:word:covenant").items()
    assert body["provenance"] == expected["provenance"]


def test_a_parameter_given_explicitly_wins_over_the_overlay(governed: ServeProcess) -> None:
    body = governed.get(params={"q": COVENANT, "overlay": "sample-pastor", "k": "2", "mode": "keyword"}).json()
    assert body["mode"] == "keyword" and body["k"] == 2 and len(body["results"]) == 2
    assert "sample:word:covenant" not in [r["id"] for r in body["results"]]  # the rules still hold


def test_no_overlay_on_a_service_that_requires_one_and_a_policy_that_clashes(governed: ServeProcess) -> None:
    body = expect_error(governed.get(params={"q": "grace"}), 400, "NO_OVERLAY")
    assert "overlay=NAME" in body["error"]["message"]
    expect_error(governed.get(params={"q": "grace", "overlay": "nobody"}), 404, "OVERLAY_NOT_FOUND")
    body = expect_error(governed.get(params={"q": "grace", "overlay": "tight", "candidates": "10"}), 400,
                        "BAD_REQUEST")
    assert "tight" in body["error"]["message"] and "at least k (20)" in body["error"]["message"]


def test_a_file_that_goes_bad_while_serving_is_500_overlay_invalid_until_fixed(sample_db: Path, local_proxy: Any,
                                                                               tmp_path: Path) -> None:
    path = tmp_path / "role.json"
    path.write_text('{"role_id": "role"}')
    with ServeProcess(sample_db, local_proxy.url, "--overlays", str(tmp_path)) as serve:
        assert serve.get(params={"q": "grace", "mode": "keyword", "overlay": "role"}).status_code == 200
        path.write_text('{"role_id": "role", "retrieval_policy": {"k": "ten"}}')
        body = expect_error(serve.get(params={"q": "grace", "mode": "keyword", "overlay": "role"}), 500,
                            "OVERLAY_INVALID")
        assert "/retrieval_policy/k" in body["error"]["message"]
        path.write_text('{"role_id": "role", "retrieval_policy": {"k": 1}}')
        fixed = serve.get(params={"q": "grace", "mode": "keyword", "overlay": "role"})
        assert fixed.status_code == 200 and len(fixed.json()["results"]) == 1


def test_an_invalid_overlay_in_the_folder_or_a_requirement_without_one_refuses_to_start(sample_db: Path,
                                                                                        tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text('{"role_id": "r", "vocabulary": {"boost": [""]}}')
    code, _out, err = run("serve", "--db", str(sample_db), "--overlays", str(tmp_path), "--port", str(free_port()))
    assert code == 2 and "bad.json is not a valid overlay: /vocabulary/boost/0: " in err
    code, _out, err = run("serve", "--db", str(sample_db), "--require-overlay", "--port", str(free_port()))
    assert code == 2 and "--require-overlay needs --overlays" in err


def test_mcp_applies_its_overlay_to_every_call(sample_db: Path, local_proxy: Any, tmp_path: Path) -> None:
    async def check(session: ClientSession) -> None:
        found = await session.call_tool("search_library", {"query": COVENANT})
        assert not found.is_error
        body = found.structured_content
        assert body["query_trace"]["overlay"] == "sample-pastor" and body["mode"] == "hybrid" and body["k"] == 5
        assert "sample:word:covenant" not in [r["id"] for r in body["results"]]
        chosen = await session.call_tool("search_library", {"query": COVENANT, "k": 1, "mode": "keyword"})
        assert chosen.structured_content["mode"] == "keyword" and len(chosen.structured_content["results"]) == 1
        block = await session.call_tool("get_context", {"query": COVENANT})
        assert "sample:word:covenant" not in block.structured_content["included"]

    drive(sample_db, local_proxy.url, tmp_path, check, "--overlay", str(SAMPLE))


def test_mcp_refuses_an_invalid_overlay_at_start(sample_db: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"role_id": "r", "source_policy": {"forbidden_source_types": ["sermon"]}}')
    code, out, err = run("mcp", "--db", str(sample_db), "--overlay", str(bad))
    assert code == 2 and out == "" and "/source_policy/forbidden_source_types/0" in err

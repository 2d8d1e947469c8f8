"""``GET /retrieve`` answers as ``query --json`` does (CONTRACT section 9): same chunks, order and scores.

Both run on the real study library through the real proxy and the real local model; the service's
body is compared key by key with the bundle ``query --json`` prints for the same settings.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.serve.conftest import sha256
from tests.support.cli import query_json
from tests.support.serve import ServeProcess

#: (service parameters, the same settings as query flags)
SETTINGS: list[tuple[dict[str, Any], list[str]]] = [
    ({"q": "Why did God choose Jacob over Esau?"}, ["--k", "5"]),
    ({"q": "justified by faith", "k": 8, "mode": "hybrid", "chapter": "romans:3",
      "prefer.scholar": ["matthew-henry"], "filter.source_type": ["section_panel", "word_study"]},
     ["--k", "8", "--mode", "hybrid", "--chapter", "romans:3", "--prefer-scholar", "matthew-henry",
      "--source-type", "section_panel", "--source-type", "word_study"]),
    ({"q": "grace and peace Rom 5:1", "k": 3, "mode": "keyword", "candidates": 20, "filter.book": ["rom"]},
     ["--k", "3", "--mode", "keyword", "--candidates", "20", "--book", "rom"]),
    ({"q": "the potter and the clay", "threshold": 0.2, "prefer.tradition": ["dispensational"], "k": 10},
     ["--min-similarity", "0.2", "--prefer-tradition", "dispensational", "--k", "10"]),
]


@pytest.mark.parametrize(("params", "flags"), SETTINGS, ids=["dense", "hybrid-filters", "keyword-book", "threshold"])
def test_same_chunks_order_and_scores_as_query_json(served: ServeProcess, study_db: Path, local_proxy: Any,
                                                    params: dict[str, Any], flags: list[str]) -> None:
    before = sha256(study_db)
    code, expected = query_json(params["q"], "--db", str(study_db), "--proxy", local_proxy.url, *flags)
    assert code == 0, expected
    response = served.get(params=params)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["query"] == expected["query"] and body["mode"] == expected["mode"]
    assert body["k"] == int(params.get("k", 5))
    assert body["model"] == expected["model"]
    got = [(r["id"], r["rank"], r["score"], r["breakdown"], r["meta"], r["source_type"], r["source_id"])
           for r in body["results"]]
    want = [(r["chunk_id"], r["rank"], r["score"], r["breakdown"], r["metadata"], r["source_type"], r["source_id"])
            for r in expected["results"]]
    assert got == want and got, (got, want)
    assert body["rejected"] == expected["rejected"]
    assert body["warnings"] == expected["warnings"]
    assert body["query_trace"]["references"] == expected["query_trace"]["references"]
    assert body["filters"] == {k: v for k, v in expected["query_trace"]["filters"].items() if v}
    for r in body["results"]:
        assert len(r["snippet"]) <= 300 and r["title"] and r["citation"]
        assert r["pinned"] is False
    assert body["trace_id"] == response.headers["x-trace-id"]
    assert sha256(study_db) == before


def test_pins_come_first_as_in_query(served: ServeProcess, study_db: Path, local_proxy: Any) -> None:
    code, expected = query_json("grace", "--db", str(study_db), "--proxy", local_proxy.url, "--k", "3",
                                "--pin", "does-not-exist", "--mode", "keyword")
    assert code == 0
    some_id = expected["results"][-1]["chunk_id"]
    code, expected = query_json("grace", "--db", str(study_db), "--proxy", local_proxy.url, "--k", "3",
                                "--pin", some_id, "--pin", "does-not-exist", "--mode", "keyword")
    body = served.get(params={"q": "grace", "k": 3, "pin": [some_id, "does-not-exist"], "mode": "keyword"}).json()
    assert [(r["id"], r["pinned"], r["score"]) for r in body["results"]] == \
        [(r["chunk_id"], r["pinned"], r["score"]) for r in expected["results"]]
    assert body["results"][0]["id"] == some_id and body["results"][0]["pinned"] is True
    assert "pin_not_found" in [w["code"] for w in body["warnings"]]


def test_health_names_the_library_and_the_proxy(served: ServeProcess, local_proxy: Any) -> None:
    response = served.get("/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and body["proxy"] == "online"
    assert body["library"]["chunks"] > 50 and body["library"]["dims"] == 384
    assert body["library"]["model"].startswith("all-MiniLM")
    assert body["trace_id"] == response.headers["x-trace-id"]


def test_every_answer_has_its_own_trace_id(served: ServeProcess) -> None:
    ids = {served.get("/health").headers["x-trace-id"] for _ in range(5)}
    ids.add(served.get("/openapi.json").headers["x-trace-id"])
    ids.add(served.get("/nowhere").headers["x-trace-id"])
    assert len(ids) == 7 and all(len(i) >= 16 for i in ids)

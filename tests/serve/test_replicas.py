"""Two ``serve`` processes on one library answer identically (docs/DEPLOY.md: stateless replicas).

Nothing a replica answers depends on which replica it is or what it was asked before: the same
question gets the same body from either (trace id and timings aside), so a load balancer may send any
request anywhere.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.serve.conftest import sha256
from tests.support.serve import ServeProcess

ASKED: list[dict[str, Any]] = [
    {"q": "Why did God choose Jacob over Esau?"},
    {"q": "justified by faith Rom 3:28", "mode": "hybrid", "k": 10, "prefer.scholar": "matthew-henry"},
    {"q": "grace", "mode": "keyword", "filter.source_type": "word_study", "k": 4},
    {"q": "the potter and the clay", "chapter": "romans:9", "threshold": 0.1},
    {"q": "", "k": 3},
    {"q": "peace with God", "k": 99},
]


def comparable(body: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in body.items() if k not in ("trace_id", "timing_ms")}
    if "query_trace" in out:
        out["query_trace"] = {k: v for k, v in out["query_trace"].items() if k != "embedding_cached"}
    if "diagnostics" in out:
        out["diagnostics"] = {k: v for k, v in out["diagnostics"].items() if k != "search_ms"}
    return out


def test_two_replicas_on_one_library_answer_identically(study_db: Path, local_proxy: Any) -> None:
    before = sha256(study_db)
    with ServeProcess(study_db, local_proxy.url) as one, ServeProcess(study_db, local_proxy.url) as two:
        assert one.port != two.port
        # asked in opposite orders, so neither a warm cache nor a previous question can matter
        first = [one.get(params=p) for p in ASKED]
        second = [two.get(params=p) for p in reversed(ASKED)][::-1]
        health = one.get("/health").json(), two.get("/health").json()
    for a, b in zip(first, second, strict=True):
        assert a.status_code == b.status_code
        assert a.headers["x-trace-id"] != b.headers["x-trace-id"]
        assert comparable(a.json()) == comparable(b.json())
    assert [a.status_code for a in first] == [200, 200, 200, 200, 400, 400]
    assert comparable(health[0]) == comparable(health[1])
    assert one.log_file != two.log_file  # each replica its own log (amicus-serve-PORT.log)
    assert sha256(study_db) == before

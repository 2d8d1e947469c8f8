"""An answer is written once (:func:`amicus_desktop.serve.cache.rendered`): the JSON is the body's, the ETag
ignores exactly the per-request keys."""

from __future__ import annotations

import json
from typing import Any

from amicus_desktop.serve.cache import rendered

BODY: dict[str, Any] = {
    "query": "grace", "results": [{"id": "a", "score": 0.5, "snippet": "a \x00 b \u2014 \"c\""}], "trace_id": "t1",
    "timing_ms": {"total": 3.2}, "diagnostics": {"search_ms": 1.0, "n": 3},
    "query_trace": {"embedding_cached": False, "references": []},
}


def test_the_json_is_the_body_and_the_etag_ignores_only_per_request_keys() -> None:
    raw, etag = rendered(BODY)
    assert json.loads(raw) == BODY
    other = {**BODY, "trace_id": "t2", "timing_ms": {"total": 90.0}, "diagnostics": {"search_ms": 7.0, "n": 3},
             "query_trace": {"embedding_cached": True, "references": []}}
    raw2, etag2 = rendered(other)
    assert json.loads(raw2) == other and etag2 == etag
    for changed in ({**BODY, "query": "peace"}, {**BODY, "diagnostics": {"search_ms": 1.0, "n": 4}},
                    {**BODY, "results": []}):
        assert rendered(changed)[1] != etag
    without = {k: v for k, v in BODY.items() if k != "trace_id"}  # a key that is absent is not invented
    assert json.loads(rendered(without)[0]) == without
    assert BODY["trace_id"] == "t1" and BODY["diagnostics"]["search_ms"] == 1.0  # the body is not changed

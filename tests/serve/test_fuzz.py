"""Generated query strings and parameter combinations against a real ``serve`` (CONTRACT section 9).

Whatever arrives, the answer is JSON with a trace id equal to its header, a status the contract names
and never a 500 (a 500 would be ``INTERNAL``: a real bug); the service stays up and the library stays
byte-identical. The suite runs a few hundred examples (``AMICUS_SERVE_FUZZ=N`` for more: 10,000 are
recorded in docs/RELIABILITY.md).
"""

from __future__ import annotations

import collections
import os
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amicus_desktop.core.query import SOURCE_TYPES
from amicus_desktop.serve.errors import STATUS
from amicus_desktop.serve.params import NAMES
from tests.serve.conftest import sha256
from tests.support.figures import record_figure
from tests.support.serve import ServeProcess

FIGURE_LINE = "serve fuzz: {} requests in {:.1f} s: {}"
EXAMPLES = int(os.environ.get("AMICUS_SERVE_FUZZ", "500"))
#: what a request may get from a healthy service over a healthy proxy
ALLOWED = {200, 400, 404, 413}

NASTY = ["", " ", "-1", "0", "1", "5", "50", "51", "4096", "4097", "1e309", "nan", "-inf", "0x10", "1_0", " 7 ",
         "٣", "9" * 400, "\x00", "%00", "../..", "romans:9", "rom:0", "Gen 3:11-1Jn 9", "john 3:16", "dense",
         "keyword", "hybrid", "semantic", "section_panel", "matthew-henry", "reformed", "alice", "reformed-pastor",
         "'; DROP TABLE chunk_text; --", "NEAR(a b)", "\u202e", "🙏" * 30, "x" * 2001, "ψ" * 2000]
values = st.one_of(st.sampled_from(NASTY), st.sampled_from(SOURCE_TYPES), st.text(max_size=30),
                   st.integers(-10, 5000).map(str), st.floats(allow_nan=True, allow_infinity=True).map(repr))
names = st.one_of(st.sampled_from(NAMES), st.sampled_from(NAMES), st.text(min_size=1, max_size=12))
#: values a caller means (so that combinations, not only single refusals, are explored)
SENSIBLE: dict[str, st.SearchStrategy[str]] = {
    "k": st.integers(1, 50).map(str),
    "threshold": st.floats(0, 1).map(str),
    "mode": st.sampled_from(["dense", "hybrid", "keyword", "semantic"]),
    "candidates": st.integers(40, 300).map(str),
    "chapter": st.sampled_from(["romans:9", "rom:3", "Romans 5", "john:3", "1cor:13"]),
    "prefer.scholar": st.sampled_from(["matthew-henry", "c-i-scofield", "nobody"]),
    "prefer.tradition": st.sampled_from(["reformed", "dispensational", "baptist"]),
    "filter.source_type": st.sampled_from(SOURCE_TYPES),
    "filter.book": st.sampled_from(["romans", "rom", "Romans", "john", "genesis"]),
    "filter.scholar": st.sampled_from(["matthew-henry", "c-i-scofield", "james-strong"]),
    "filter.tradition": st.sampled_from(["reformed", "dispensational"]),
    "pin": st.sampled_from(["does-not-exist", "x"]),
    "workspace": st.from_regex(r"[a-z0-9-]{1,64}", fullmatch=True),
    "overlay": st.sampled_from(["nobody", "reformed-pastor"]),
}
sensible = st.sampled_from(sorted(SENSIBLE)).flatmap(lambda n: st.tuples(st.just(n), SENSIBLE[n]))
pairs = st.one_of(st.lists(sensible, max_size=5), st.lists(st.one_of(sensible, st.tuples(names, values)), max_size=6))
questions = st.one_of(st.none(), st.sampled_from(NASTY), st.text(max_size=80),
                      st.sampled_from(["grace", "Why did God choose Jacob over Esau? Rom 9:13", "faith and works",
                                       "What does 1 Cor 13:4-7 say about love?", "justified by faith"]))
raw = st.binary(max_size=120).map(lambda b: quote(b, safe="=&%+;")).map(str.encode)


def check(response: httpx.Response, outcomes: collections.Counter[str]) -> None:
    assert response.status_code in ALLOWED, response.text
    body: dict[str, Any] = response.json()
    assert body["trace_id"] == response.headers["x-trace-id"]
    assert "Traceback" not in response.text
    if response.status_code == 200:
        assert len([r for r in body["results"] if not r["pinned"]]) <= body["k"]
        outcomes["200"] += 1
    else:
        assert body["error"]["code"] in STATUS and STATUS[body["error"]["code"]] == response.status_code
        outcomes[body["error"]["code"]] += 1


def test_a_cross_book_range_is_answered(served: ServeProcess) -> None:
    """``Gen 3:11-1Jn 9`` crashed the reference parser (issue 20, item 6): a 500 here until it was guarded."""
    response = served.get(params={"q": "Gen 3:11-1Jn 9"})
    assert response.status_code == 200, response.text


@pytest.mark.slow
def test_generated_requests(served: ServeProcess, study_db: Path) -> None:
    before = sha256(study_db)
    outcomes: collections.Counter[str] = collections.Counter()
    client = httpx.Client(base_url=served.url, timeout=60, trust_env=False)
    started = time.monotonic()

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(q=questions, extra=pairs, query_string=raw, use_raw=st.integers(0, 9))
    def one(q: str | None, extra: list[tuple[str, str]], query_string: bytes, use_raw: int) -> None:
        if use_raw == 0:  # bytes as they come: broken escapes, invalid UTF-8, NULs
            response = client.get(httpx.URL(f"{served.url}/retrieve").copy_with(query=query_string))
        else:
            params = ([("q", q)] if q is not None else []) + extra
            response = client.get("/retrieve", params=params)
        check(response, outcomes)

    try:
        one()
    finally:
        client.close()
    seconds = time.monotonic() - started
    record_figure("serve fuzz", f"{EXAMPLES} generated requests in {seconds:.0f} s: {dict(outcomes)}")
    print(FIGURE_LINE.format(EXAMPLES, seconds, dict(outcomes)))  # shown with -s: the figure for the docs
    assert outcomes["200"] > EXAMPLES // 10  # the generator reaches answers, not only refusals
    assert served.running and served.get("/health").status_code == 200
    assert sha256(study_db) == before

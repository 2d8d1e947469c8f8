"""The real proxy process against abusive clients and bad start-up settings (found by probing it).

Each test drives ``amicus-desktop proxy`` over real sockets: slow clients under a small
descriptor limit, oversized or odd request heads, cross-origin-style bodies, unauthenticated
floods, a token that cannot work, a stop while the model loads, a wide address without a token.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from amicus_desktop.proxy.limits import REQUEST_TIMEOUT
from tests.proxy.conftest import TOKEN
from tests.support.proxy import ROOT, ProxyProcess, ProxyStartError, free_port


def raw(port: int, data: bytes, timeout: float = 10.0) -> bytes:
    """Send ``data`` on a fresh connection; the reply's head (status line and headers)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        reply = b""
        with contextlib.suppress(OSError):
            while b"\r\n\r\n" not in reply:
                part = s.recv(65536)
                if not part:
                    break
                reply += part
    return reply


def status(reply: bytes) -> int:
    return int(reply.split(b" ", 2)[1]) if reply.startswith(b"HTTP/") else 0


@pytest.fixture(scope="module")
def small_proxy() -> Iterator[ProxyProcess]:
    """A real proxy limited to 256 open files (macOS's default), with a token."""
    proxy = ProxyProcess("--rate-limit", "0", token=TOKEN, max_files=256)
    try:
        yield proxy.start()
    finally:
        proxy.close()


class Trickler:
    """``count`` connections that each send part of a request, then one more byte every second."""

    def __init__(self, port: int, count: int, opening: bytes) -> None:
        self.sockets: list[socket.socket] = []
        for _ in range(count):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(opening)
            self.sockets.append(s)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._trickle, daemon=True)
        self._thread.start()

    def _trickle(self) -> None:
        while not self._stop.wait(1.0):
            for s in self.sockets:
                with contextlib.suppress(OSError):
                    s.sendall(b"x")

    def closed_by_server(self) -> int:
        """How many of the connections the server has closed."""
        closed = 0
        for s in self.sockets:
            s.setblocking(False)
            try:
                closed += s.recv(65536) == b""
            except BlockingIOError:
                pass
            except OSError:  # reset
                closed += 1
        return closed

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        for s in self.sockets:
            s.close()


def test_slow_clients_neither_starve_health_nor_flood_the_log(small_proxy: ProxyProcess) -> None:
    """300 connections trickling their request head and body under a 256-descriptor limit: the
    app's /health is still answered at once, each slow connection is closed within the request
    deadline, and the proxy does not write a traceback per refused accept()."""
    proxy = small_proxy
    before = len(proxy.output())
    heads = Trickler(proxy.port, 200, b"GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
    bodies = Trickler(proxy.port, 100, b"POST /ai/embed HTTP/1.1\r\nHost: localhost\r\n"
                                       b"Content-Type: application/json\r\n"
                                       b"Authorization: Bearer " + TOKEN.encode() + b"\r\n"
                                       b"Content-Length: 100000\r\n\r\n{\"input\": \"")
    try:
        waits = []
        for _ in range(3):
            t0 = time.monotonic()
            r = httpx.get(f"{proxy.url}/health", timeout=10, trust_env=False)
            waits.append(time.monotonic() - t0)
            assert r.status_code == 200
            time.sleep(0.5)
        assert max(waits) < 2.0, waits
        deadline = time.monotonic() + REQUEST_TIMEOUT + 5
        while heads.closed_by_server() + bodies.closed_by_server() < 300 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert heads.closed_by_server() == 200 and bodies.closed_by_server() == 100
    finally:
        heads.close()
        bodies.close()
    assert httpx.get(f"{proxy.url}/health", timeout=5, trust_env=False).status_code == 200
    written = proxy.output()[before:]
    assert "Traceback" not in written and len(written) < 20_000, written[-2000:]


@pytest.mark.parametrize(("request_line", "expected"), [
    (b"GET /health HTTP/2.0", 505),
    (b"GET /health HTTP/3.7", 505),
    (b"GET /health HTTP/1.0", 200),
])
def test_only_http_1_is_spoken(small_proxy: ProxyProcess, request_line: bytes, expected: int) -> None:
    assert status(raw(small_proxy.port, request_line + b"\r\nHost: localhost\r\n\r\n")) == expected


def test_http_0_9_is_refused(small_proxy: ProxyProcess) -> None:
    assert status(raw(small_proxy.port, b"GET /health\r\n\r\n")) == 400


@pytest.mark.parametrize("size", [20_000, 70_000, 100_000])
def test_request_head_over_16_kib_is_431(small_proxy: ProxyProcess, size: int) -> None:
    """Whether it arrives in one piece (h11 only measures a head still incomplete) or not."""
    reply = raw(small_proxy.port, b"GET /health HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"a" * size + b"\r\n\r\n")
    assert status(reply) == 431


def test_a_large_head_under_the_limit_is_fine(small_proxy: ProxyProcess) -> None:
    head = b"GET /health HTTP/1.1\r\nHost: localhost\r\nX-Big: " + b"a" * 8000 + b"\r\n\r\n"
    assert status(raw(small_proxy.port, head)) == 200


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_a_body_that_is_not_declared_json_is_415(small_proxy: ProxyProcess, content_type: str | None) -> None:
    """A web page may POST text/plain or a form to a local server without asking; never JSON."""
    headers = {"Authorization": f"Bearer {TOKEN}"}
    if content_type:
        headers["Content-Type"] = content_type
    r = httpx.post(f"{small_proxy.url}/ai/embed", content=b'{"input": "grace"}', headers=headers,
                   timeout=30, trust_env=False)
    assert r.status_code == 415 and r.json()["error"]["code"] == "UNSUPPORTED_MEDIA_TYPE"
    ok = httpx.post(f"{small_proxy.url}/ai/embed", content=b'{"input": "grace"}', timeout=30, trust_env=False,
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


@pytest.mark.parametrize(("token", "fragment"), [
    ("   ", "only whitespace"),
    ("\t\n", "only whitespace"),
    ("tök-en", "outside ASCII"),
    ("two words", "spaces"),
])
def test_a_token_that_cannot_work_is_refused_at_start(token: str, fragment: str) -> None:
    proxy = ProxyProcess("--rate-limit", "0", token=token, startup_timeout=30)
    with pytest.raises(ProxyStartError) as info:
        proxy.start()
    assert proxy.returncode == 2
    assert fragment in str(info.value) and "AMICUS_PROXY_TOKEN" in str(info.value)
    proxy.close()


def spawn(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    full_env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}
    full_env.pop("AMICUS_PROXY_TOKEN", None)
    full_env.update(env or {})
    return subprocess.Popen(
        [sys.executable, "-m", "amicus_desktop", "proxy", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
        env=full_env, cwd=str(ROOT),
    )


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_while_the_model_loads_exits_0(sig: signal.Signals) -> None:
    process = spawn("--port", "0")
    try:
        assert process.stderr is not None
        for line in process.stderr:
            if "loading the embedding model" in line:
                break
        process.send_signal(sig)
        assert process.wait(30) == 0
        out, err = process.communicate(timeout=10)
        assert "Traceback" not in err and "listening on" not in out
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=10)


def test_listening_beyond_this_machine_needs_a_token_or_a_flag() -> None:
    port = free_port("0.0.0.0")
    process = spawn("--host", "0.0.0.0", "--port", str(port))
    _, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert "refusing to listen on 0.0.0.0 without a token" in err and "--allow-remote-without-token" in err
    assert "Traceback" not in err
    for extra, env in ((["--allow-remote-without-token"], {}), ([], {"AMICUS_PROXY_TOKEN": TOKEN})):
        process = spawn("--host", "0.0.0.0", "--port", "0", "--rate-limit", "0", *extra, env=env)
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            assert "listening on http://0.0.0.0:" in line, process.stderr.read() if process.stderr else ""
        finally:
            process.terminate()
            _, err = process.communicate(timeout=20)
        assert process.returncode == 0
        assert ("without a token" in err) is (not env)


def test_the_proxy_logs_to_its_own_rotating_file_through_the_redacting_filter(amicus_home: Path) -> None:
    secret = "zebra-quokka-prayer-5512"
    with ProxyProcess("--rate-limit", "0", token=TOKEN) as proxy:
        r = httpx.post(f"{proxy.url}/ai/embed", json={"input": secret}, timeout=30, trust_env=False,
                       headers={"Authorization": f"Bearer {TOKEN}"})
        assert r.status_code == 200
        httpx.post(f"{proxy.url}/ai/embed", json={"input": secret}, timeout=30, trust_env=False,
                   headers={"Authorization": "Bearer wrong"})
    log = (amicus_home / "logs" / "amicus-proxy.log").read_text("utf-8")
    assert "amicus.proxy" in log and "POST /ai/embed 200" in log and "POST /ai/embed 401" in log
    assert secret not in log and TOKEN not in log
    assert not (amicus_home / "logs" / "amicus-desktop.log").exists()

"""The real proxy process against abusive clients (found by probing it): slow clients under a small
descriptor limit, request heads that are too big or not HTTP/1 (``http/limits.py`` and the checks
of ``proxy/server.py`` that keep to them). Each test drives ``amicus-desktop proxy`` over real
sockets.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from amicus_desktop.http.limits import REQUEST_TIMEOUT
from tests.proxy.conftest import TOKEN
from tests.support.proxy import ProxyProcess


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

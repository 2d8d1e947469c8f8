"""The Host check against DNS rebinding (#20.4): the rule, and the real proxy process applying it."""

from __future__ import annotations

import socket

import httpx
import pytest

from amicus_desktop.http.guards import host_check_needed, is_loopback_address, is_loopback_host
from tests.support.proxy import ProxyProcess

TOKEN = "tok-guards-5d1e0c"


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("localhost", True), ("LOCALHOST:8731", True), ("127.0.0.1", True), ("127.0.0.1:8731", True),
        ("127.1.2.3:1", True), ("[::1]", True), ("[::1]:8731", True), ("localhost.", True),
        ("evil.example", False), ("evil.example:8731", False), ("localhost.evil.example", False),
        ("127.0.0.1.evil.example", False), ("0.0.0.0:8731", False), ("192.168.1.5:8731", False),
        ("[::ffff:8.8.8.8]", False), ("::1", False), ("", False), ("localhost:99999999", False),
    ],
)
def test_only_loopback_names_are_loopback(host: str, loopback: bool) -> None:
    assert is_loopback_host(host) is loopback


@pytest.mark.parametrize(
    ("bind", "token", "checked"),
    [
        ("127.0.0.1", False, True), ("127.0.0.1", True, True), ("localhost", True, True), ("::1", True, True),
        ("0.0.0.0", False, True),  # --allow-remote-without-token: a page on this machine still must not use it
        ("0.0.0.0", True, False), ("192.168.1.5", True, False), ("::", True, False),
    ],
)
def test_the_check_applies_unless_bound_elsewhere_with_a_token(bind: str, token: bool, checked: bool) -> None:
    assert host_check_needed(bind, token) is checked
    assert is_loopback_address(bind) is (bind in ("127.0.0.1", "localhost", "::1"))


def _refused(r: httpx.Response) -> None:
    assert r.status_code == 403, r.text
    assert r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    assert body["error"]["code"] == "HOST_NOT_ALLOWED"


def test_a_dns_rebinding_request_is_refused_and_normal_clients_still_work(local_proxy: ProxyProcess) -> None:
    """A page whose name resolves to 127.0.0.1 sends ``Host: evil.example``; with no token (the default)
    the proxy answered it before."""
    with httpx.Client(timeout=30, trust_env=False) as client:
        for path, method in (("/health", "GET"), ("/ai/embed", "POST")):
            for host in ("evil.example", f"evil.example:{local_proxy.port}", "127.0.0.1.nip.io"):
                r = client.request(method, f"{local_proxy.url}{path}", headers={"Host": host},
                                   json={"input": "grace"})
                _refused(r)
        assert client.get(f"{local_proxy.url}/health").status_code == 200  # Host: 127.0.0.1:PORT
        assert client.get(f"http://localhost:{local_proxy.port}/health").status_code == 200
        r = client.post(f"{local_proxy.url}/ai/embed", json={"input": "grace"})
        assert r.status_code == 200 and len(r.json()["data"][0]["embedding"]) == 384
    # HTTP/1.0 without a Host (no browser sends that) still passes
    with socket.create_connection(("127.0.0.1", local_proxy.port), timeout=10) as s:
        s.sendall(b"GET /health HTTP/1.0\r\n\r\n")
        assert s.recv(64).startswith(b"HTTP/1.1 200")


def test_bound_beyond_this_machine_with_a_token_any_host_may_ask_with_the_token() -> None:
    with ProxyProcess("--rate-limit", "0", host="0.0.0.0", token=TOKEN) as proxy, \
            httpx.Client(timeout=30, trust_env=False) as client:
        url = f"http://127.0.0.1:{proxy.port}"
        headers = {"Host": f"amicus.lan:{proxy.port}", "Authorization": f"Bearer {TOKEN}"}
        assert client.post(f"{url}/ai/embed", json={"input": "grace"}, headers=headers).status_code == 200
        r = client.post(f"{url}/ai/embed", json={"input": "grace"}, headers={"Host": "evil.example"})
        assert r.status_code == 401  # the token, which a web page does not have, is the guard

"""Every row of CONTRACT section 9's error table, with its status and code, through a real ``serve``.

Each refusal is checked the same way (``expect_error``): the status, the code, a message, ``X-Trace-Id``
equal to the body's ``trace_id``, and no traceback. The library's and the proxy's failures are made
for real: the library file missing, then junk, then a real library (the service reopens it by
itself); a scripted proxy that answers 500, the wrong model, the wrong dims, then is gone.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient

from amicus_desktop.serve.access import Access
from amicus_desktop.serve.app import create_app
from amicus_desktop.serve.library import Library
from amicus_desktop.serve.params import RetrieveParams
from amicus_desktop.serve.scope import Scope
from tests.serve.conftest import expect_error, proxy_failures_in_turn, sha256
from tests.support.dbs import BOOKS, build_db, demo_like_chunks, verses
from tests.support.proxy import free_port
from tests.support.scripted_proxy import ScriptedProxy
from tests.support.serve import ServeProcess


# -- 400, 404 (overlay), 405, 413: the parameters ------------------------------------------------
@pytest.mark.parametrize(("params", "code", "words"), [
    ({}, "QUERY_INVALID", "empty"),
    ({"q": "   "}, "QUERY_INVALID", "empty"),
    ({"q": "grace", "colour": "red"}, "BAD_REQUEST", "Unknown parameter 'colour'"),
    ({"q": "grace", "k": "0"}, "BAD_REQUEST", "k must be between 1 and 50"),
    ({"q": "grace", "k": "51"}, "BAD_REQUEST", "k must be between 1 and 50"),
    ({"q": "grace", "k": "ten"}, "BAD_REQUEST", "k: invalid int value"),
    ({"q": "grace", "k": ["3", "4"]}, "BAD_REQUEST", "more than once"),
    ({"q": "grace", "candidates": "3"}, "BAD_REQUEST", "must be at least k"),
    ({"q": "grace", "threshold": "1.5"}, "BAD_REQUEST", "threshold must be between 0 and 1"),
    ({"q": "grace", "threshold": "nan"}, "BAD_REQUEST", "threshold: not a finite number"),
    ({"q": "grace", "mode": "fuzzy"}, "BAD_REQUEST", "mode must be one of"),
    ({"q": "grace", "mode": "keyword", "threshold": "0.5"}, "BAD_REQUEST", "needs a vector"),
    ({"q": "grace", "filter.book": "narnia"}, "BAD_REQUEST", "filter.book: no book of the Bible is called"),
    ({"q": "grace", "filter.source_type": "blog"}, "BAD_REQUEST", "filter.source_type: invalid choice"),
    ({"q": "grace", "chapter": "nowhere"}, "BAD_REQUEST", "is not a reference"),
    ({"q": "grace", "workspace": "Alice!"}, "BAD_REQUEST", "workspace must be"),
    ({"q": "grace", "overlay": "../etc/passwd"}, "BAD_REQUEST", "overlay must be"),
])
def test_400(served: ServeProcess, params: dict[str, Any], code: str, words: str) -> None:
    body = expect_error(served.get(params=params), 400, code)
    assert words in body["error"]["message"]


def test_413_query_too_long_and_2000_is_fine(served: ServeProcess) -> None:
    body = expect_error(served.get(params={"q": "ψ" * 2001, "mode": "keyword"}), 413, "QUERY_TOO_LONG")
    assert "ψψ" not in body["error"]["message"]  # the question is never repeated
    assert served.get(params={"q": "ψ" * 2000, "mode": "keyword"}).status_code == 200


def test_404_overlay_not_found_and_an_overlay_that_exists_is_applied(served: ServeProcess) -> None:
    expect_error(served.get(params={"q": "grace", "overlay": "nobody"}), 404, "OVERLAY_NOT_FOUND")
    answer = served.get(params={"q": "grace", "overlay": "reformed-pastor"})
    assert answer.status_code == 200 and answer.json()["query_trace"]["overlay"] == "reformed-pastor"


def test_403_host_not_allowed_against_dns_rebinding(served: ServeProcess) -> None:
    """On loopback without a token only a loopback name may be in ``Host`` (the embed proxy's rule)."""
    for host in ("evil.example", f"evil.example:{served.port}", "10.0.0.7", "localhost.evil.example"):
        expect_error(served.get(params={"q": "grace"}, headers={"Host": host}), 403, "HOST_NOT_ALLOWED")
    for host in ("localhost", f"127.0.0.1:{served.port}", f"[::1]:{served.port}"):
        assert served.get(params={"q": "grace", "mode": "keyword"}, headers={"Host": host}).status_code == 200
    expect_error(served.get("/health", headers={"Host": "evil.example"}), 403, "HOST_NOT_ALLOWED")


def test_unknown_path_and_method(served: ServeProcess) -> None:
    expect_error(served.get("/search", params={"q": "grace"}), 404, "NOT_FOUND")
    response = httpx.put(f"{served.url}/retrieve", params={"q": "grace"}, trust_env=False)
    expect_error(response, 405, "METHOD_NOT_ALLOWED")
    assert "GET" in response.headers["allow"] and "POST" in response.headers["allow"]
    expect_error(httpx.post(f"{served.url}/passage", params={"ref": "John 3"}, trust_env=False),
                 405, "METHOD_NOT_ALLOWED")


# -- 401, 403, 429: tokens, workspaces, the rate ---------------------------------------------------
def test_401_403_429_tokens_workspaces_and_rate(study_db: Path, local_proxy: Any, tmp_path: Path) -> None:
    clients = tmp_path / "clients.json"
    clients.write_text(json.dumps({"clients": [{"token": "tok-alice-1", "workspaces": ["alice"]},
                                               {"token": "tok-bob-2", "workspaces": ["bob", "shared"]}]}))
    env = {"AMICUS_SERVE_TOKEN": "tok-admin-0"}
    with ServeProcess(study_db, local_proxy.url, "--clients", str(clients), "--rate-limit", "4", env=env) as serve:
        q = {"q": "grace", "mode": "keyword", "k": 1}
        expect_error(serve.get(params=q), 401, "UNAUTHORIZED")
        response = serve.get(params=q, headers={"Authorization": "Bearer tok-alice-X"})
        expect_error(response, 401, "UNAUTHORIZED")
        assert response.headers["www-authenticate"] == "Bearer"
        expect_error(serve.get(params=q, headers={"Authorization": "Basic dG9rLWFsaWNlLTE="}), 401, "UNAUTHORIZED")
        alice = {"Authorization": "Bearer tok-alice-1"}
        assert serve.get(params={**q, "workspace": "alice"}, headers=alice).status_code == 200
        body = expect_error(serve.get(params={**q, "workspace": "bob"}, headers=alice), 403, "WORKSPACE_FORBIDDEN")
        assert "tok-alice" not in body["error"]["message"]
        # the admin token of the environment may use every workspace
        assert serve.get(params={**q, "workspace": "bob"}, headers={"Authorization": "Bearer tok-admin-0"}
                         ).status_code == 200
        # alice has used 2 of her 4 a minute: 2 more, then 429; bob's bucket is his own
        assert [serve.get(params=q, headers=alice).status_code for _ in range(2)] == [200, 200]
        response = serve.get(params=q, headers=alice)
        expect_error(response, 429, "RATE_LIMITED")
        assert int(response.headers["retry-after"]) >= 1
        assert serve.get(params=q, headers={"Authorization": "Bearer tok-bob-2"}).status_code == 200
        # the token is checked before the rate: a wrong token is 401, never 429, and spends nothing
        expect_error(serve.get(params=q, headers={"Authorization": "Bearer wrong"}), 401, "UNAUTHORIZED")
        # /health and /openapi.json need no token
        assert serve.get("/health").status_code == 200 and serve.get("/openapi.json").status_code == 200
        log = serve.log_text()
    for secret in ("tok-alice-1", "tok-bob-2", "tok-admin-0", "grace"):
        assert secret not in log


# -- 404, 409, 500, 503: the library and the proxy -------------------------------------------------
def test_library_and_proxy_failures_then_recovery(tmp_path: Path) -> None:
    library = tmp_path / "library" / "scripture.db"
    library.parent.mkdir()
    good = build_db(tmp_path / "good.db", demo_like_chunks(dims=8), books=BOOKS, verses=verses())
    with ScriptedProxy(dims=8, model="test-model") as proxy, ServeProcess(library, proxy.url) as serve:
        dense = iter(f"grace question {n}" for n in range(100))  # new texts: the vector cache never answers

        def ask(mode: str = "dense") -> httpx.Response:
            return serve.get(params={"q": next(dense), "mode": mode})

        expect_error(ask(), 404, "DB_NOT_FOUND")
        assert serve.get("/health").status_code == 503
        junk = tmp_path / "junk.db"
        junk.write_bytes(b"this is not a database" * 100)
        os.replace(junk, library)
        expect_error(ask(), 500, "DB_INVALID")
        shutil.copy2(good, tmp_path / "incoming.db")
        os.replace(tmp_path / "incoming.db", library)  # a replaced library is reopened by itself
        assert ask().status_code == 200
        before = sha256(library)

        proxy_failures_in_turn(ask, proxy)
        expect_error(ask("hybrid"), 503, "OFFLINE")
        assert serve.get("/health").json()["proxy"] == "offline"
        assert sha256(library) == before
    assert sorted(p.name for p in library.parent.iterdir()) == ["scripture.db"]  # nothing written beside it


def test_500_extension_not_loaded(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", demo_like_chunks(dims=8))
    env = {"AMICUS_SQLITE_VEC_PATH": str(tmp_path / "no-such-vec0.so")}
    with ServeProcess(db, f"http://127.0.0.1:{free_port()}", env=env) as serve:
        expect_error(serve.get(params={"q": "grace", "mode": "keyword"}), 500, "EXTENSION_NOT_LOADED")


def test_500_internal_for_a_bug_says_nothing_of_it(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A bug in the engine (made here by a library that raises) is 500 INTERNAL: no traceback, no detail."""

    class Broken(Library):
        async def retrieve(self, params: RetrieveParams, scope: Scope, **options: Any) -> Any:
            raise RuntimeError("secret detail of the bug")

    db = build_db(tmp_path / "s.db", demo_like_chunks(dims=8))
    app = create_app(Broken(db, f"http://127.0.0.1:{free_port()}"), Access())
    with TestClient(app, raise_server_exceptions=False) as client, caplog.at_level("INFO", "amicus.serve"):
        response = client.get("/retrieve", params={"q": "grace"})
    body = expect_error(response, 500, "INTERNAL")
    assert "secret detail" not in response.text and "RuntimeError" not in response.text
    lines = [r.getMessage() for r in caplog.records]
    assert any("RuntimeError" in line and "secret" not in line for line in lines), lines
    assert any("GET /retrieve 500" in line for line in lines)
    assert all(getattr(r, "trace_id", body["trace_id"]) == body["trace_id"] for r in caplog.records)


# -- the proxy's request limits, inside the trace layer -------------------------------------------------
def _raw(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    return data


def test_the_proxys_request_limits_answer_with_a_trace_id(served: ServeProcess) -> None:
    """HTTP/2.0 on an HTTP/1 line is 505, a head over 64 KiB 431 — refusals made by the proxy's own
    middleware, which knows nothing of trace ids: the outer layer still puts one in header and body."""
    for request, status in [(b"GET /health HTTP/2.0\r\nHost: x\r\n\r\n", 505),
                            (b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 70_000 + b"\r\n\r\n", 431)]:
        head, _, body = _raw(served.port, request).partition(b"\r\n\r\n")
        assert head.startswith(f"HTTP/1.1 {status}".encode()), head[:80]
        trace = next(line.split(b":", 1)[1].strip() for line in head.split(b"\r\n")
                     if line.lower().startswith(b"x-trace-id:"))
        assert json.loads(body)["trace_id"] == trace.decode()
    # HTTP/0.9 (no version on the request line) is not spoken at all
    assert not _raw(served.port, b"GET /health\r\n\r\n").startswith(b"HTTP/1.1 200")
    # a 2,000-character question in a non-Latin script (24 KB percent-encoded) still reaches the app
    assert served.get(params={"q": "😀" * 2000, "mode": "keyword"}).status_code == 200

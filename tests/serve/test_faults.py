"""The service pushed into corners (CONTRACT section 9): the proxy dying under load, slow and vanishing
clients, the library replaced under it. Real processes, real sockets; after each, the library is
byte-identical, no answer was a 500, and the service still answers.
"""

from __future__ import annotations

import asyncio
import collections
import os
import shutil
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from amicus_desktop.http.limits import REQUEST_TIMEOUT
from tests.serve.conftest import sha256
from tests.support.dbs import BOOKS, build_db, demo_like_chunks, verses
from tests.support.proxy import ProxyProcess
from tests.support.scripted_proxy import ScriptedProxy, after_delay, reply_json, text_vector
from tests.support.serve import ServeProcess


async def load(url: str, seconds: float, clients: int, params: Callable[[int], dict[str, Any]],
               during: Callable[[float], None] | None = None) -> list[tuple[float, int, str, str]]:
    """``clients`` keep-alive clients asking for ``seconds``; ``during(t)`` is called every 50 ms.
    Returns ``(time, status, code, mode)`` per answer."""
    out: list[tuple[float, int, str, str]] = []
    t0 = time.monotonic()
    counter = iter(range(10**9))

    async def client() -> None:
        async with httpx.AsyncClient(base_url=url, timeout=60, trust_env=False) as c:
            while (now := time.monotonic() - t0) < seconds:
                asked = params(next(counter))
                response = await c.get("/retrieve", params=asked)
                code = "" if response.status_code == 200 else response.json()["error"]["code"]
                assert response.headers["x-trace-id"]
                out.append((now, response.status_code, code, asked.get("mode", "dense")))

    async def driver() -> None:
        while (now := time.monotonic() - t0) < seconds:
            if during is not None:
                during(now)
            await asyncio.sleep(0.05)

    await asyncio.gather(*(client() for _ in range(clients)), driver())
    return out


@pytest.mark.slow
def test_the_proxy_dying_under_load_is_503_then_recovers_by_itself(study_db: Path) -> None:
    before = sha256(study_db)
    proxy = ProxyProcess("--rate-limit", "0")
    proxy.start()
    events: dict[str, float] = {}

    def during(now: float) -> None:
        if now > 2 and "killed" not in events:
            proxy.kill()  # SIGKILL, mid-load
            events["killed"] = time.monotonic()
        elif now > 5 and "restarted" not in events:
            proxy.start()  # back on the same port; the service is not told
            events["restarted"] = now

    def params(n: int) -> dict[str, Any]:
        mode = ("dense", "hybrid", "keyword")[n % 3]
        return {"q": f"What does Paul say about grace and faith? ({n})", "mode": mode, "k": 3}

    try:
        with ServeProcess(study_db, proxy.url) as serve:
            answers = asyncio.run(load(serve.url, 14, 6, params, during))
            alive = serve.get("/health").json()
    finally:
        proxy.close()
    statuses = collections.Counter((s, c) for _, s, c, _ in answers)
    assert set(statuses) <= {(200, ""), (503, "OFFLINE"), (503, "EMBED_FAILED")}, statuses
    assert statuses[(503, "OFFLINE")] > 0  # it did go away
    t_back = events["restarted"]
    late = [(s, c) for t, s, c, _ in answers if t > t_back + 4]  # a few seconds after the restart: all answered
    assert late and all(s == 200 for s, _ in late), collections.Counter(late)
    keyword = [s for _, s, _, mode in answers if mode == "keyword"]
    assert len(keyword) > 10 and set(keyword) == {200}  # words need no proxy: answered throughout
    assert alive["status"] == "ok" and alive["proxy"] == "online"
    assert sha256(study_db) == before


def test_keyword_answers_while_the_proxy_is_gone(study_db: Path) -> None:
    with ServeProcess(study_db, "http://127.0.0.1:9") as serve:
        answers = asyncio.run(load(serve.url, 2, 4, lambda n: {"q": f"grace {n}", "mode": "keyword"}))
    assert answers and {s for _, s, _, _ in answers} == {200}


@pytest.mark.slow
def test_a_slow_client_is_cut_off_and_starves_nobody(served: ServeProcess) -> None:
    """Clients trickling their request head hold no slot for long: others are answered at once, and
    each trickler is closed within the proxy's request deadline."""
    trickles = []
    for _ in range(20):
        s = socket.create_connection(("127.0.0.1", served.port))
        s.sendall(b"GET /retrieve?q=grace HTTP/1.1\r\nHost: localhost\r\n")  # a head that never ends
        trickles.append(s)
    # a reader that asks for big answers and never reads them
    lazy = socket.socket()
    lazy.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    lazy.connect(("127.0.0.1", served.port))
    lazy.sendall(b"GET /retrieve?q=grace&k=50&mode=keyword HTTP/1.1\r\nHost: localhost\r\n\r\n" * 20)
    try:
        t0 = time.monotonic()
        for n in range(10):
            assert served.get(params={"q": f"grace {n}", "mode": "keyword"}, timeout=5).status_code == 200
        assert time.monotonic() - t0 < 5
        deadline = time.monotonic() + REQUEST_TIMEOUT + 5
        for s in trickles:
            s.settimeout(max(0.1, deadline - time.monotonic()))
            while True:
                try:
                    s.sendall(b"X-Slow: 1\r\n")
                    data = s.recv(1024)
                except (TimeoutError, OSError):
                    break
                if not data:
                    break
            assert time.monotonic() < deadline, "a trickling client was kept past the request deadline"
    finally:
        for s in [*trickles, lazy]:
            s.close()
    assert served.get("/health").status_code == 200


def test_a_client_that_hangs_up_mid_answer_stops_its_search(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", demo_like_chunks(dims=8), books=BOOKS, verses=verses())
    before = sha256(db)
    with ScriptedProxy(dims=8) as proxy, ServeProcess(db, proxy.url) as serve:
        proxy.behaviour = after_delay(3.0, reply_json(200, {"model": "test-model", "dims": 8,
                                                            "data": [{"index": 0, "embedding": text_vector("x", 8)}]}))
        gone = []
        for n in range(8):
            s = socket.create_connection(("127.0.0.1", serve.port))
            s.sendall(f"GET /retrieve?q=slow+question+{n} HTTP/1.1\r\nHost: localhost\r\n\r\n".encode())
            gone.append(s)
        time.sleep(0.5)
        for s in gone:
            s.close()  # hang up while the service waits for the proxy
        proxy.behaviour = None
        t0 = time.monotonic()
        assert serve.get(params={"q": "grace after the hang-ups"}).status_code == 200
        assert time.monotonic() - t0 < 2.5  # not queued behind the abandoned searches
        deadline = time.monotonic() + 10
        while serve.log_text().count(" 499 ") < 8 and time.monotonic() < deadline:
            time.sleep(0.05)
        lines = [ln for ln in serve.log_text().splitlines() if " 499 " in ln]
    assert len(lines) == 8
    # each was logged when its client left (≈ 0.5 s), not when the 3 s embed would have finished
    assert all(float(ln.split(" 499 ")[1].split()[0]) < 2500 for ln in lines), lines
    assert sha256(db) == before


def test_the_library_replaced_under_load(tmp_path: Path) -> None:
    """Two libraries swapped in and out (``os.replace``), deleted and put back, while clients ask."""
    folder = tmp_path / "live"
    folder.mkdir()
    library = folder / "scripture.db"
    a = build_db(tmp_path / "a.db", demo_like_chunks(dims=8), books=BOOKS, verses=verses())
    b = build_db(tmp_path / "b.db", demo_like_chunks(dims=8)[:60], books=BOOKS, verses=verses())
    hashes = {a: sha256(a), b: sha256(b)}
    shutil.copy2(a, library)
    state = {"swaps": 0, "missing": False}

    def during(now: float) -> None:
        step = int(now / 0.4)
        if step > state["swaps"] and step < 12:
            state["swaps"] = step
            if step == 6:
                library.unlink()  # gone for a moment
                state["missing"] = True
                return
            src = a if step % 2 else b
            shutil.copy2(src, folder / "incoming.db")
            os.replace(folder / "incoming.db", library)
            state["missing"] = False

    with ScriptedProxy(dims=8) as proxy, ServeProcess(library, proxy.url) as serve:
        answers = asyncio.run(load(serve.url, 6, 6, lambda n: {"q": f"grace {n}", "mode": ("dense", "keyword")[n % 2]},
                                   during))
        final = serve.get("/health").json()
    statuses = collections.Counter((s, c) for _, s, c, _ in answers)
    assert set(statuses) <= {(200, ""), (404, "DB_NOT_FOUND")}, statuses
    assert statuses[(200, "")] > 50 and statuses[(404, "DB_NOT_FOUND")] > 0 and state["swaps"] == 11
    assert final["library"]["chunks"] == (60 if state["swaps"] % 2 == 0 else len(demo_like_chunks(dims=8)))
    assert {p: sha256(p) for p in (a, b)} == hashes
    assert sorted(p.name for p in folder.iterdir()) == ["scripture.db"]

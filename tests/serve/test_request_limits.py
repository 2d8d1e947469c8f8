"""What no request may do to the service (issue 30, items 1 and 2): hold up the event loop, get past the
head limit through its request line, or be refused in anything but the contract's JSON.

Real ``serve`` over the study library; raw sockets where the request is not one an HTTP client would send.
"""

from __future__ import annotations

import json
import socket
import statistics
import threading
import time
from typing import Any

import httpx

from amicus_desktop.serve.app import MAX_HEAD
from amicus_desktop.serve.params import MAX_PINS, MAX_REPEATED
from tests.serve.conftest import expect_error
from tests.support.figures import record_figure
from tests.support.serve import ServeProcess

#: 10,000 pins in 60 KB, inside the head limit: 2.8 s of parsing on the event loop before the cap
TEN_THOUSAND_PINS = "q=grace&mode=keyword&" + "&".join(["pin=a"] * 10_000)
#: the largest request that is accepted: every repeated value it may hold (the flags' parser: ~0.1 s)
MOST_VALUES = ("q=grace&mode=keyword&" + "&".join(f"filter.scholar=s{i}" for i in range(MAX_REPEATED - MAX_PINS))
               + "&" + "&".join(f"pin=p{i}" for i in range(MAX_PINS)))


def raw_request(served: ServeProcess, data: bytes) -> tuple[int, dict[str, str], Any]:
    """Send ``data`` as it is and read the answer to its end: the status, headers and JSON body."""
    with socket.create_connection(("127.0.0.1", served.port), timeout=30) as sock:
        sock.sendall(data)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)}
    return int(status_line.split()[1]), headers, json.loads(body)


def expect_raw_error(answer: tuple[int, dict[str, str], Any], status: int, code: str) -> dict[str, Any]:
    got, headers, body = answer
    assert got == status, body
    assert headers["content-type"] == "application/json"
    assert body["error"]["code"] == code and body["error"]["message"]
    assert body["trace_id"] and headers["x-trace-id"] == body["trace_id"]
    return dict(body)


def test_many_repeated_values_are_refused_at_once_and_never_hold_up_health(served: ServeProcess) -> None:
    assert len(TEN_THOUSAND_PINS) < MAX_HEAD
    client = httpx.Client(base_url=served.url, timeout=60, trust_env=False)
    stop = threading.Event()
    sent: list[int] = []

    def hammer(query: str) -> None:
        with httpx.Client(base_url=served.url, timeout=60, trust_env=False) as own:
            while not stop.is_set():
                sent.append(own.get(f"/retrieve?{query}").status_code)

    threads = [threading.Thread(target=hammer, args=(q,)) for q in (TEN_THOUSAND_PINS, MOST_VALUES, MOST_VALUES)]
    for thread in threads:
        thread.start()
    waits: list[float] = []
    try:
        while len(sent) < 3:  # every kind of request is being checked now
            time.sleep(0.01)
        for _ in range(30):
            started = time.perf_counter()
            assert client.get("/health").status_code == 200
            waits.append(time.perf_counter() - started)
            if waits[-1] > 1.0:  # held up: no need to wait for more
                break
    finally:
        stop.set()
        for thread in threads:
            thread.join()
        client.close()
    median, worst = statistics.median(waits), max(waits)
    print(f"/health: median {median * 1000:.0f} ms, max {worst * 1000:.0f} ms ({len(sent)} requests)")
    record_figure("serve /health under the worst requests",
                  f"median {median * 1000:.0f} ms, max {worst * 1000:.0f} ms over {len(waits)} probes "
                  f"while {len(sent)} worst-case requests were checked")
    # it waited 2.8 s behind one request of 10,000 pins (and 26 s behind two of 15,000)
    assert median < 0.25 and worst < 1.0, waits  # generous: the machine is shared (measured: ~50 ms, 0.2 s)
    assert set(sent) == {200, 400}
    with httpx.Client(base_url=served.url, timeout=60, trust_env=False) as client:
        refused = expect_error(client.get(f"/retrieve?{TEN_THOUSAND_PINS}"), 400, "BAD_REQUEST")
        assert f"at most {MAX_PINS} chunks" in refused["error"]["message"]
        too_many = "q=grace&" + "&".join(f"filter.book=b{i}" for i in range(MAX_REPEATED + 1))
        refused = expect_error(client.get(f"/retrieve?{too_many}"), 400, "BAD_REQUEST")
        assert f"at most {MAX_REPEATED:,} values" in refused["error"]["message"]
        assert client.get(f"/retrieve?{MOST_VALUES}").status_code == 200


def test_the_request_line_counts_toward_the_head_limit(served: ServeProcess) -> None:
    """A 120 KB URL was answered 200; a 150 KB one got uvicorn's text/plain 400 or a reset."""
    for size in (MAX_HEAD + 1, 120_000, 150_000, 400_000):
        request = f"GET /health?pad={'x' * size} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        body = expect_raw_error(raw_request(served, request.encode()), 431, "HEADERS_TOO_LARGE")
        assert "request line and headers" in body["error"]["message"]
    fits = f"GET /health?pad={'x' * (MAX_HEAD - 200)} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    assert raw_request(served, fits.encode())[0] == 200
    assert body["trace_id"] in served.log_text()  # the refusal is logged under its trace id


def test_requests_the_http_parser_refuses_get_the_contracts_error(served: ServeProcess) -> None:
    two_hosts = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: localhost\r\n\r\n"
    no_host = b"GET /health HTTP/1.1\r\nConnection: close\r\n\r\n"
    for request in (two_hosts, no_host):
        body = expect_raw_error(raw_request(served, request), 400, "BAD_REQUEST")
        assert "exactly one Host header" in body["error"]["message"]
    body = expect_raw_error(raw_request(served, b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n"),
                            400, "BAD_REQUEST")
    assert "not valid HTTP/1.1" in body["error"]["message"]
    assert served.get("/health").status_code == 200

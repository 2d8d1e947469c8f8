"""A scripted embed proxy on 127.0.0.1 that speaks CONTRACT section 2 over real HTTP.

The real proxy (``amicus-desktop proxy``) is used wherever it can produce what a test needs. This
server exists for what the real one never does on purpose: answer NaN, the wrong dims or model,
malformed JSON, hang, drop the connection, rate limit on cue, or return exact vectors chosen by
the test (ties, boosts). Each behaviour is a function of the request, set by the test.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
import time
import zlib
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np


def text_vector(text: str, dims: int) -> list[float]:
    """A deterministic unit vector for ``text`` (seeded by its SHA-256)."""
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
    v = np.random.default_rng(seed).standard_normal(dims).astype(np.float32)
    return (v / np.linalg.norm(v)).tolist()


Reply = tuple[int, dict[str, str], bytes]


class ScriptedProxy:
    """Start with ``with ScriptedProxy(dims=8) as proxy: ... proxy.url``.

    ``vectors`` maps an input text to the vector to answer (else :func:`text_vector`);
    ``behaviour`` (``request_body_dict -> Reply | "hang" | "close" | "trickle" | None``) overrides
    the normal answer for the next requests (``None`` means answer normally). ``"trickle"``
    answers 200 and then one byte of body every ``trickle_interval`` seconds, never finishing.
    """

    def __init__(self, dims: int = 8, model: str = "test-model", port: int = 0) -> None:
        self.dims = dims
        self.model = model
        self.vectors: dict[str, list[float]] = {}
        self.behaviour: Callable[[dict[str, Any]], Reply | str | None] | None = None
        self.embed_requests = 0
        self.health_requests = 0
        self.trickle_interval = 0.2
        self.last_headers: dict[str, str] = {}
        self._release = threading.Event()
        self._connections: set = set()
        # A connection accepted while stop() runs must not outlive it (its handler thread may start
        # after stop() looked at the open connections): both sides hold this lock.
        self._lock = threading.Lock()
        self._stopped = False
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:  # keep test output quiet
                pass

            def setup(self) -> None:
                super().setup()
                with proxy._lock:
                    proxy._connections.add(self.connection)
                    if proxy._stopped:  # accepted just before the listener closed: gone with it
                        with contextlib.suppress(OSError):
                            self.connection.shutdown(2)

            def finish(self) -> None:
                proxy._connections.discard(self.connection)
                super().finish()

            def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                proxy.health_requests += 1
                if self.path != "/health":
                    self._send(404, b'{"error":{"code":"NOT_FOUND","message":"no such path"}}')
                    return
                if proxy._apply({"health": True}, self):
                    return
                self._send(200, json.dumps({"status": "ok", "model": proxy.model, "dims": proxy.dims}).encode())

            def do_POST(self) -> None:
                proxy.embed_requests += 1
                proxy.last_headers = dict(self.headers)
                length = int(self.headers.get("Content-Length", "0"))
                try:
                    body = json.loads(self.rfile.read(length) or b"null")
                except ValueError:
                    body = None
                if proxy._apply(body if isinstance(body, dict) else {}, self):
                    return
                if not isinstance(body, dict) or "input" not in body:
                    self._send(400, b'{"error":{"code":"BAD_REQUEST","message":"expected {\\"input\\": ...}"}}')
                    return
                inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
                data = [
                    {"index": i, "embedding": proxy.vectors.get(t) or text_vector(t, proxy.dims)}
                    for i, t in enumerate(inputs)
                ]
                self._send(200, json.dumps({"model": proxy.model, "dims": proxy.dims, "data": data}).encode())

        class Server(ThreadingHTTPServer):
            daemon_threads = True
            request_queue_size = 128  # the stdlib default of 5 queues too few

        self._server = Server(("127.0.0.1", port), Handler)
        self.port = self._server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread: threading.Thread | None = None

    def _apply(self, body: dict[str, Any], handler: BaseHTTPRequestHandler) -> bool:
        if self.behaviour is None:
            return False
        action = self.behaviour(body)
        if action is None:
            return False
        if action == "hang":  # accept, read, never answer (until the test ends)
            self._release.wait(60)
            handler.close_connection = True
            return True
        if action == "trickle":  # a 200 whose body never ends: one byte at a time, each in time
            handler.send_response(200)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", "1000000")
            handler.end_headers()
            handler.wfile.flush()
            with contextlib.suppress(OSError):
                while not self._release.wait(self.trickle_interval):
                    handler.wfile.write(b" ")
                    handler.wfile.flush()
            handler.close_connection = True
            return True
        if action == "close":  # drop the connection without a word
            handler.close_connection = True
            handler.connection.shutdown(2)
            return True
        status, headers, payload = action
        # the Handler class of __init__ adds _send to BaseHTTPRequestHandler
        handler._send(status, payload, headers)  # type: ignore[attr-defined]
        return True

    def start(self) -> ScriptedProxy:
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop like a process that exits: the listener and every open connection close."""
        self._release.set()
        self._server.shutdown()
        self._server.server_close()
        with self._lock:
            self._stopped = True
            open_now = list(self._connections)
        for conn in open_now:
            with contextlib.suppress(OSError):
                conn.shutdown(2)

    def __enter__(self) -> ScriptedProxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def reply_json(status: int, obj: Any, headers: dict[str, str] | None = None) -> Reply:
    return status, headers or {}, json.dumps(obj).encode()


def reply_raw(status: int, payload: bytes, headers: dict[str, str] | None = None) -> Reply:
    return status, headers or {}, payload


def after_delay(seconds: float, reply: Reply) -> Callable[[dict[str, Any]], Reply]:
    def behaviour(_body: dict[str, Any]) -> Reply:
        time.sleep(seconds)
        return reply

    return behaviour


def _behaviour_for(mode: str) -> Callable[[dict[str, Any]], Reply | str | None] | None:
    """``ok``, ``hang``, ``close``, ``trickle`` (one body byte every 0.2 s, never done), ``status:503``,
    ``delay:5``, ``malformed``, ``nan``, ``big:50`` (a body of that many MB) or ``bomb:100`` (a gzip
    body that inflates to that many MB). Health answers normally in every mode but ``hang`` and
    ``close``."""
    name, _, arg = mode.partition(":")
    def embed_only(action: Callable[[], Reply | str]) -> Callable[[dict[str, Any]], Reply | str | None]:
        return lambda body: None if body.get("health") else action()
    if name == "ok":
        return None
    if name in ("hang", "close"):
        return lambda body: name
    if name == "trickle":
        return embed_only(lambda: "trickle")
    if name == "bomb":
        squeeze = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
        zeros = b"0" * (1024 * 1024)
        bomb = squeeze.compress(b'{"model": "m", "data": [{"index": 0, "embedding": [')
        bomb += b"".join(squeeze.compress(zeros) for _ in range(int(arg))) + squeeze.flush()
        return embed_only(lambda: reply_raw(200, bomb, {"Content-Encoding": "gzip"}))
    if name == "status":
        code = int(arg)
        return embed_only(lambda: reply_json(code, {"error": {"code": "SCRIPTED", "message": f"scripted {code}"}},
                                             {"Retry-After": "1"} if code == 429 else None))
    if name == "delay":
        return lambda body: (time.sleep(float(arg)), None)[1]
    if name == "malformed":
        return embed_only(lambda: reply_raw(200, b'{"model": "m", "data": [{"index": 0, "embedding": [0.1, '))
    if name == "nan":
        nan = b'{"model": "m", "dims": 2, "data": [{"index": 0, "embedding": [NaN, 1.0]}]}'
        return embed_only(lambda: reply_raw(200, nan))
    if name == "big":
        size = int(float(arg) * 1024 * 1024)
        big = b'{"model": "m", "data": [{"index": 0, "embedding": [' + b"0.1," * (size // 4) + b"0.1]}]}"
        return embed_only(lambda: reply_raw(200, big))
    raise ValueError(f"unknown mode {mode!r}")


def main(argv: list[str] | None = None) -> None:
    """Run as a process (``python -m tests.support.scripted_proxy --port P --mode hang``) so a test
    can kill it for real, mid-request."""
    import argparse
    import signal
    import sys

    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--dims", type=int, default=8)
    p.add_argument("--model", default="test-model")
    p.add_argument("--mode", default="ok")
    args = p.parse_args(argv)
    proxy = ScriptedProxy(dims=args.dims, model=args.model, port=args.port)
    proxy.behaviour = _behaviour_for(args.mode)
    print(f"listening on {proxy.url}", flush=True)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        proxy._server.serve_forever()
    finally:
        proxy._release.set()


if __name__ == "__main__":
    main()

"""A stand-in for an OpenAI-compatible embeddings server, on 127.0.0.1, speaking the real wire format.

``POST /v1/embeddings`` ``{"model", "input": str | [str]}`` →
``{"object": "list", "data": [{"object": "embedding", "index": i, "embedding": [...]}],
"model", "usage"}``. It checks ``Authorization: Bearer <api_key>`` and answers errors the way
OpenAI does: ``{"error": {"message", "type", "param", "code"}}``.

``mode`` picks the next answers: ``ok``, ``500``, ``429`` (``Retry-After: 7``), ``garbage``
(not JSON), ``short`` (one vector too few), ``nan``, ``hang`` (sleeps ``hang_seconds``),
``shuffled`` (data in reverse index order, which clients must sort).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

#: vectors are deliberately not unit length: the proxy must re-normalise them.
SCALE = 3.0


def upstream_vector(text: str, dims: int) -> np.ndarray:
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
    v = np.random.default_rng(seed).standard_normal(dims)
    return (SCALE * v / np.linalg.norm(v)).astype(np.float64)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64  # the default 5 stalls parallel clients (10 requests took 1 s)
    double: FakeOpenAI


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        pass

    def do_POST(self) -> None:
        double = self.server.double
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length)
        with double.lock:
            double.requests.append({"path": self.path, "headers": dict(self.headers),
                                    "body": raw})
        if self.path != "/v1/embeddings":
            return self._error(404, "Unknown request URL", "invalid_request_error", None)
        if self.headers.get("authorization") != f"Bearer {double.api_key}":
            shown = (self.headers.get("authorization") or "")[-4:]
            return self._error(401, f"Incorrect API key provided: ...{shown}.",
                               "invalid_request_error", "invalid_api_key")
        mode = double.mode
        if mode == "500":
            return self._error(500, "The server had an error while processing your request.",
                               "server_error", None)
        if mode == "429":
            return self._error(429, "Rate limit reached for requests", "requests",
                               "rate_limit_exceeded", {"Retry-After": "7"})
        if mode == "hang":
            time.sleep(double.hang_seconds)
        if mode == "garbage":
            return self._send(200, b"<html>upstream proxy error</html>", "text/html")
        try:
            body = json.loads(raw)
            texts = body["input"]
            model = body["model"]
        except (ValueError, KeyError, TypeError):
            return self._error(400, "We could not parse the JSON body of your request.",
                               "invalid_request_error", None)
        if isinstance(texts, str):
            texts = [texts]
        data = [{"object": "embedding", "index": i,
                 "embedding": upstream_vector(t, double.dims).tolist()}
                for i, t in enumerate(texts)]
        if mode == "short":
            data = data[:-1]
        if mode == "nan":
            data[0]["embedding"][0] = float("nan")
        if mode == "shuffled":
            data.reverse()
        payload = {"object": "list", "data": data, "model": model,
                   "usage": {"prompt_tokens": 1, "total_tokens": 1}}
        self._send(200, json.dumps(payload).encode(), "application/json")

    def _error(self, status: int, message: str, type_: str, code: str | None,
               headers: dict[str, str] | None = None) -> None:
        body = {"error": {"message": message, "type": type_, "param": None, "code": code}}
        self._send(status, json.dumps(body).encode(), "application/json", headers)

    def _send(self, status: int, body: bytes, content_type: str,
              headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass


class FakeOpenAI:
    """``with FakeOpenAI(api_key="sk-test", dims=16) as up: up.url`` (also ``.stop()``)."""

    def __init__(self, *, api_key: str, dims: int = 16, port: int = 0) -> None:
        self.api_key = api_key
        self.dims = dims
        self.mode = "ok"
        self.hang_seconds = 5.0
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self._server = _Server(("127.0.0.1", port), _Handler)
        self._server.double = self
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)

    def __enter__(self) -> FakeOpenAI:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

"""A minimal loopback embed proxy for the benchmark (CONTRACT section 2 shape, nothing more).

``python -m amicus_desktop.bench.proxy --dims D [--seed S] [--model ID] [--port 0]`` listens on 127.0.0.1 and
prints ``listening on http://127.0.0.1:PORT`` on stdout once it accepts connections. For
``POST /ai/embed`` it answers the deterministic unit vector of each input text
(:func:`amicus_desktop.bench.synth.query_vector`); ``GET /health`` gives the model and dims.

It is a benchmark fixture: the point is to put a real HTTP round trip over loopback (JSON of
``D`` floats, httpx on the client side) into the end-to-end numbers while costing as little as
possible itself. It runs in its own process, like the real proxy. It has no token check, rate
limit or error handling beyond 400/404; do not use it as a stand-in for the real proxy's
behaviour.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from typing import Any

from .synth import query_vector


class BenchProxy:
    """The benchmark's embed proxy: answers /health and /ai/embed with synthetic vectors at once, so
    that a benchmark measures the app's side and not a model."""

    def __init__(self, dims: int, model: str, seed: int) -> None:
        self.dims = dims
        self.model = model
        self.seed = seed

    def answer(self, method: str, path: str, body: bytes) -> tuple[int, dict[str, Any]]:
        if method == "GET" and path == "/health":
            return 200, {"status": "ok", "model": self.model, "dims": self.dims}
        if method == "POST" and path == "/ai/embed":
            try:
                inputs = json.loads(body)["input"]
            except (ValueError, KeyError, TypeError):
                return 400, {"error": {"code": "BAD_REQUEST", "message": "body must be {\"input\": ...}"}}
            texts = [inputs] if isinstance(inputs, str) else list(inputs)
            data = [
                {"index": i, "embedding": query_vector(str(t), self.dims, self.seed).tolist()}
                for i, t in enumerate(texts)
            ]
            return 200, {"model": self.model, "dims": self.dims, "data": data}
        return 404, {"error": {"code": "NOT_FOUND", "message": f"no route {method} {path}"}}

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:  # HTTP/1.1 keep-alive: httpx reuses the connection
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.decode("latin-1").split("\r\n")
                method, path, _version = lines[0].split(" ", 2)
                headers = {}
                for line in lines[1:]:
                    if ":" in line:
                        k, v = line.split(":", 1)
                        headers[k.strip().lower()] = v.strip()
                body = await reader.readexactly(int(headers.get("content-length", "0")))
                status, payload = self.answer(method, path.split("?", 1)[0], body)
                raw = json.dumps(payload).encode()
                reason = {200: "OK", 400: "Bad Request", 404: "Not Found"}[status]
                writer.write(
                    f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\n"
                    f"Content-Length: {len(raw)}\r\n\r\n".encode("latin-1") + raw
                )
                await writer.drain()
                if headers.get("connection", "").lower() == "close":
                    break
        except (asyncio.IncompleteReadError, ConnectionError, ValueError):
            pass
        finally:
            writer.close()


async def serve(dims: int, model: str, port: int, seed: int) -> None:
    proxy = BenchProxy(dims, model, seed)
    server = await asyncio.start_server(proxy.handle, "127.0.0.1", port, backlog=128)
    host, real_port = server.sockets[0].getsockname()[:2]
    print(f"listening on http://{host}:{real_port}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # Windows: the parent kills the process
            pass
    async with server:
        await stop.wait()


if __name__ == "__main__":  # its command line is read in cli/ (cli/bench_children.py)
    from amicus_desktop.cli.bench_children import proxy_main

    sys.exit(proxy_main())

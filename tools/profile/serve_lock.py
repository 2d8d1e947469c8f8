"""Who holds the interpreter lock in ``serve`` (and its proxy) under load: py-spy ``record --gil`` while N clients ask.

``python tools/profile/serve_lock.py --db LIBRARY --path PATH [--clients 32] [--seconds 10] [--dims D]``

PATH: ``unbatched`` / ``batched`` (the real proxy with ``--batch 1`` / its default), ``in-service``
(``serve --embed local``), ``synthetic`` (the benchmark's proxy, ``--dims`` of the synthetic library). It starts
the processes, runs the benchmark's clients (:mod:`amicus_desktop.bench.service`: new questions, no pause), attaches
py-spy (``pip install py-spy``; it needs ptrace rights) to the service and the proxy for the measured window, and
prints answers/s, latency, CPU ms per answer, and the lock held per answer split by where the innermost known
frame is. Lock-held time is wall time while a thread holds the lock: on a busy machine the holder is often
descheduled while holding it, so compare runs made together. Writes the raw samples to ``--out`` (a folder).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from amicus_desktop.bench import service as sv
from amicus_desktop.bench.processes import start_server, stop_server

RATE = 200
_SKIP = ("uvicorn/server.py", "uvicorn/_compat.py", "http/lifecycle.py", "amicus_desktop/cli/",
         "amicus_desktop/__main__", "threading.py", "concurrent/futures")
_CLIENT, _MODEL, _FRAMEWORK, _ENGINE = ("embed client (httpx, answer)", "model", "uvicorn/starlette/anyio",
                                        "engine (retrieval, search, rerank, store)")
CATEGORIES = [("httpx", _CLIENT), ("httpcore", _CLIENT), ("embedding/client.py", _CLIENT), ("proxy_answers", _CLIENT),
              ("onnxruntime", _MODEL), ("tokenizers", _MODEL), ("embedding/local.py", _MODEL),
              ("batching.py", "batcher"), ("in_process.py", "batcher"),
              ("uvicorn", _FRAMEWORK), ("starlette", _FRAMEWORK), ("h11", _FRAMEWORK), ("anyio", _FRAMEWORK),
              ("amicus_desktop/http/", "our middleware (http/)"),
              ("amicus_desktop/serve/", "service: request and answer code"), ("amicus_desktop/proxy/", "proxy app"),
              ("amicus_desktop/bench/", "bench proxy"), ("amicus_desktop/", _ENGINE), ("sqlite", _ENGINE),
              ("numpy", _ENGINE)]


def category(frames: list[str]) -> str:
    for frame in reversed(frames):
        if any(x in frame for x in _SKIP):
            continue
        for key, name in CATEGORIES:
            if key in frame:
                return name
    return "event loop / stdlib"


def start(db: str, path: str, dims: int | None) -> tuple[list[subprocess.Popen[str]], dict[str, int], str]:
    procs: list[subprocess.Popen[str]] = []
    pids = {"load generator": os.getpid()}
    proxy_url = "http://127.0.0.1:9"  # never asked with the model in the service
    if path in ("unbatched", "batched"):
        extra = ["--batch", "1"] if path == "unbatched" else []
        proc, proxy_url = start_server([sys.executable, "-m", "amicus_desktop", "proxy", "--port", "0", "--rate-limit",
                                        "0", "--log-level", "warning", *extra], "listening on ", 120)
        procs.append(proc)
        pids["proxy"] = proc.pid
    elif path == "synthetic":
        proc, proxy_url = start_server([sys.executable, "-m", "amicus_desktop.bench.proxy", "--dims", str(dims)],
                                       "listening on ", 120)
        procs.append(proc)
        pids["proxy"] = proc.pid
    cmd = [sys.executable, "-m", "amicus_desktop", "serve", "--db", db, "--proxy", proxy_url, "--port", "0",
           "--rate-limit", "0", "--log-level", "warning"]
    if path == "in-service":
        cmd += ["--embed", "local"]
    proc, url = start_server(cmd, "listening on ", 120)
    procs.append(proc)
    pids["service"] = proc.pid
    return procs, pids, url


async def load(url: str, pids: dict[str, int], clients: int, seconds: float, out: Path,
               py_spy: str) -> tuple[dict[str, Any], dict[str, Path]]:
    texts = sv.question_stream(f"lock{random.random()}-")

    async def client(run: Any, stop: asyncio.Event, think: float, rng: random.Random) -> None:
        await sv._http_client(url, texts, run, stop, think, rng)

    task = asyncio.ensure_future(sv._level(clients, 0.0, seconds, client, pids, 3.0))
    await asyncio.sleep(3.0)
    spies: list[subprocess.Popen[bytes]] = []
    files: dict[str, Path] = {}
    for name in ("service", "proxy"):
        if name in pids:
            files[name] = out / f"{name}.txt"
            spies.append(subprocess.Popen([py_spy, "record", "--gil", "-r", str(RATE), "-d", str(int(seconds)), "-f",
                                           "raw", "-o", str(files[name]), "-p", str(pids[name]), "--nonblocking"],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    row = await task
    for spy in spies:
        spy.wait()
    return row, files


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python tools/profile/serve_lock.py")
    p.add_argument("--db", required=True)
    p.add_argument("--path", required=True, choices=("unbatched", "batched", "in-service", "synthetic"))
    p.add_argument("--clients", type=int, default=32)
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--dims", type=int, help="synthetic: the library's dims")
    p.add_argument("--out", type=Path, help="folder for py-spy's raw samples (default: a new temporary one)")
    args = p.parse_args(argv)
    py_spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    out = args.out or Path(tempfile.mkdtemp(prefix="amicus-lock-"))
    out.mkdir(parents=True, exist_ok=True)
    procs, pids, url = start(args.db, args.path, args.dims)
    try:
        row, files = asyncio.run(load(url, pids, args.clients, args.seconds, out, py_spy))
    finally:
        for proc in procs:
            stop_server(proc, 15)
    answers = max(1, row["requests"])
    lat = row["latency_ms"]
    print(f"{args.path}, {args.clients} clients: {row['throughput']:.1f} answers/s, p50 {lat.get('p50', 0):.0f} ms, "
          f"p95 {lat.get('p95', 0):.0f} ms; CPU ms per answer: "
          + ", ".join(f"{k} {v:.1f}" for k, v in row["cpu_ms_per_request"].items()))
    for name, file in files.items():
        shares: collections.Counter[str] = collections.Counter()
        for line in file.read_text().splitlines() if file.exists() else []:
            stack, _, count = line.rpartition(" ")
            if count.isdigit():
                shares[category(stack.split(";"))] += int(count)
        total = sum(shares.values())
        print(f"  {name}: lock held {total / RATE * 1000 / answers * row['seconds'] / args.seconds:.2f} ms per answer "
              f"({total} samples at {RATE} Hz; raw: {file})")
        for what, n in shares.most_common():
            print(f"     {what:42s} {100 * n / max(1, total):5.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())

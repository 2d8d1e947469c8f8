"""The service row of ``amicus-desktop bench``: ``serve`` under N concurrent clients, beside ``query`` in-process.

``python -m amicus_desktop.bench.service --db PATH|postgresql://… [--proxy URL | --real-proxy] [--clients 1,8,32]
[--seconds S]`` prints one JSON object (the last line of stdout). For the library it

1. starts ``amicus-desktop serve`` on a free loopback port (rate limit off) in its own process, against
   an embed proxy in its own process: the project's real proxy and local model (``--real-proxy``, for a
   real library), the benchmark's synthetic proxy (:mod:`.proxy`, the default, for a synthetic
   library), or one already running (``--proxy URL``; its CPU is then not measured);
2. for each N, runs N clients in this process — each one HTTP/1.1 keep-alive connection asking
   ``GET /retrieve`` again as soon as it has its answer (no think time: the service at saturation), or
   ``N@T``: after a pause of T seconds on average (exponentially distributed: readers) — for a warm-up,
   then ``seconds`` measured (longer, by at most :data:`OVERTIME`, when no answer came back in them); every
   question is a real one with a distinct suffix, so every request embeds (the vector cache never hits);
3. the same questions through one :class:`~amicus_desktop.retrieval.Retriever` in this process, with N
   concurrent tasks: what ``query`` costs without HTTP.

Reported per N: throughput, latency p50/p95/p99, errors by code, the service's own stage times (from
each answer's ``timing_ms``), the CPU each process used per request (the service, the proxy, this load
generator), and the peak RSS of the service process.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import numpy as np

from ..core.query import RetrievalContext
from ..retrieval import Retriever
from ..store.library import open_library
from . import questions, synth
from .processes import start_server, stop_server
from .tables import fmt_ms, markdown_table

#: the most seconds a measuring window stays open past its length while no answer has come back in it
OVERTIME = 60.0
#: concurrent clients per run; ``N@T``: N clients pausing T seconds on average between answer and question
DEFAULT_CLIENTS = ("1", "8", "32", "32@1")
DEFAULT_SECONDS = 15.0
WARMUP_SECONDS = 2.0
#: the service's default k (CONTRACT section 9)
K = 5
#: a request that has no answer after this long counts as an error (the seed's budget is 500 ms)
CLIENT_TIMEOUT = 30.0
#: seconds a server has to say it listens (the real proxy loads its model first), and to stop
_START_S, _STOP_S = 120.0, 15.0


def stats(samples: list[float]) -> dict[str, float]:
    a = np.asarray(samples, dtype=np.float64)
    if a.size == 0:
        return {"n": 0}
    p50, p95, p99 = np.percentile(a, [50, 95, 99])
    return {"p50": float(p50), "p95": float(p95), "p99": float(p99), "mean": float(a.mean()),
            "max": float(a.max()), "n": int(a.size)}


def question_stream(tag: str) -> Iterator[str]:
    """Real questions, each with a distinct suffix so that no two requests share a vector."""
    for n in itertools.count():
        yield f"{questions.QUESTIONS[n % len(questions.QUESTIONS)]} ({tag}{n})"


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def peak_rss_of(pid: int) -> float:
    """Peak resident memory of process ``pid`` in MiB (``VmHWM``; 0 where unknown)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


class _Run:
    """Samples of one load level."""

    def __init__(self) -> None:
        self.latency: list[float] = []
        self.errors: Counter[str] = Counter()
        self.stages: dict[str, list[float]] = {"embed": [], "search": [], "rerank": [], "total": []}
        self.measuring = False

    def record(self, ms: float, code: str | None, timing: dict[str, float] | None) -> None:
        if not self.measuring:
            return
        if code is not None:
            self.errors[code] += 1
            return
        self.latency.append(ms)
        for name, values in self.stages.items():
            if timing and name in timing:
                values.append(float(timing[name]))


def parse_levels(text: str) -> list[tuple[int, float]]:
    """``"1,8,32,32@1"`` → ``[(1, 0.0), (8, 0.0), (32, 0.0), (32, 1.0)]`` (clients, mean think seconds)."""
    out = []
    for part in text.split(","):
        if part.strip():
            n, _, think = part.strip().partition("@")
            out.append((int(n), float(think or 0)))
    if not out or any(n < 1 or t < 0 for n, t in out):
        raise ValueError(f"expected N or N@SECONDS, comma-separated, not {text!r}")
    return out


def level_name(clients: int, think: float) -> str:
    return f"{clients}" + (f" (think {think:g} s)" if think else "")


async def _think(rng: random.Random, think: float, stop: asyncio.Event) -> None:
    if think > 0:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), rng.expovariate(1 / think))


async def _http_client(url: str, texts: Iterator[str], run: _Run, stop: asyncio.Event, think: float = 0.0,
                       rng: random.Random | None = None) -> None:
    limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
    rng = rng or random.Random(0)
    async with httpx.AsyncClient(base_url=url, timeout=CLIENT_TIMEOUT, limits=limits, trust_env=False) as client:
        while not stop.is_set():
            await _think(rng, think, stop)
            t0 = time.perf_counter()
            try:
                response = await client.get("/retrieve", params={"q": next(texts), "k": K})
                ms = (time.perf_counter() - t0) * 1000
                body = response.json()
                if response.status_code == 200:
                    run.record(ms, None, body.get("timing_ms"))
                else:
                    run.record(ms, str(body.get("error", {}).get("code", response.status_code)), None)
            except (httpx.HTTPError, ValueError) as exc:
                run.record((time.perf_counter() - t0) * 1000, type(exc).__name__, None)


async def _in_process_client(retriever: Retriever, texts: Iterator[str], run: _Run, stop: asyncio.Event,
                             think: float = 0.0, rng: random.Random | None = None) -> None:
    from ..core.errors import AmicusError

    rng = rng or random.Random(0)
    while not stop.is_set():
        await _think(rng, think, stop)
        t0 = time.perf_counter()
        try:
            result = await retriever.retrieve(RetrievalContext(query=next(texts), k=K))
            run.record((time.perf_counter() - t0) * 1000, None, result.timings.to_json())
        except AmicusError as err:
            run.record((time.perf_counter() - t0) * 1000, err.code.value, None)


async def _level(clients: int, think: float, seconds: float, start: Any, pids: dict[str, int],
                 warmup: float = WARMUP_SECONDS) -> dict[str, Any]:
    """Run ``clients`` copies of ``start(run, stop, think, rng)`` for ``warmup`` seconds, then ``seconds``
    measured."""
    run, stop = _Run(), asyncio.Event()
    tasks = [asyncio.ensure_future(start(run, stop, think, random.Random(i))) for i in range(clients)]
    await asyncio.sleep(warmup)
    cpu0 = {name: cpu_seconds(pid) for name, pid in pids.items()}
    run.measuring = True
    t0 = time.perf_counter()
    await asyncio.sleep(seconds)
    # a row of no answer says nothing: on a machine busy enough that none came back in the window, it stays open
    # until one does (at most OVERTIME more seconds; the wall time below says how long it really was)
    while not (run.latency or run.errors) and time.perf_counter() - t0 < seconds + OVERTIME:
        await asyncio.sleep(0.05)
    run.measuring = False
    wall = time.perf_counter() - t0
    cpu: dict[str, float] = {}
    for name, pid in pids.items():  # the replicas of the service ("service 2", …) count as the service
        key = "service" if name.startswith("service") else name
        cpu[key] = cpu.get(key, 0.0) + cpu_seconds(pid) - cpu0[name]
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    done = len(run.latency)
    answered = max(1, done + sum(run.errors.values()))
    return {
        "clients": clients, "think_s": think, "seconds": wall, "requests": done, "throughput": done / wall,
        "latency_ms": stats(run.latency), "errors": dict(run.errors),
        "stages_ms": {name: stats(values) for name, values in run.stages.items()},
        "cpu_ms_per_request": {name: 1000 * s / answered for name, s in cpu.items()},
        "cpu_share": {name: s / wall for name, s in cpu.items()},
        "loadavg": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }


def measure(db: Path | str, proxy_url: str | None, levels: list[tuple[int, float]], seconds: float, lanes: int | None,
            *, real_proxy: bool = False, warmup: float = WARMUP_SECONDS, replicas: int = 1,
            proxy_args: Sequence[str] = (), serve_args: Sequence[str] = (), in_process: bool = True) -> dict[str, Any]:
    """The service and in-process rows for ``db`` (see the module docstring); ``replicas`` services on the
    same library, the clients dealt out among them in turn (docs/DEPLOY.md's replicas, here on one machine);
    ``proxy_args``/``serve_args``: more flags for the real proxy and the service (:mod:`.embed_paths`);
    ``in_process``: also the in-process rows."""
    with open_library(db) as store:  # a file, or a library on PostgreSQL (its URL)
        info = store.info
    out: dict[str, Any] = {"db": str(db), "n": info.chunk_count, "dims": info.dims, "model": info.model_id,
                           "k": K, "warmup_s": warmup, "replicas": replicas}
    proxy: subprocess.Popen[str] | None = None
    if real_proxy:  # the project's proxy and local model, for a real library
        proxy, proxy_url = start_server([sys.executable, "-m", "amicus_desktop", "proxy", "--port", "0", "--rate-limit",
                                         "0", "--log-level", "warning", *proxy_args], "listening on ", _START_S)
        out["proxy"] = "real (local model)"
    elif proxy_url is None:  # the benchmark's synthetic proxy, for a synthetic library
        proxy, proxy_url = start_server([sys.executable, "-m", "amicus_desktop.bench.proxy", "--dims",
                                         str(info.dims)], "listening on ", _START_S)
        out["proxy"] = "bench (synthetic vectors)"
    else:
        out["proxy"] = "given"
    pids = {"load generator": os.getpid()}
    if proxy is not None:
        pids["proxy"] = proxy.pid
    try:
        cmd = [sys.executable, "-m", "amicus_desktop", "serve", "--db", str(db), "--proxy", proxy_url,
               "--port", "0", "--rate-limit", "0", "--log-level", "warning", *serve_args]
        if lanes:
            cmd += ["--lanes", str(lanes)]
        services: list[tuple[subprocess.Popen[str], str]] = []
        try:
            for i in range(replicas):
                services.append(start_server(cmd, "listening on ", _START_S))
                pids["service" if i == 0 else f"service {i + 1}"] = services[-1][0].pid
            urls = itertools.cycle([url for _proc, url in services])
            out["service"] = []
            for n, think in levels:
                texts = question_stream(f"s{n}-{think:g}-")

                async def start(run: _Run, stop: asyncio.Event, think: float, rng: random.Random,
                                texts: Iterator[str] = texts) -> None:
                    await _http_client(next(urls), texts, run, stop, think, rng)

                row = asyncio.run(_level(n, think, seconds, start, pids, warmup))
                row["service_peak_rss_mb"] = sum(peak_rss_of(proc.pid) for proc, _url in services)
                out["service"].append(row)
                print(f"  service, {level_name(n, think)} clients: {row['throughput']:.1f}/s, p95 "
                      f"{row['latency_ms'].get('p95', 0):.0f} ms, errors {row['errors']}", file=sys.stderr, flush=True)
        finally:
            for proc, _url in services:
                stop_server(proc, _STOP_S)
        for name in [name for name in pids if name.startswith("service")]:
            del pids[name]
        out["in_process"] = asyncio.run(_in_process(db, proxy_url, levels, seconds, pids, warmup)) if in_process else []
    finally:
        if proxy is not None:
            stop_server(proxy, _STOP_S)
    out["in_process_peak_rss_mb"] = synth.peak_rss_mb()
    return out


async def _in_process(db: Path | str, proxy_url: str, levels: list[tuple[int, float]], seconds: float,
                      pids: dict[str, int], warmup: float) -> list[dict[str, Any]]:
    retriever = Retriever(db, proxy_url)
    rows = []
    try:
        for n, think in levels:
            texts = question_stream(f"p{n}-{think:g}-")

            async def start(run: _Run, stop: asyncio.Event, think: float, rng: random.Random,
                            texts: Iterator[str] = texts) -> None:
                await _in_process_client(retriever, texts, run, stop, think, rng)

            rows.append(await _level(n, think, seconds, start, pids, warmup))
            print(f"  in-process, {level_name(n, think)} tasks: {rows[-1]['throughput']:.1f}/s, p95 "
                  f"{rows[-1]['latency_ms'].get('p95', 0):.0f} ms", file=sys.stderr, flush=True)
    finally:
        await retriever.aclose()
    return rows


def _cpu_cell(row: dict[str, Any]) -> str:
    cpu = row["cpu_ms_per_request"]
    return " / ".join(f"{cpu[k]:.1f}" if k in cpu else "–" for k in ("service", "proxy", "load generator"))


def service_table(report: dict[str, Any]) -> str:
    """``serve`` under N concurrent clients over loopback, beside the same engine in-process."""
    header = ["library", "path", "clients", "answers/s", "latency p50 / p95 / p99", "errors",
              "in the service p50: embed / search / total", "CPU ms per answer: service / proxy / load",
              "peak RSS MB"]
    rows = []
    for m, backend, sv in ((m, backend, m.get(skey)) for m in report["results"]
                           for backend, skey in (("", "service"), (" on PostgreSQL", "service_pg"))):
        if not sv:
            continue
        replicas = sv.get("replicas", 1)
        for kind, key in (("HTTP" if replicas == 1 else f"HTTP, {replicas} services", "service"),
                          ("in-process", "in_process")):
            for row in sv[key]:
                lat, st = row["latency_ms"], row["stages_ms"]
                errors = ", ".join(f"{c} {n}" for c, n in sorted(row["errors"].items())) or "0"
                rss = row.get("service_peak_rss_mb") if key == "service" else sv.get("in_process_peak_rss_mb")
                rows.append([
                    m["label"] + backend, kind, level_name(row["clients"], row.get("think_s", 0.0)),
                    f"{row['throughput']:.1f}",
                    " / ".join(fmt_ms(lat.get(q)) for q in ("p50", "p95", "p99")), errors,
                    " / ".join(fmt_ms(st[s].get("p50")) for s in ("embed", "search", "total")),
                    _cpu_cell(row), f"{rss:.0f}" if rss else "–",
                ])
    return markdown_table(header, rows)


if __name__ == "__main__":  # its command line is read in cli/ (cli/bench_children.py)
    from amicus_desktop.cli.bench_children import service_main

    sys.exit(service_main())

"""Where a question's vector comes from, side by side: ``serve`` with the real local model, three ways, in one run.

``python -m amicus_desktop.bench.embed_paths --db scripture.db [--clients 1,8,32] [--seconds S]
[--paths unbatched,batched,in-service]`` measures ``serve`` under N concurrent clients (:mod:`.service`: real
questions with distinct suffixes, so every request embeds) with

* ``unbatched`` — the proxy (``amicus-desktop proxy --batch 1``) running one model call per request: how
  it was before :mod:`amicus_desktop.embedding.batching`;
* ``batched`` — the proxy as it is now: requests that arrive while the model is busy share one call;
* ``in-service`` — no proxy: ``serve --embed local``, the model in the service's process, batched the same way.

It prints the table (:func:`.service.service_table`, one row per path and load; CPU ms per answer per process,
which says where the work is whatever else the machine runs) and then the whole report as one JSON line.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

from . import service

#: name → (label, the proxy's extra flags, the service's extra flags, whether it needs the proxy)
PATHS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...], bool]] = {
    "unbatched": ("proxy, one model call per request (before)", ("--batch", "1"), (), True),
    "batched": ("proxy, concurrent requests batched", (), (), True),
    "in-service": ("model in the service (serve --embed local)", (), ("--embed", "local"), False),
}
DEFAULT_PATHS = ("unbatched", "batched", "in-service")
DEFAULT_CLIENTS = "1,8,32"
#: the service needs some proxy address to start with; with the model in-process it is never asked
_UNUSED_PROXY = "http://127.0.0.1:9"


def run(db: Path, paths: list[str], levels: list[tuple[int, float]], seconds: float,
        warmup: float = service.WARMUP_SECONDS) -> dict[str, Any]:
    results = []
    for name in paths:
        label, proxy_args, serve_args, needs_proxy = PATHS[name]
        print(f"{label}:", file=sys.stderr, flush=True)
        measured = service.measure(db, None if needs_proxy else _UNUSED_PROXY, levels, seconds, None,
                                   real_proxy=needs_proxy, warmup=warmup, proxy_args=proxy_args,
                                   serve_args=serve_args, in_process=False)
        results.append({"label": label, "path": name, "service": measured})
    return {"db": str(db), "results": results}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m amicus_desktop.bench.embed_paths")
    p.add_argument("--db", type=Path, required=True, help="a library built with the local model")
    p.add_argument("--paths", default=",".join(DEFAULT_PATHS),
                   help=f"comma-separated, in order, from {', '.join(PATHS)} (default: all three)")
    p.add_argument("--clients", default=DEFAULT_CLIENTS, help="N or N@T per run, comma-separated")
    p.add_argument("--seconds", type=float, default=service.DEFAULT_SECONDS, help="measured per run")
    p.add_argument("--warmup", type=float, default=service.WARMUP_SECONDS, help="seconds of load before measuring")
    args = p.parse_args(argv)
    paths = [x.strip() for x in args.paths.split(",") if x.strip()]
    unknown = [x for x in paths if x not in PATHS]
    if unknown or not paths:
        p.error(f"--paths: choose from {', '.join(PATHS)}")
    report = run(args.db, paths, service.parse_levels(args.clients), args.seconds, args.warmup)
    with contextlib.suppress(BrokenPipeError):
        print(service.service_table(report))
        print(json.dumps(report), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

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


if __name__ == "__main__":  # its command line is read in cli/ (cli/bench_children.py)
    from amicus_desktop.cli.bench_children import embed_paths_main

    sys.exit(embed_paths_main())

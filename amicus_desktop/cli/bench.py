"""``amicus-desktop bench``: the retrieval benchmark (see ``docs/PERFORMANCE.md``).

A command, not a test: it builds synthetic databases (or reuses those in ``--out-dir``), measures
them and prints p50/p95 tables next to numpy brute force and the memory-bandwidth floor.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .common import positive_int_arg


def _int_list(text: str) -> list[int]:
    try:
        values = [int(v.replace("_", "")) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, not {text!r}") from None
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError(f"expected positive integers, not {text!r}")
    return values


def _levels(text: str) -> str:
    from ..bench.service import parse_levels

    try:
        parse_levels(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from ..bench.runner import DEFAULT_DIMS, DEFAULT_QUERIES, DEFAULT_SIZES

    p = sub.add_parser(
        "bench",
        help="benchmark retrieval on synthetic databases",
        description=(
            "Build synthetic scripture.db files (SIZES chunks × DIMS dimensions), then print p50/p95 "
            "of KNN (exact sqlite-vec and the two-stage search, with its recall), one-book filtered "
            "KNN, fetch, re-rank and end-to-end retrieval through a loopback HTTP proxy, beside numpy "
            "brute force over the same vectors and the memory-bandwidth floor, with the seed's "
            "budgets. Takes minutes at the default sizes."
        ),
    )
    p.add_argument("--sizes", type=_int_list, default=list(DEFAULT_SIZES), metavar="N,N,...",
                   help=f"chunk counts (default {','.join(map(str, DEFAULT_SIZES))})")
    p.add_argument("--dims", type=_int_list, default=list(DEFAULT_DIMS), metavar="D,D,...",
                   help=f"vector dimensions (default {','.join(map(str, DEFAULT_DIMS))})")
    p.add_argument("--queries", type=positive_int_arg, default=DEFAULT_QUERIES, metavar="N",
                   help=f"distinct queries per measured stage (default {DEFAULT_QUERIES})")
    p.add_argument("--out-dir", type=Path, metavar="DIR",
                   help="where the databases go; matching ones already there are reused "
                        "(default: a new temporary directory)")
    p.add_argument("--keep", action="store_true",
                   help="keep the databases built in this run (else they are deleted at the end)")
    p.add_argument("--seed", type=int, default=0, help="seed of the synthetic data (default 0)")
    p.add_argument("--real-proxy", action="store_true",
                   help="also run end to end through the project's own proxy and local model "
                        "(384-dim configurations only)")
    p.add_argument("--real-db", type=Path, metavar="PATH",
                   help="also measure this real scripture.db (built with the local model) with real questions; "
                        "a copy with the two-stage tables is written to --out-dir when it has none")
    p.add_argument("--service", action="store_true",
                   help="also load 'amicus-desktop serve' with concurrent clients over loopback, beside the "
                        "same questions in-process (the real proxy and model for --real-db)")
    p.add_argument("--clients", type=_levels, metavar="N,N@T,...",
                   help="--service: concurrent clients per run; N@T: N clients pausing T s on average between "
                        "answer and next question (default 1,8,32,32@1)")
    p.add_argument("--service-seconds", type=float, metavar="S",
                   help="--service: seconds measured per run, after a 2 s warm-up (default 15)")
    p.add_argument("--replicas", type=positive_int_arg, default=1, metavar="N",
                   help="--service: N services on the same library, the clients dealt out among them (default 1)")
    p.add_argument("--postgres", metavar="URL",
                   help="--service with --real-db: also the service over that library exported into this PostgreSQL "
                        "database (export-db, written only when it is not there), beside the file's rows")
    p.add_argument("--embed-paths", action="store_true",
                   help="instead: 'serve' with the real local model three ways side by side — the proxy with one "
                        "model call per request (before), the proxy batching concurrent requests, the model in "
                        "the service (serve --embed local); the library is --real-db, else the default "
                        "scripture.db; --clients and --service-seconds apply (default 1,8,32 and 15 s)")
    p.add_argument("--notes", type=positive_int_arg, metavar="N",
                   help="instead: what a workspace of N notes adds to a question (the notes row; the library is "
                        "--real-db, else the default scripture.db)")
    p.add_argument("--json", action="store_true", help="print the whole report as one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.notes is not None:
        return run_notes(args)
    if args.embed_paths:
        return run_embed_paths(args)
    from ..bench import BenchConfig, BenchError, format_report, run_benchmark

    cfg = BenchConfig(
        sizes=args.sizes, dims=args.dims, queries=args.queries, out_dir=args.out_dir,
        keep=args.keep, seed=args.seed, real_proxy=args.real_proxy, real_db=args.real_db,
        service=args.service, service_clients=args.clients.split(",") if args.clients else (),
        service_seconds=args.service_seconds, service_replicas=args.replicas, postgres=args.postgres,
    )
    try:
        report = run_benchmark(cfg)
    except BenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
    else:
        print(format_report(report))
    return 0


def run_notes(args: argparse.Namespace) -> int:
    """``bench --notes N``: the notes row alone (:mod:`amicus_desktop.bench.notes`)."""
    import tempfile

    from .. import paths
    from ..bench.notes import notes_table, run_notes_bench

    db = args.real_db or paths.default_db_path()
    if not db.exists():
        print(f"error: no library at {db}: build one (amicus-desktop build-db) or give --real-db", file=sys.stderr)
        return 1
    out_dir = args.out_dir or Path(tempfile.mkdtemp(prefix="amicus-bench-notes-"))
    try:
        report = run_notes_bench(db, args.notes, out_dir, queries=args.queries, seed=args.seed)
    except RuntimeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(report, indent=1) if args.json else notes_table(report))
    return 0


def run_embed_paths(args: argparse.Namespace) -> int:
    """``bench --embed-paths``: :mod:`amicus_desktop.bench.embed_paths` (its table, or ``--json`` its report)."""
    from .. import paths
    from ..bench import embed_paths, service

    db = args.real_db or paths.default_db_path()
    if not db.exists():
        print(f"error: no library at {db}: build one (amicus-desktop build-db) or give --real-db", file=sys.stderr)
        return 1
    levels = service.parse_levels(args.clients or embed_paths.DEFAULT_CLIENTS)
    report = embed_paths.run(db, list(embed_paths.DEFAULT_PATHS), levels,
                             args.service_seconds or service.DEFAULT_SECONDS)
    print(json.dumps(report, indent=1) if args.json else service.service_table(report))
    return 0

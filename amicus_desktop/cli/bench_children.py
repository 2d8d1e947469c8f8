"""The command lines of the benchmark's child processes (``python -m amicus_desktop.bench.proxy``, ``.worker``,
``.service``, ``.embed_paths``, ``.notes``, ``.verses``): each reads its flags here, where every command line of the
package is read, and runs its module's functions (:mod:`amicus_desktop.bench`). The modules' ``__main__`` blocks
call these."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from ..bench import embed_paths, notes, proxy, questions, service, synth, verses, worker
from ..store.pg import is_postgres_url


def proxy_main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m amicus_desktop.bench.proxy")
    p.add_argument("--dims", type=int, required=True)
    p.add_argument("--model", help="model id to report (default: the synthetic DB's for --dims)")
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--seed", type=int, default=0, help="seed of the synthetic database (its clusters)")
    args = p.parse_args(argv)
    asyncio.run(proxy.serve(args.dims, args.model or synth.model_id(args.dims), args.port, args.seed))
    return 0


def worker_main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m amicus_desktop.bench.worker")
    p.add_argument("action", choices=("build", "measure", "measure-real", "bandwidth", "kernels"))
    p.add_argument("--path", type=Path)
    p.add_argument("--n", type=int)
    p.add_argument("--dims", type=int)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--queries", type=int, default=40)
    p.add_argument("--real-proxy", action="store_true")
    p.add_argument("--mib", type=int, default=512)
    args = p.parse_args(argv)
    if args.action == "bandwidth":
        result = worker.do_bandwidth(args.mib)
    elif args.action == "build":
        result = worker.do_build(args.path, args.n, args.dims, args.seed)
    elif args.action == "kernels":
        result = worker.do_kernels(args.path, args.n, args.dims, args.seed, args.queries)
    elif args.action == "measure-real":
        result = worker.do_measure_real(args.path, args.queries)
    else:
        result = worker.do_measure(args.path, args.n, args.dims, args.seed, args.queries, args.real_proxy)
    result["blas_threads_env"] = os.environ.get("OPENBLAS_NUM_THREADS")
    with contextlib.suppress(BrokenPipeError):
        print(json.dumps(result), flush=True)
    return 0


def service_main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m amicus_desktop.bench.service")
    p.add_argument("--db", required=True, help="a scripture.db, or a library on PostgreSQL (postgresql://…)")
    p.add_argument("--proxy", metavar="URL", help="an embed proxy already running (default: start the benchmark's "
                                                  "synthetic one)")
    p.add_argument("--real-proxy", action="store_true", help="start the project's proxy and local model instead")
    p.add_argument("--clients", default=",".join(map(str, service.DEFAULT_CLIENTS)))
    p.add_argument("--seconds", type=float, default=service.DEFAULT_SECONDS, help="measured per run")
    p.add_argument("--warmup", type=float, default=service.WARMUP_SECONDS, help="seconds of load before measuring")
    p.add_argument("--lanes", type=int, help="the service's --lanes (default: its own default)")
    p.add_argument("--replicas", type=int, default=1,
                   help="services on the same library, the clients dealt out among them (default 1)")
    args = p.parse_args(argv)
    levels = service.parse_levels(args.clients)
    db: Path | str = args.db if is_postgres_url(args.db) else Path(args.db)
    result = service.measure(db, args.proxy, levels, args.seconds, args.lanes, real_proxy=args.real_proxy,
                     warmup=args.warmup, replicas=args.replicas)
    with contextlib.suppress(BrokenPipeError):
        print(json.dumps(result), flush=True)
    return 0


def embed_paths_main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m amicus_desktop.bench.embed_paths")
    p.add_argument("--db", type=Path, required=True, help="a library built with the local model")
    p.add_argument("--paths", default=",".join(embed_paths.DEFAULT_PATHS),
                   help=f"comma-separated, in order, from {', '.join(embed_paths.PATHS)} (default: all three)")
    p.add_argument("--clients", default=embed_paths.DEFAULT_CLIENTS, help="N or N@T per run, comma-separated")
    p.add_argument("--seconds", type=float, default=service.DEFAULT_SECONDS, help="measured per run")
    p.add_argument("--warmup", type=float, default=service.WARMUP_SECONDS, help="seconds of load before measuring")
    args = p.parse_args(argv)
    paths = [x.strip() for x in args.paths.split(",") if x.strip()]
    unknown = [x for x in paths if x not in embed_paths.PATHS]
    if unknown or not paths:
        p.error(f"--paths: choose from {', '.join(embed_paths.PATHS)}")
    report = embed_paths.run(args.db, paths, service.parse_levels(args.clients), args.seconds, args.warmup)
    with contextlib.suppress(BrokenPipeError):
        print(service.service_table(report))
        print(json.dumps(report), flush=True)
    return 0


def notes_main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m amicus_desktop.bench.notes")
    p.add_argument("--db", type=Path, required=True)
    p.add_argument("--notes", type=int, required=True)
    p.add_argument("--out-dir", type=Path, required=True)
    p.add_argument("--queries", type=int, default=len(questions.QUESTIONS))
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    key = hashlib.sha256(f"{args.db.resolve()}|{args.db.stat().st_size}|{args.notes}|{args.seed}|1".encode())
    path = args.out_dir / f"notes-{args.notes}-{key.hexdigest()[:12]}" / "notes.sqlite"
    build = {"cached": path.exists()}
    if not path.exists():
        print(f"building a notes store of {args.notes:,} notes …", file=sys.stderr, flush=True)
        build.update(notes.build_store(path, args.db, args.notes, args.seed))
    with tempfile.TemporaryDirectory(dir=args.out_dir) as scratch:  # measuring adds notes: not to the cached store
        working = Path(scratch) / "notes.sqlite"
        shutil.copyfile(path, working)
        report = asyncio.run(notes.measure(args.db, working, args.seed, args.queries))
    report.update({"notes": args.notes, "build": build, "budget_added_p95_ms": notes.ADDED_P95_BUDGET})
    print(json.dumps(report))
    return 0


def verses_main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m amicus_desktop.bench.verses")
    p.add_argument("--path", type=Path, required=True)
    p.add_argument("--queries", type=int, default=40)
    p.add_argument("--table", action="store_true", help="print the table instead of JSON")
    p.add_argument("--build-full-scale", action="store_true",
                   help="first build PATH: the whole Bible's text, notes and tags with random vectors (timing only)")
    args = p.parse_args(argv)
    if args.build_full_scale and not args.path.exists():
        from ..embedding import get_backend

        print(json.dumps(verses.build_full_scale(args.path, get_backend("local").model_id)), file=sys.stderr)
    report = verses.measure(args.path, args.queries)
    with contextlib.suppress(BrokenPipeError):
        print(verses.table(report) if args.table else json.dumps(report), flush=True)
    return 0



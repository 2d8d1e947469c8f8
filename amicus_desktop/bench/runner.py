"""The benchmark driver: build or reuse each synthetic database, measure it in a child process.

Per ``N × D`` it runs two children (see :mod:`amicus_desktop.bench.worker`): ``build`` when no
matching database is cached in the output directory, then ``measure``. One ``bandwidth`` child at
the start measures the machine's single-thread sequential read bandwidth for the floor column.
Every child gets ``OPENBLAS_NUM_THREADS=1`` (and the OMP/MKL equivalents) before numpy loads:
on the 2-core machines this project is measured on, 2 BLAS threads made numpy several times slower.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..store import codes
from ..store.scripture import ScriptureStore
from ..store.sqlite import apsw_version, sqlite_version, vec_version
from . import synth
from .report import BUDGETS, total_verdict, verdict
from .tables import fmt_ms, human_n

DEFAULT_SIZES = (10_000, 50_000, 200_000)
DEFAULT_DIMS = (384, 1536)
DEFAULT_QUERIES = 40


class BenchError(RuntimeError):
    """A child process failed; the message says which and how."""


@dataclass
class BenchConfig:
    sizes: Sequence[int] = DEFAULT_SIZES
    dims: Sequence[int] = DEFAULT_DIMS
    queries: int = DEFAULT_QUERIES
    out_dir: Path | None = None
    keep: bool = False
    seed: int = 0
    real_proxy: bool = False
    #: A real scripture.db (local model) to measure beside the synthetic ones, with real questions.
    real_db: Path | None = None
    #: Also load ``amicus-desktop serve`` with N concurrent clients per library (:mod:`.service`).
    service: bool = False
    #: ``N`` or ``N@T`` per run (empty: :mod:`.service`'s default), seconds measured per run (``None``: its default)
    service_clients: Sequence[str] = ()
    service_seconds: float | None = None
    #: services on the same library for the service rows (docs/DEPLOY.md's replicas, on this machine)
    service_replicas: int = 1
    #: with ``real_db`` and ``service``: the service rows again over that library exported into this PostgreSQL
    postgres: str | None = None
    log: Callable[[str], None] = field(default=lambda msg: print(msg, file=sys.stderr, flush=True))


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    for var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = "1"  # OPENBLAS_CORETYPE, when the machine sets it, is left alone
    # Children must import this same package even when it is not installed (a source checkout).
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return env


def run_worker(args: Sequence[str], env: dict[str, str], module: str = "worker") -> dict[str, Any]:
    cmd = [sys.executable, "-m", f"amicus_desktop.bench.{module}", *args]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=None, env=env, text=True, check=False)
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    if proc.returncode != 0 or not lines:
        raise BenchError(f"benchmark step {' '.join(args[:1])} failed (exit {proc.returncode}): "
                         + (proc.stdout[-2000:] or "no output"))
    report = json.loads(lines[-1])
    if not isinstance(report, dict):
        raise BenchError(f"benchmark step {' '.join(args[:1])} printed {type(report).__name__}, not a JSON object")
    return report


def machine_info() -> dict[str, Any]:
    import numpy as np

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    ram_gib = None
    try:
        ram_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    except (ValueError, OSError, AttributeError):
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "ram_gib": round(ram_gib, 1) if ram_gib else None,
        "os": platform.platform(),
        "python": platform.python_version(),
        "sqlite": sqlite_version(),
        "apsw": apsw_version(),
        "sqlite_vec": vec_version(),
        "numpy": np.__version__,
        "openblas_coretype": os.environ.get("OPENBLAS_CORETYPE"),
    }


def _cached_build(path: Path, n: int, dims: int, seed: int) -> dict[str, Any] | None:
    """The recorded build of a reusable database at ``path``, or ``None`` to build it anew."""
    side = synth.sidecar(path)
    if not path.exists() or not side.exists():
        return None
    try:
        with ScriptureStore(path) as store:
            meta = store.info.meta
            ok = (
                meta.get("bench_format") == synth.FORMAT_VERSION
                and meta.get("bench_seed") == str(seed)
                and meta.get("bench_rows") == str(n)
                and store.info.dims == dims
                and store.info.model_id == synth.model_id(dims)
                and store.info.chunk_count == n
                and dict(codes.CodesFile.open(codes.path_for(path)).db) == codes.db_fingerprint(meta)
            )
        return {**json.loads(side.read_text()), "cached": True} if ok else None
    except Exception:  # anything wrong with a cache file means: rebuild it
        return None


def _loadavg() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (OSError, AttributeError):
        return None


def _finish(m: dict[str, Any], label: str, build: dict[str, Any], path: Path, gbps: float) -> dict[str, Any]:
    """Add the derived figures (floor, ratios, budget verdicts) to one measurement."""
    m["label"] = label
    m["build"] = build
    m["db_bytes"] = path.stat().st_size
    m["floor_ms"] = m["matrix_bytes"] / (gbps * 1e9) * 1000
    m["ratio_p50"] = m["knn"]["p50"] / m["numpy"]["p50"]
    m["ratio_p95"] = m["knn"]["p95"] / m["numpy"]["p95"]
    e2e = m["e2e"].get("exact", {})
    m["verdicts"] = {
        "search": verdict(m["search"]["p50"], m["search"]["p95"], BUDGETS["search"]),
        "rerank": verdict(m["rerank"]["p50"], m["rerank"]["p95"], BUDGETS["rerank"]),
        "total": total_verdict(e2e["total"]["p50"], e2e["total"]["p95"]) if e2e else "–",
    }
    return m


def _summary(m: dict[str, Any]) -> str:
    line = f"{m['label']}: KNN p50 {fmt_ms(m['knn']['p50'])} ms, numpy {fmt_ms(m['numpy']['p50'])} ms"
    ts = m.get("two_stage")
    if ts:
        line += f", two-stage {fmt_ms(ts['knn']['p50'])} ms at recall@{m['k']} {ts['recall']:.4f}"
    return line


def _real_copy(src: Path, out_dir: Path, log: Callable[[str], None]) -> tuple[Path, dict[str, Any]]:
    """A copy of the real database in ``out_dir`` with its two-stage file (both reused when current).

    The copy keeps the file away from ``src``'s folder, where it would change how every other
    user of that database searches.
    """
    from ..store.writer import add_two_stage

    copy = out_dir / f"real-{src.name}"
    st = src.stat()
    if not copy.exists() or (copy.stat().st_size, copy.stat().st_mtime_ns) != (st.st_size, st.st_mtime_ns):
        log(f"{src.name}: copying to {copy}")
        shutil.copy2(src, copy)
        codes.path_for(copy).unlink(missing_ok=True)
    with ScriptureStore(copy) as store:
        fingerprint = codes.db_fingerprint(store.info.meta)
    try:
        if dict(codes.CodesFile.open(codes.path_for(copy)).db) == fingerprint:
            log(f"{copy.name}: reusing its two-stage file")
            return copy, {"build_s": None, "cached": True, "codes_s": None}
    except (OSError, ValueError):
        pass
    log(f"{copy.name}: writing its two-stage file (vectors read back out of vec0)")
    return copy, {"build_s": None, "cached": False, "codes_s": add_two_stage(copy)}


def _measure_service(cfg: BenchConfig, path: Path | str, env: dict[str, str], label: str, *,
                     real: bool) -> dict[str, Any]:
    """The service rows of one library: ``serve`` under 1, 8, 32… clients, beside the engine in-process."""
    from . import service  # not at import time: ``python -m amicus_desktop.bench.service`` runs it

    levels = ",".join(cfg.service_clients or service.DEFAULT_CLIENTS)
    cfg.log(f"{label}: the service under {levels} concurrent clients")
    args = ["--db", str(path), "--clients", levels,
            "--seconds", str(cfg.service_seconds or service.DEFAULT_SECONDS), "--replicas", str(cfg.service_replicas)]
    return run_worker([*args, "--real-proxy"] if real else args, env, module="service")


def _measure_real(cfg: BenchConfig, out_dir: Path, env: dict[str, str], gbps: float,
                  built: list[Path]) -> dict[str, Any]:
    assert cfg.real_db is not None
    path, build = _real_copy(Path(cfg.real_db), out_dir, cfg.log)
    built.append(path)
    cfg.log(f"{path.name}: measuring with real questions")
    m = run_worker(["measure-real", "--path", str(path), "--queries", str(cfg.queries)], env)
    from . import verses  # here: ``python -m amicus_desktop.bench.verses`` must not find it imported

    if verses.has_verse_vectors(path):
        cfg.log(f"{path.name}: verse search beside chunk search")
        m["verses"] = verses.run_child(path, cfg.queries, env)
    m = _finish(m, f"{human_n(m['n'])} × {m['dims']} real", build, path, gbps)
    cfg.log(_summary(m))
    if cfg.service:
        m["service"] = _measure_service(cfg, path, env, m["label"], real=True)
        if cfg.postgres:
            from ..store.pg.export import export_library

            cfg.log(f"{Path(cfg.real_db).name}: exported into PostgreSQL (export-db; nothing written when it is there)")
            export_library(Path(cfg.real_db), cfg.postgres)
            m["service_pg"] = _measure_service(cfg, cfg.postgres, env, m["label"] + " on PostgreSQL", real=True)
    return m


def run_benchmark(cfg: BenchConfig) -> dict[str, Any]:
    """Run every ``size × dims`` configuration and return the report (see :func:`.report.format_report`)."""
    t_start = time.perf_counter()
    log = cfg.log
    env = child_env()
    load_start = _loadavg()
    made_dir = cfg.out_dir is None
    out_dir = Path(tempfile.mkdtemp(prefix="amicus-bench-")) if cfg.out_dir is None else Path(cfg.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    built: list[Path] = []
    results: list[dict[str, Any]] = []
    try:
        log("amicus-desktop bench: measuring sequential read bandwidth")
        bw = run_worker(["bandwidth"], env)
        gbps = float(bw["bandwidth_gbps"])
        for n in cfg.sizes:
            for dims in cfg.dims:
                label = f"{human_n(n)} × {dims}"
                path = out_dir / synth.db_name(n, dims, cfg.seed)
                build = _cached_build(path, n, dims, cfg.seed)
                if build is None:
                    log(f"{label}: building {path}")
                    build = {**run_worker(
                        ["build", "--path", str(path), "--n", str(n), "--dims", str(dims),
                         "--seed", str(cfg.seed)], env), "cached": False}
                    built.append(path)
                else:
                    log(f"{label}: reusing {path}")
                log(f"{label}: measuring ({cfg.queries} queries per stage)")
                args = ["measure", "--path", str(path), "--n", str(n), "--dims", str(dims),
                        "--seed", str(cfg.seed), "--queries", str(cfg.queries)]
                if cfg.real_proxy:
                    args.append("--real-proxy")
                m = run_worker(args, env)
                results.append(_finish(m, label, build, path, gbps))
                log(_summary(m))
                if cfg.service:
                    m["service"] = _measure_service(cfg, path, env, label, real=False)
        if cfg.real_db is not None:
            results.append(_measure_real(cfg, out_dir, env, gbps, built))
    finally:
        if not cfg.keep:
            for path in built:
                for f in (path, synth.sidecar(path), codes.path_for(path)):
                    f.unlink(missing_ok=True)
            if made_dir:
                shutil.rmtree(out_dir, ignore_errors=True)
    return {
        "machine": machine_info(),
        "config": {
            "sizes": list(cfg.sizes), "dims": list(cfg.dims), "queries": cfg.queries,
            "warmup": results[0]["warmup"] if results else None, "k": results[0]["k"] if results else None,
            "seed": cfg.seed, "out_dir": str(out_dir), "kept": cfg.keep,
            "real_db": str(cfg.real_db) if cfg.real_db else None,
            "service_clients": list(cfg.service_clients) if cfg.service else None,
            "blas_threads": env["OPENBLAS_NUM_THREADS"],
        },
        "budgets_ms": BUDGETS,
        "bandwidth": bw,
        "results": results,
        "loadavg": {"start": load_start, "end": _loadavg()},
        "runtime_s": time.perf_counter() - t_start,
    }

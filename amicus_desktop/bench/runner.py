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
from .tables import fmt_ms, human_n
from .tables import markdown_table as _table

#: The seed's budgets (milliseconds).
BUDGETS = {"search": 50.0, "rerank": 10.0, "total_p50": 250.0, "total_p95": 500.0}
#: The curator workbench's what-if re-rank of 40 kept candidates, per change (one frame at 60 Hz).
WHATIF_BUDGET = 16.0

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


def verdict(p50: float, p95: float, budget: float) -> str:
    """✓ when p50 and p95 are both under ``budget``; ✗ otherwise, saying which missed."""
    if p95 < budget:
        return "✓"
    return "✗ p95" if p50 < budget else "✗"


def total_verdict(p50: float, p95: float) -> str:
    ok50, ok95 = p50 < BUDGETS["total_p50"], p95 < BUDGETS["total_p95"]
    if ok50 and ok95:
        return "✓"
    return "✗ p95" if ok50 else ("✗ p50" if ok95 else "✗")


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


def _measure_service(cfg: BenchConfig, path: Path, env: dict[str, str], label: str, *, real: bool) -> dict[str, Any]:
    """The service rows of one library: ``serve`` under 1, 8, 32… clients, beside the engine in-process."""
    from . import service  # not at import time: ``python -m amicus_desktop.bench.service`` runs it

    levels = ",".join(cfg.service_clients or service.DEFAULT_CLIENTS)
    cfg.log(f"{label}: the service under {levels} concurrent clients")
    args = ["--db", str(path), "--clients", levels,
            "--seconds", str(cfg.service_seconds or service.DEFAULT_SECONDS)]
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
    return m


def run_benchmark(cfg: BenchConfig) -> dict[str, Any]:
    """Run every ``size × dims`` configuration and return the report (see :func:`format_report`)."""
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


# -- formatting -------------------------------------------------------------------------------
def _verse_lines(report: dict[str, Any]) -> list[str]:
    """The verse-search table of a real database that has one (bench/verses.py)."""
    from . import verses

    return [line for r in report["results"] if "verses" in r for line in (
        "Verse search beside chunk search on the real database (p50 / p95, ms)", verses.table(r["verses"]), "")]


def _pp(s: dict[str, float]) -> str:
    return f"{fmt_ms(s['p50'])} / {fmt_ms(s['p95'])}"


def _build_cell(b: dict[str, Any]) -> str:
    if b.get("build_s") is None:
        return "–" if b.get("cached") else f"({b['codes_s']:.1f} to add codes)"
    return f"{b['build_s']:.1f}" + (" (cached)" if b.get("cached") else "")


def knn_table(report: dict[str, Any]) -> str:
    header = ["N × D", "DB MB", "build s", "sqlite-vec KNN p50 / p95", "numpy p50 / p95",
              "ratio p50", "bandwidth floor", "KNN ÷ floor", "one-book KNN p50 / p95 (rows)",
              "top-40 = numpy", "CPU share"]
    rows = []
    for m in report["results"]:
        ob = m["knn_one_book"]
        rows.append([
            m["label"], f"{m['db_bytes'] / 2**20:.0f}", _build_cell(m["build"]), _pp(m["knn"]), _pp(m["numpy"]),
            f"{m['ratio_p50']:.1f}×", fmt_ms(m["floor_ms"]), f"{m['knn']['p50'] / m['floor_ms']:.1f}×",
            f"{_pp(ob)} ({ob['rows_in_book']:,})", f"{m['recall_vs_numpy'] * 100:.0f} %",
            f"{m['cpu_share']:.2f}",
        ])
    return _table(header, rows)


def pipeline_table(report: dict[str, Any]) -> str:
    b = report["budgets_ms"]
    has_real = any("exact" in m.get("e2e_real", {}) for m in report["results"])
    header = ["N × D", "fetch p50", f"search p50 / p95 (<{b['search']:.0f})", "budget",
              f"re-rank p50 / p95 (<{b['rerank']:.0f})", "budget",
              "embed p50", f"total p50 / p95 (<{b['total_p50']:.0f} / <{b['total_p95']:.0f})", "budget"]
    if has_real:
        header.append("real model: embed p50, total p50 / p95")
    header.append(f"what-if re-rank of {report['config'].get('k') or 40} p50 / p95 (<{WHATIF_BUDGET:.0f})")
    header.append("peak RSS MB (sqlite / +numpy)")
    rows = []
    for m in report["results"]:
        e = m["e2e"].get("exact")
        v = m["verdicts"]
        row = [m["label"], fmt_ms(m["fetch"]["p50"]), _pp(m["search"]), v["search"], _pp(m["rerank"]),
               v["rerank"], fmt_ms(e["embed"]["p50"]) if e else "–", _pp(e["total"]) if e else "–", v["total"]]
        if has_real:
            real = m.get("e2e_real", {}).get("exact")
            row.append(f"{fmt_ms(real['embed']['p50'])}, {_pp(real['total'])}" if real else "–")
        whatif = e.get("whatif") if e else None
        row.append(f"{_pp(whatif)} {verdict(whatif['p50'], whatif['p95'], WHATIF_BUDGET)}" if whatif else "–")
        row.append(f"{m['rss_after_e2e_mb']:.0f} / {m['peak_rss_mb']:.0f}")
        rows.append(row)
    return _table(header, rows)


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.1f}×" if b > 0 else "–"


def two_stage_table(report: dict[str, Any]) -> str:
    """The two-stage search beside the exact paths: speed, recall, filters, end to end."""
    header = ["N × D", "exact KNN p50 / p95", "two-stage p50 / p95", "faster p50 / p95", "numpy p50",
              "floor", "recall@40 mean (min)", "max |Δ distance|", "one-book exact → two-stage p50 / p95 (recall)",
              "total exact p50 / p95", "total two-stage p50 / p95", "CPU share"]
    rows = []
    for m in report["results"]:
        ts = m.get("two_stage")
        if not ts:
            continue
        ob, tob = m["knn_one_book"], ts["one_book"]
        e = m["e2e"]
        total_exact = _pp(e["exact"]["total"]) if "exact" in e else "–"
        total_ts = _pp(e["two_stage"]["total"]) if "two_stage" in e else "–"
        rows.append([
            m["label"], _pp(m["knn"]), _pp(ts["knn"]),
            f"{_ratio(m['knn']['p50'], ts['knn']['p50'])} / {_ratio(m['knn']['p95'], ts['knn']['p95'])}",
            fmt_ms(m["numpy"]["p50"]), fmt_ms(m["floor_ms"]),
            f"{ts['recall']:.4f} ({ts['recall_min']:.3f})", f"{ts['max_distance_diff']:.1e}",
            f"{_pp(ob)} → {_pp(tob)} ({tob['recall']:.4f})", total_exact, total_ts, f"{m['cpu_share']:.2f}",
        ])
    return _table(header, rows)


def _cold_cell(cold: dict[str, Any] | None) -> str:
    if not cold:
        return "–"
    return f"{fmt_ms(cold['knn']['p50'])} / {fmt_ms(cold['knn']['p95'])} ({fmt_ms(cold['exact']['p50'])})"


def two_stage_cost_table(report: dict[str, Any]) -> str:
    """What the two-stage path costs: its file, build time, open, RAM, and where its time goes."""
    header = ["N × D", "file MB (codes / floats)", "vec0 vectors MB", "codes s (build)", "open ms",
              "RSS after open MB", "coarse / refine / exact p50 (rows)",
              "exact distances of R rows: file vs vec0 look-ups p50",
              "cold file: two-stage p50 / p95 (exact stage p50)", "peak RSS MB before numpy"]
    rows = []
    for m in report["results"]:
        ts = m.get("two_stage")
        if not ts:
            continue
        sz = m.get("sizes", {})
        st = ts["stages"]
        stage_cell = " / ".join(fmt_ms(st[s]["p50"]) if s in st else "–" for s in ("coarse", "refine", "exact"))
        f = ts["fetch"]
        b = m["build"]
        rows.append([
            m["label"],
            f"{sz.get('file', 0) / 2**20:.0f} ({sz.get('codes', 0) / 2**20:.1f} / {sz.get('floats', 0) / 2**20:.0f})",
            f"{sz.get('vec0', 0) / 2**20:.0f}", f"{b['codes_s']:.1f}" if b.get("codes_s") is not None else "–",
            f"{m['two_stage_open_ms']:.0f}", f"{m['rss_after_open_mb']:.0f}",
            f"{stage_cell} ({ts['coarse']:,} → {ts['refined']:,})",
            f"R = {f['rows']}: {fmt_ms(f['file']['p50'])} vs {fmt_ms(f['vec0']['p50'])}",
            _cold_cell(ts.get("cold")),
            f"{m['rss_after_e2e_mb']:.0f}",
        ])
    return _table(header, rows)


def format_report(report: dict[str, Any]) -> str:
    mc = report["machine"]
    cfg = report["config"]
    bw = report["bandwidth"]
    service_lines: list[str] = []
    if any(m.get("service") for m in report["results"]):
        from .service import service_table

        service_lines = [
            "",
            "The service under load: N clients, each asking again as soon as it has its answer (no think time), "
            "over loopback HTTP/1.1 keep-alive, every question distinct (k = 5); HTTP = amicus-desktop serve, "
            "in-process = the same questions through one Retriever with N concurrent tasks",
            service_table(report),
        ]
    lines = [
        f"Machine: {mc['cpu']}, {mc['cores']} cores, {mc['ram_gib']} GiB RAM, {mc['os']}",
        f"Python {mc['python']}, SQLite {mc['sqlite']} (apsw {mc['apsw']}), sqlite-vec {mc['sqlite_vec']}, "
        f"numpy {mc['numpy']} (BLAS threads {cfg['blas_threads']})",
        f"Sequential read bandwidth (1 thread): {bw['bandwidth_gbps']:.1f} GB/s; "
        f"k = {cfg['k']}, {cfg['queries']} distinct queries per stage after {cfg['warmup']} warm-up; times in ms",
        "",
        "KNN (k = 40, warm), sqlite-vec vs numpy brute force over the same vectors",
        knn_table(report),
        "",
        "Pipeline vs the seed's budgets (search = KNN + fetch of the 40 rows; total = "
        "Retriever.retrieve through a loopback HTTP proxy, a distinct query each time)",
        pipeline_table(report),
        "",
        ("Two-stage search (codes → short list → exact cosine) beside the exact paths; recall against "
         "sqlite-vec's exact top 40; total = end to end, the two ways alternating"),
        two_stage_table(report),
        "",
        "What the two-stage path costs",
        two_stage_cost_table(report),
        *service_lines,
        "",
        *_verse_lines(report),
        "✓ = p50 and p95 under budget; ✗ p95 = only p50 under. CPU share = CPU time ÷ wall time "
        "of the KNN loop (1.00 = a core to itself). Load average start/end: "
        f"{report['loadavg']['start']} / {report['loadavg']['end']}. Runtime {report['runtime_s']:.0f} s.",
    ]
    return "\n".join(lines)

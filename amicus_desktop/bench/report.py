"""The benchmark's report: the seed's budgets, whether a measurement met them, and the tables
``amicus-desktop bench`` prints and ``docs/PERFORMANCE.md`` records (no Qt).
"""

from __future__ import annotations

from typing import Any

from .kernels import kernels_table
from .tables import fmt_ms
from .tables import markdown_table as _table

#: The seed's budgets (milliseconds).
BUDGETS = {"search": 50.0, "rerank": 10.0, "total_p50": 250.0, "total_p95": 500.0}
#: The curator workbench's what-if re-rank of 40 kept candidates, per change (one frame at 60 Hz).
WHATIF_BUDGET = 16.0


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


def coarse_pass_table(report: dict[str, Any]) -> str:
    """The two-stage search with the coarse pass's pre-filter and without it (every whole code), as ratios of
    numpy's brute force in the same run (store/hamming.py)."""
    header = ["N × D", "numpy p50 / p95", "pre-filter: two-stage p50 / p95", "÷ numpy p50 / p95", "coarse p50",
              "recall@40 mean (min)", "whole code: two-stage p50 / p95", "÷ numpy p50 / p95", "coarse p50",
              "recall@40 mean (min)"]
    rows = []
    for m in report["results"]:
        ts = m.get("two_stage")
        if not ts or "whole_code" not in ts:
            continue
        np_ = m["numpy"]
        cells = [m["label"], _pp(np_)]
        for run, recall, recall_min, coarse in (
                (ts["knn"], ts["recall"], ts["recall_min"], ts["stages"].get("coarse")),
                (ts["whole_code"]["knn"], ts["whole_code"]["recall"], ts["whole_code"]["recall_min"],
                 ts["whole_code"]["coarse"])):
            share = f"{run['p50'] / np_['p50']:.3f}× / {run['p95'] / np_['p95']:.3f}×" if np_["p50"] > 0 else "–"
            cells += [_pp(run), share, fmt_ms(coarse["p50"]) if coarse else "–", f"{recall:.4f} ({recall_min:.3f})"]
        rows.append(cells)
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
        "",
        ("The coarse pass: the two-stage search pre-filtering on the codes' first 512 bits beside the same "
         "search over every whole code (the earlier path), interleaved, as shares of numpy's brute force"),
        coarse_pass_table(report),
        "",
        ("The coarse pass's kernels and the short lists, each way interleaved question by question with numpy's "
         "brute force (recall against numpy's exact top k; coarse: the share of it inside the 2,000 kept)"),
        kernels_table(report["results"]),
        *service_lines,
        "",
        *_verse_lines(report),
        "✓ = p50 and p95 under budget; ✗ p95 = only p50 under. CPU share = CPU time ÷ wall time "
        "of the KNN loop (1.00 = a core to itself). Load average start/end: "
        f"{report['loadavg']['start']} / {report['loadavg']['end']}. Runtime {report['runtime_s']:.0f} s.",
    ]
    return "\n".join(lines)

"""``amicus-desktop bench`` runs end to end on a tiny configuration (no timing assertions)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from amicus_desktop.bench import synth

ROOT = Path(__file__).resolve().parents[2]


def _bench(*args: str, out_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "amicus_desktop", "bench", "--sizes", "300,500", "--dims", "16",
         "--queries", "5", "--out-dir", str(out_dir), *args],
        capture_output=True, text=True, timeout=240, cwd=ROOT, check=False,
    )


def test_bench_smoke(tmp_path: Path) -> None:
    dbs = tmp_path / "dbs"
    proc = _bench("--json", "--keep", out_dir=dbs)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout)
    assert report["budgets_ms"] == {"search": 50.0, "rerank": 10.0, "total_p50": 250.0, "total_p95": 500.0}
    assert report["bandwidth"]["bandwidth_gbps"] > 0
    assert report["config"]["blas_threads"] == "1"
    assert [(m["n"], m["dims"]) for m in report["results"]] == [(300, 16), (500, 16)]
    for m in report["results"]:
        for stage in ("knn", "fetch", "search", "rerank", "numpy", "knn_one_book"):
            assert m[stage]["n"] == 5, stage
            assert 0 < m[stage]["p50"] <= m[stage]["p95"], stage
        e2e = m["e2e"]
        for way in ("exact", "two_stage"):  # alternating, each way 5 measured after its warm-up
            assert e2e[way]["total"]["n"] == 5 and e2e[way]["total"]["p50"] > 0 and e2e[way]["embed"]["p50"] > 0
            # the workbench's what-if: a re-rank of the kept candidates after each retrieval
            assert e2e[way]["whatif"]["n"] == 5 and 0 < e2e[way]["whatif"]["p50"] <= e2e[way]["whatif"]["p95"]
        # Every retrieval (warm-up included) embedded over HTTP: no vector-cache hits.
        assert e2e["http_embed_calls"] == e2e["retrievals"] == 2 * (5 + m["warmup"])
        ts = m["two_stage"]
        assert ts["knn"]["n"] == ts["one_book"]["n"] == 5 and ts["knn"]["p50"] > 0
        assert 0 <= ts["recall_min"] <= ts["recall"] <= 1 and ts["max_distance_diff"] < 1e-5
        # 300 rows fit the refine list (scored exactly: recall 1); 500 go through every stage.
        assert (ts["coarse"], ts["refined"]) == ((0, 300) if m["n"] == 300 else (500, 400))
        assert ts["recall"] == 1.0 if m["n"] == 300 else ts["recall"] > 0.5
        assert ts["fetch"]["file"]["n"] == ts["fetch"]["vec0"]["n"] == 10
        # the same questions with the file dropped from the page cache before each
        assert ts["cold"]["knn"]["n"] == 5 and 0 < ts["cold"]["exact"]["p50"] <= ts["cold"]["knn"]["p50"]
        sizes = m["sizes"]
        assert sizes["floats"] == m["n"] * 16 * 4 and sizes["codes"] == m["n"] * 1536 // 8
        assert sizes["file"] > sizes["floats"] + sizes["codes"] and sizes["vec0"] >= sizes["floats"]
        assert m["build"]["codes_s"] > 0
        assert m["same_vectors"] is True
        assert m["recall_vs_numpy"] == 1.0  # exact KNN: the same 40 rows as numpy
        assert m["knn_one_book"]["min_returned"] == min(40, m["knn_one_book"]["rows_in_book"])
        assert m["floor_ms"] > 0 and m["ratio_p50"] > 0 and m["db_bytes"] > 0
        assert m["peak_rss_mb"] > 0 and m["build"]["build_s"] > 0 and not m["build"]["cached"]
        assert set(m["verdicts"]) == {"search", "rerank", "total"}
    kept = sorted(p.name for p in dbs.glob("*.db"))
    assert sorted(p.name for p in dbs.glob("*.two-stage")) == [f"{name}.two-stage" for name in kept]
    assert kept == [f"bench-{n}x16-seed0-v{synth.FORMAT_VERSION}.db" for n in (300, 500)]

    # Second run, table output: reuses the kept databases (and, not having built them, keeps them).
    proc = _bench(out_dir=dbs)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    for heading in ("sqlite-vec KNN p50 / p95", "numpy p50 / p95", "ratio p50", "bandwidth floor",
                    "one-book KNN", "search p50 / p95 (<50)", "re-rank p50 / p95 (<10)",
                    "total p50 / p95 (<250 / <500)", "what-if re-rank of 40 p50 / p95 (<16)", "peak RSS MB",
                    "two-stage p50 / p95", "recall@40 mean (min)",
                    "file MB (codes / floats)", "vec0 vectors MB", "pre-filter: two-stage p50 / p95",
                    "whole code: two-stage p50 / p95"):
        assert heading in out, heading
    rows = [ln for ln in out.splitlines() if ln.startswith(("| 300 × 16", "| 500 × 16"))]
    assert len(rows) == 10  # one row per configuration in each of the five tables
    assert sum("(cached)" in r for r in rows) == 2
    assert sorted(p.name for p in dbs.glob("*.db")) == kept

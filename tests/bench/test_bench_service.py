"""The service row of ``amicus-desktop bench`` runs end to end on a tiny library (no timing assertions)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from amicus_desktop.bench import synth
from amicus_desktop.bench.service import service_table
from tests.serve.conftest import sha256

ROOT = Path(__file__).resolve().parents[2]


def test_service_rows_beside_in_process(tmp_path: Path) -> None:
    db = tmp_path / synth.db_name(400, 16, 0)
    synth.build(db, 400, 16, 0)
    before = sha256(db)
    proc = subprocess.run(
        [sys.executable, "-m", "amicus_desktop.bench.service", "--db", str(db), "--clients", "1,3@0.1",
         "--seconds", "0.6", "--warmup", "0.3"],
        capture_output=True, text=True, timeout=240, cwd=ROOT, check=False,
        env={**os.environ, "AMICUS_HOME": str(tmp_path / "home")},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.splitlines()[-1])
    assert out["n"] == 400 and out["dims"] == 16 and out["proxy"].startswith("bench")
    for kind in ("service", "in_process"):
        assert [(row["clients"], row["think_s"]) for row in out[kind]] == [(1, 0.0), (3, 0.1)]
        for row in out[kind]:
            assert row["requests"] > 0 and row["errors"] == {} and row["throughput"] > 0
            lat = row["latency_ms"]
            assert 0 < lat["p50"] <= lat["p95"] <= lat["p99"]
            assert row["stages_ms"]["total"]["n"] == row["requests"]
    for row in out["service"]:
        assert row["service_peak_rss_mb"] > 0 and row["cpu_ms_per_request"]["service"] > 0
    table = service_table({"results": [{"label": "400 × 16", "service": out}]})
    assert table.count("| 400 × 16") == 4 and "in-process" in table and "3 (think 0.1 s)" in table
    assert sha256(db) == before


def test_replicas_share_the_clients(tmp_path: Path) -> None:
    """``--replicas 2``: two services on one library, the clients dealt out among them, their CPU summed."""
    db = tmp_path / synth.db_name(300, 16, 1)
    synth.build(db, 300, 16, 1)
    proc = subprocess.run(
        [sys.executable, "-m", "amicus_desktop.bench.service", "--db", str(db), "--clients", "2",
         "--seconds", "0.6", "--warmup", "0.3", "--replicas", "2"],
        capture_output=True, text=True, timeout=240, cwd=ROOT, check=False,
        env={**os.environ, "AMICUS_HOME": str(tmp_path / "home")},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.splitlines()[-1])
    (row,) = out["service"]
    assert out["replicas"] == 2 and row["requests"] > 0 and row["errors"] == {}
    assert set(row["cpu_ms_per_request"]) == {"service", "proxy", "load generator"}
    assert "| HTTP, 2 services |" in service_table({"results": [{"label": "300 × 16", "service": out}]})


def test_the_service_rows_over_a_library_in_postgresql(tmp_path: Path) -> None:
    """``--db postgresql://…``: the same rows over the library exported into the suite's PostgreSQL (the table shows
    them as the library's on PostgreSQL)."""
    from tests.postgres_server import exported_library

    db = tmp_path / synth.db_name(300, 16, 2)
    synth.build(db, 300, 16, 2)
    url = exported_library(db)
    proc = subprocess.run(
        [sys.executable, "-m", "amicus_desktop.bench.service", "--db", url, "--clients", "2",
         "--seconds", "2", "--warmup", "1"],
        capture_output=True, text=True, timeout=240, cwd=ROOT, check=False,
        env={**os.environ, "AMICUS_HOME": str(tmp_path / "home")},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.splitlines()[-1])
    assert out["n"] == 300 and out["db"] == url
    for kind in ("service", "in_process"):
        (row,) = out[kind]
        assert row["requests"] > 0 and row["errors"] == {}
    table = service_table({"results": [{"label": "300 × 16", "service": out, "service_pg": out}]})
    rows = [line for line in table.splitlines() if "300 × 16" in line]
    assert len(rows) == 4 and sum("300 × 16 on PostgreSQL" in line for line in rows) == 2


def test_a_window_no_answer_came_back_in_stays_open_until_one_does() -> None:
    """On a machine busy enough that a client's first answer takes longer than the window (the embed-paths bench
    in a loaded full-suite run: 0.8 s, no answer), the row waits for one instead of saying nothing."""
    import asyncio
    import random

    from amicus_desktop.bench.service import _level, _Run

    async def slow_client(run: _Run, stop: asyncio.Event, think: float, rng: random.Random) -> None:
        while not stop.is_set():
            t0 = asyncio.get_running_loop().time()
            await asyncio.sleep(0.5)  # each answer takes five windows
            run.record((asyncio.get_running_loop().time() - t0) * 1000, None, None)

    row = asyncio.run(_level(1, 0.0, 0.1, slow_client, {}, warmup=0.0))
    assert row["requests"] >= 1 and 0.4 < row["seconds"] < 5

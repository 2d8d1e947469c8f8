"""``python -m amicus_desktop.bench.embed_paths``: the three ways to a question's vector, real model, one run
(no timing assertions)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.serve.conftest import sha256

ROOT = Path(__file__).resolve().parents[2]


def test_the_three_paths_side_by_side(study_db: Path, tmp_path: Path) -> None:
    before = sha256(study_db)
    proc = subprocess.run(
        [sys.executable, "-m", "amicus_desktop.bench.embed_paths", "--db", str(study_db), "--clients", "3",
         "--seconds", "0.8", "--warmup", "0.4"],
        capture_output=True, text=True, timeout=300, cwd=ROOT, check=False,
        env={**os.environ, "AMICUS_HOME": str(tmp_path / "home")},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    report = json.loads(lines[-1])
    assert [r["path"] for r in report["results"]] == ["unbatched", "batched", "in-service"]
    for r in report["results"]:
        (row,) = r["service"]["service"]
        assert row["requests"] > 0 and row["errors"] == {} and r["service"]["in_process"] == []
        cpu = row["cpu_ms_per_request"]
        assert cpu["service"] > 0 and (("proxy" in cpu) == (r["path"] != "in-service"))
    table = "\n".join(lines[:-1])
    assert table.count("| 3 ") == 3 and "serve --embed local" in table and "(before)" in table
    assert sha256(study_db) == before

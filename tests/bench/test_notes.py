"""``amicus-desktop bench --notes N``: the notes row runs end to end and says what it measured."""

from __future__ import annotations

import json
from pathlib import Path

from amicus_desktop.bench.notes import ROUNDS
from tests.support.cli import run


def test_the_notes_row(small_db: Path, tmp_path: Path) -> None:
    code, out, err = run("bench", "--notes", "300", "--real-db", str(small_db), "--out-dir", str(tmp_path),
                         "--queries", "3", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["notes"] == 300 and report["questions"] == 3
    for mode in ("semantic", "hybrid", "keyword"):
        row = report[mode]
        assert row["with"]["n"] == row["without"]["n"] == 3 * ROUNDS and row["notes_stage"]["p50"] > 0
    assert report["after_a_new_note"]["found_by_next_question"] == report["after_a_new_note"]["notes_added"]
    cached = list(tmp_path.glob("notes-300-*/notes.sqlite"))
    assert len(cached) == 1
    code, table, _ = run("bench", "--notes", "300", "--real-db", str(small_db), "--out-dir", str(tmp_path),
                         "--queries", "3")
    assert code == 0 and "| hybrid |" in table and "budget" in table  # the store was reused, not rebuilt

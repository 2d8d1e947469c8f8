"""``amicus-desktop context`` (CONTRACT section 8) on the real study library through the real proxy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amicus_desktop.context import WordPieceCounter
from tests.support.cli import query_json, run

pytestmark = pytest.mark.slow

QUESTION = "How is a person justified before God?"


def test_context_fits_the_budget_and_accounts_for_every_result(study_db: Path, local_proxy) -> None:
    base = ["--db", str(study_db), "--proxy", local_proxy.url, "--mode", "hybrid", "--chapter", "romans:3"]
    code, result = query_json(QUESTION, *base)
    assert code == 0
    ranked = [r["chunk_id"] for r in result["results"]]
    for budget in (100000, 1200, 300):
        code, out, err = run("context", QUESTION, *base, "--budget", str(budget), "--format", "json")
        assert code == 0, err
        block = json.loads(out)
        assert set(block) == {"budget", "used_tokens", "included", "dropped", "text"}
        assert block["included"] + block["dropped"] == ranked  # each once; dropped from the bottom
        assert block["used_tokens"] == WordPieceCounter()(block["text"]) <= budget
        for cid in block["included"]:
            rank = ranked.index(cid) + 1
            assert f"[{rank}] " in block["text"]
    code, text, _ = run("context", QUESTION, *base, "--budget", "100000")
    assert code == 0 and "Romans 3" in text and "[1] " in text
    code, md, _ = run("context", QUESTION, *base, "--format", "markdown")
    assert (code == 0 and "**[1] " in md) or "**[" in md


def test_context_errors_like_query(tmp_path: Path) -> None:
    code, out, _ = run("context", "grace", "--db", str(tmp_path / "none.db"), "--format", "json")
    assert code == 1 and json.loads(out)["error"]["code"] == "DB_NOT_FOUND"
    code, _, _ = run("context", "grace", "--budget", "0")
    assert code == 2

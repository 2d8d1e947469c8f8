"""``query --replay TRACE.json`` (issue 35, item 3): a kept answer — ``query --json``'s bundle or the MCP tool's
structured content — asked again on the same library is reproduced (exit 0); a ranking that differs is said
item by item, with the library's and the model's differences (exit 3)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from mcp import ClientSession

from amicus_desktop.mcp.provenance import library_id
from amicus_desktop.store.scripture import ScriptureStore
from tests.mcp.test_server import drive
from tests.mcp.tools_client import Tools
from tests.support.cli import run
from tests.support.proxy import ROOT

QUESTION = "Why did God choose Jacob over Esau?"


def replay(*args: str) -> tuple[int, str, str]:
    """``query --replay ...`` in a subprocess (its --json is a comparison, not a bundle to check as one)."""
    proc = subprocess.run([sys.executable, "-m", "amicus_desktop", "query", "--replay", *args], cwd=str(ROOT),
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1"})
    return proc.returncode, proc.stdout, proc.stderr


def test_a_kept_answer_is_reproduced_or_its_changes_said(study_db: Path, local_proxy: Any, tmp_path: Path) -> None:
    code, out, _ = run("query", QUESTION, "--db", str(study_db), "--proxy", local_proxy.url, "--k", "6", "--json")
    assert code == 0
    bundle = tmp_path / "bundle.json"
    bundle.write_text(out, encoding="utf-8")
    kept: dict[str, Any] = {}

    async def ask(session: ClientSession) -> None:
        tools = await Tools(session).start()
        kept["mcp"] = await tools.ok("search_library", {"query": "grace and faith", "k": 5, "mode": "hybrid",
                                                        "filters": {"book": ["romans"]}})

    drive(study_db, local_proxy.url, tmp_path / "home", ask)
    answer = tmp_path / "mcp.json"
    answer.write_text(json.dumps(kept["mcp"]), encoding="utf-8")
    with ScriptureStore(study_db) as store:
        lib = library_id(store)

    for trace in (bundle, answer):
        code, out, err = replay(str(trace), "--db", str(study_db), "--proxy", local_proxy.url, "--json")
        assert code == 0, err
        said = json.loads(out)
        assert said["reproduced"] is True and said["library"]["now"] == lib and said["results"] > 0
    assert said["library"]["trace"] == lib  # the MCP answer names its library

    changed = dict(kept["mcp"])
    results = [dict(r) for r in changed["results"]]
    results[0], results[1] = results[1], results[0]
    results[2]["score"] += 0.01
    gone = results.pop()
    results.append({**gone, "id": "not-in-the-library:1"})
    changed["results"] = results
    changed["library"] = {**changed["library"], "id": "lib-00000000000000000000"}
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(changed), encoding="utf-8")
    code, out, _ = replay(str(edited), "--db", str(study_db), "--proxy", local_proxy.url, "--json")
    assert code == 3
    said = json.loads(out)
    assert said["reproduced"] is False and said["library"] == {"trace": "lib-00000000000000000000", "now": lib}
    assert {m["id"] for m in said["moved"]} >= {results[0]["id"], results[1]["id"]}
    assert [r["id"] for r in said["rescored"]] == [results[2]["id"]]
    assert [n["id"] for n in said["new"]] == [gone["id"]]
    assert [g["id"] for g in said["gone"]] == ["not-in-the-library:1"]
    code, out, _ = replay(str(edited), "--db", str(study_db), "--proxy", local_proxy.url)
    assert code == 3 and "changed:" in out and "rank 1 → 2" in out and "lib-00000000000000000000" in out

    code, _, err = replay(str(tmp_path / "missing.json"), "--db", str(study_db))
    assert code == 1 and "cannot be read" in err
    code, _, err = run("query", "text", "--replay", str(edited), "--db", str(study_db))
    assert code == 2 and "not both" in err

"""``amicus-desktop doctor`` as a subprocess: green on a good setup, red with a fix otherwise."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

from tests.support.corpora import sha256
from tests.support.dbs import build_db, edit_db, random_chunks
from tests.support.scripted_proxy import ScriptedProxy


def doctor(*args: str, env: dict[str, str] | None = None) -> tuple[int, dict]:
    proc = subprocess.run(
        [sys.executable, "-m", "amicus_desktop", "doctor", "--json", *args],
        capture_output=True, text=True, timeout=60, env={**os.environ, **(env or {})},
    )
    return proc.returncode, json.loads(proc.stdout)


def by_name(report: dict) -> dict[str, dict]:
    return {c["name"].strip(): c for c in report["checks"]}


def test_all_green(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(30, 8))
    with ScriptedProxy(dims=8) as p:
        code, report = doctor("--db", str(db), "--proxy", p.url)
    assert code == 0 and report["ok"]
    checks = by_name(report)
    assert all(c["status"] == "ok" for c in checks.values())
    assert "30 chunks" in checks["model"]["detail"] and "8 dims" in checks["model"]["detail"]
    assert "books" in checks["optional tables"]["detail"]
    assert checks["sqlite-vec"]["detail"].startswith("v0.1")
    # random_chunks names scholars "a", "b", "c"; the test DB's scholars table is empty
    assert checks["scholars"]["detail"].startswith("3 (A., B., C.); 0 named by the database")


def test_scholars_table_is_reported(tmp_path: Path) -> None:
    from amicus_desktop.core.scholars import Scholar

    db = build_db(tmp_path / "s.db", random_chunks(30, 8), scholars=[Scholar("a", "Augustine of Hippo")])
    with ScriptedProxy(dims=8) as p:
        code, report = doctor("--db", str(db), "--proxy", p.url)
    checks = by_name(report)
    assert code == 0 and "scholars" in checks["optional tables"]["detail"]
    assert checks["scholars"]["detail"].startswith("3 (Augustine of Hippo, B., C.); 1 named by the database")


def test_reports_each_problem_with_a_fix(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code, report = doctor("--db", str(tmp_path / "none.db"), "--proxy", f"http://127.0.0.1:{port}")
    assert code == 1 and not report["ok"]
    checks = by_name(report)
    assert checks["Database"]["status"] == "fail" and "build-db" in checks["Database"]["fix"]
    assert checks["Embed proxy"]["status"] == "fail" and "OFFLINE" in checks["Embed proxy"]["detail"]


def test_model_mismatch_and_missing_extension(tmp_path: Path) -> None:
    db = build_db(tmp_path / "s.db", random_chunks(30, 8), model="other")
    with ScriptedProxy(dims=8) as p:
        code, report = doctor("--db", str(db), "--proxy", p.url)
        assert code == 1 and by_name(report)["matches database"]["status"] == "fail"
        code, report = doctor("--db", str(db), "--proxy", p.url, env={"AMICUS_SQLITE_VEC_PATH": str(tmp_path / "x.so")})
    checks = by_name(report)
    assert code == 1 and checks["sqlite-vec"]["status"] == "fail" and "Reinstall" in checks["sqlite-vec"]["fix"]


def test_says_which_keyword_index_is_used_and_why_not_the_databases(tmp_path: Path) -> None:
    """A stale or emptied chunk_fts was trusted, and doctor said all was well (#20.17)."""
    sound = build_db(tmp_path / "sound.db", random_chunks(30, 8))
    minimal = build_db(tmp_path / "minimal.db", random_chunks(30, 8), full_schema=False)
    stale = build_db(tmp_path / "stale.db", random_chunks(30, 8))
    edit_db(stale, "UPDATE chunk_text SET text = 'rewritten since' WHERE rowid = 1")
    emptied = build_db(tmp_path / "emptied.db", random_chunks(30, 8))
    edit_db(emptied, "INSERT INTO chunk_fts(chunk_fts) VALUES ('delete-all')")
    before = {p: sha256(p) for p in (sound, minimal, stale, emptied)}
    found = {}
    with ScriptedProxy(dims=8) as p:
        for db in before:
            code, report = doctor("--db", str(db), "--proxy", p.url)
            assert code == 0, report
            found[db.stem] = by_name(report)["keyword index"]
    assert found["sound"]["status"] == "ok" and "database's own" in found["sound"]["detail"]
    assert found["minimal"]["status"] == "ok" and "has no full-text index" in found["minimal"]["detail"]
    assert found["stale"]["status"] == "warn" and "out of date: row 1 has changed" in found["stale"]["detail"]
    assert found["emptied"]["status"] == "warn" and "indexes 0 chunks where chunk_text holds 30" in (
        found["emptied"]["detail"])
    assert all("build-db" in found[k]["fix"] for k in ("stale", "emptied"))
    assert {p: sha256(p) for p in before} == before


def test_says_whether_the_stored_content_id_is_still_the_chunks(tmp_path: Path) -> None:
    sound = build_db(tmp_path / "sound.db", random_chunks(30, 8))
    older = build_db(tmp_path / "older.db", random_chunks(30, 8))
    edit_db(older, "DELETE FROM db_meta WHERE key = 'content_id'")  # as a library built before it was stored
    changed = build_db(tmp_path / "changed.db", random_chunks(30, 8))
    edit_db(changed, "UPDATE chunk_text SET text = 'rewritten since' WHERE rowid = 1")
    found = {}
    with ScriptedProxy(dims=8) as p:
        for db in (sound, older, changed):
            code, report = doctor("--db", str(db), "--proxy", p.url)
            assert code == 0, report
            found[db.stem] = by_name(report)["content id"]
    assert found["sound"]["status"] == "ok" and "stored by its builder" in found["sound"]["detail"]
    assert found["older"]["status"] == "ok" and "computed" in found["older"]["detail"]
    assert found["sound"]["detail"].split()[0] == found["older"]["detail"].split()[0]  # the same chunks, one id
    assert found["changed"]["status"] == "warn" and "changed since it was built" in found["changed"]["detail"]
    assert "build-db" in found["changed"]["fix"]

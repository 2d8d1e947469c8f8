"""Opening a file read-only without writing anything beside it: WAL, journals, read-only folders (store/sqlite.py)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

from amicus_desktop.core.errors import ErrorCode
from amicus_desktop.store import ScriptureStore
from amicus_desktop.store.sqlite import connect
from tests.support.dbs import build_db, candidates, expect_refused, random_chunks


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- files beside the database -----------------------------------------------------------------
def _wal(db: Path) -> Path:
    con = connect(db, readonly=False, load_extension=False)
    assert con.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
    con.close()
    assert db.read_bytes()[18:20] == b"\x02\x02"
    return db


def test_wal_database_opens_without_side_files(tmp_path: Path) -> None:
    db = _wal(build_db(tmp_path / "w.db", random_chunks(30, 8)))
    before = sha(db)
    with ScriptureStore(db) as store:
        assert len(candidates(store, np.ones(8), 10)) == 10
        assert sorted(p.name for p in tmp_path.iterdir()) == ["w.db"]  # no -wal, no -shm
    assert sha(db) == before


def test_wal_with_changes_not_in_the_file_is_refused_saying_so(tmp_path: Path) -> None:
    db = _wal(build_db(tmp_path / "w.db", random_chunks(30, 8)))
    writer = connect(db, readonly=False, load_extension=False)
    try:
        writer.execute("UPDATE db_meta SET value = 'x' WHERE key = 'corpus_name'")  # now in w.db-wal
        assert (tmp_path / "w.db-wal").stat().st_size > 0
        expect_refused(ErrorCode.DB_INVALID, db, "w.db-wal", "checkpoint")
    finally:
        writer.close()


def _leave_hot_journal(db: Path) -> None:
    """A writer that dies mid-transaction leaves its rollback journal behind."""
    code = (
        "import apsw, os, sys\n"
        "c = apsw.Connection(sys.argv[1])\n"
        "c.execute('PRAGMA cache_size = 2')  # a tiny cache spills: the journal is synced, then the file written\n"
        "c.execute('BEGIN IMMEDIATE'); c.execute('UPDATE chunk_text SET text = text || randomblob(40000)')\n"
        "os._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", code, str(db)], check=True, timeout=60)
    assert db.with_name(db.name + "-journal").read_bytes()[:8].hex() == "d9d505f920a163d7"


def test_an_interrupted_write_is_refused_saying_so(tmp_path: Path) -> None:
    db = build_db(tmp_path / "j.db", random_chunks(30, 8))
    _leave_hot_journal(db)
    err = expect_refused(ErrorCode.DB_INVALID, db, "j.db-journal", "stopped half-way")
    assert "readonly" not in err.message


_READ_ONLY_FOLDER_CHECK = """
import json, os, sys
import numpy as np
from amicus_desktop.core.errors import AmicusError
from amicus_desktop.store import ScriptureStore
from amicus_desktop.store.sqlite import vec_version
vec_version()  # the extension is loaded before this process gives up root
if os.geteuid() == 0:  # root writes anywhere: become nobody so the permission bits count
    os.setgid(65534); os.setuid(65534)
try:
    with ScriptureStore(sys.argv[1]) as store:
        print(json.dumps({"results": len(store.knn(np.ones(store.info.dims), 10))}))
except AmicusError as err:
    print(json.dumps({"code": err.code.value, "message": err.message}))
"""


@pytest.mark.parametrize("kind", ["rollback", "wal", "hot journal"])
def test_read_only_folder(kind: str) -> None:
    """A database in a folder nobody may write to, read by a process that is not root."""
    folder = Path(tempfile.mkdtemp(prefix="amicus-ro-db-"))  # under /tmp, reachable by any user
    try:
        db = build_db(folder / "s.db", random_chunks(30, 8))
        if kind == "wal":
            _wal(db)
        if kind == "hot journal":
            _leave_hot_journal(db)
        names = sorted(p.name for p in folder.iterdir())
        before = {p.name: sha(p) for p in folder.iterdir()}
        for p in folder.iterdir():
            p.chmod(0o444)
        folder.chmod(0o555)
        root = Path(__file__).resolve().parents[2]
        proc = subprocess.run(
            [sys.executable, "-c", _READ_ONLY_FOLDER_CHECK, str(db)], capture_output=True, text=True, timeout=60,
            env={**os.environ, "PYTHONPATH": str(root)}, cwd="/", check=False,
        )
        assert proc.returncode == 0, proc.stderr
        out = json.loads(proc.stdout)
        if kind == "hot journal":
            assert out["code"] == "DB_INVALID" and "s.db-journal" in out["message"], out
            assert "readonly" not in out["message"]
        else:
            assert out == {"results": 10}
        assert sorted(p.name for p in folder.iterdir()) == names
        assert {p.name: sha(p) for p in folder.iterdir()} == before
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)

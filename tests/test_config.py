"""One resolution of the connection (amicus_desktop/config.py): order, sources, and its users."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from amicus_desktop import paths
from amicus_desktop.config import load_settings, resolve_connection, seconds_from_env, token_problem
from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.settings import Settings, SettingsStore
from tests.support.dbs import build_db, random_chunks
from tests.support.scripted_proxy import ScriptedProxy

ROOT = Path(__file__).resolve().parent.parent
SAVED = Settings(db_path="/saved/scripture.db", proxy_url="http://saved:1", token="saved-token")
ENV = {"AMICUS_DB": "/env/scripture.db", "AMICUS_PROXY_URL": "http://env:2/", "AMICUS_PROXY_TOKEN": "env-token"}


def test_defaults_when_nothing_is_given() -> None:
    c = resolve_connection(environ={})
    assert (c.db_path.value, c.db_path.source) == (paths.default_db_path(), "default")
    assert (c.proxy_url.value, c.proxy_url.source) == (paths.DEFAULT_PROXY_URL, "default")
    assert (c.token.value, c.token.source) == (None, "default")


def test_saved_settings_beat_defaults() -> None:
    c = resolve_connection(settings=SAVED, environ={})
    assert c.values() == (Path("/saved/scripture.db"), "http://saved:1", "saved-token")
    assert {c.db_path.source, c.proxy_url.source, c.token.source} == {"settings"}
    assert not c.db_path.overridden


def test_environment_beats_settings_and_flags_beat_both() -> None:
    c = resolve_connection(settings=SAVED, environ=ENV)
    assert c.values() == (Path("/env/scripture.db"), "http://env:2", "env-token")
    assert {c.db_path.source, c.proxy_url.source, c.token.source} == {"environment"}
    c = resolve_connection(db="/flag.db", proxy="http://flag:3", settings=SAVED, environ=ENV)
    assert c.values() == (Path("/flag.db"), "http://flag:3", "env-token")  # no token flag, ever
    assert (c.db_path.source, c.proxy_url.source, c.token.source) == ("flag", "flag", "environment")
    assert c.db_path.overridden and c.proxy_url.overridden


def test_empty_or_blank_values_count_as_unset() -> None:
    c = resolve_connection(db="", proxy="", settings=SAVED,
                           environ={"AMICUS_DB": "", "AMICUS_PROXY_URL": "", "AMICUS_PROXY_TOKEN": "  \n"})
    assert {c.db_path.source, c.proxy_url.source, c.token.source} == {"settings"}


def test_values_are_normalised() -> None:
    c = resolve_connection(db="~/x.db", environ={"AMICUS_PROXY_TOKEN": " tok-1\n"})
    assert c.db_path.value == Path("~/x.db").expanduser()
    assert c.token.value == "tok-1"
    assert "tok-1" not in repr(c)  # a secret never reaches a repr or a log line


@pytest.mark.parametrize(("token", "problem"), [
    ("abc-123_XYZ.~+/=", None),
    ("   ", "only whitespace"),
    ("tök", "outside ASCII"),
    ("a b", "spaces"),
    ("a\x00b", "control"),
])
def test_token_problem(token: str, problem: str | None) -> None:
    found = token_problem(token)
    assert (found is None) if problem is None else (found is not None and problem in found)


def test_load_settings_reads_and_never_moves_a_damaged_file(amicus_home: Path) -> None:
    SettingsStore().save(SAVED)
    assert load_settings().proxy_url == "http://saved:1"
    path = paths.config_dir() / "settings.json"
    path.write_text("[" * 100_000)  # damaged, and nested too deeply for json
    assert load_settings() == Settings()
    assert path.read_text() == "[" * 100_000 and not path.with_name("settings.json.bak").exists()


def test_the_command_line_uses_the_saved_settings(amicus_home: Path, tmp_path: Path) -> None:
    """doctor says where each value comes from; query sends the token saved in the settings."""
    db = build_db(tmp_path / "s.db", random_chunks(30, 8))
    with ScriptedProxy(dims=8) as proxy:
        SettingsStore().save(Settings(db_path=str(db), proxy_url=proxy.url, token="from-the-settings"))
        env = {k: v for k, v in os.environ.items() if not k.startswith("AMICUS_") or k == "AMICUS_HOME"}
        doctor = subprocess.run([sys.executable, "-m", "amicus_desktop", "doctor", "--json"], capture_output=True,
                                text=True, timeout=60, env=env, cwd=ROOT, check=False)
        checks = {c["name"].strip(): c for c in json.loads(doctor.stdout)["checks"]}
        assert doctor.returncode == 0, doctor.stdout
        assert f"{db} (from settings)" in checks["Database"]["detail"]
        assert "(from settings; token from settings)" in checks["Embed proxy"]["detail"]
        assert "from-the-settings" not in doctor.stdout
        query = subprocess.run([sys.executable, "-m", "amicus_desktop", "query", "grace", "--json"],
                               capture_output=True, text=True, timeout=60, env={**env, "AMICUS_DB": str(db)}, cwd=ROOT,
                               check=False)
        assert query.returncode == 0, query.stdout + query.stderr
        assert proxy.last_headers["Authorization"] == "Bearer from-the-settings"


def test_dev_sh_asks_the_same_resolution(amicus_home: Path) -> None:
    SettingsStore().save(Settings(proxy_url="http://saved-for-dev:9"))
    script = ROOT / "scripts" / "dev.sh"
    env = {**os.environ, "AMICUS_DB": "/from/env.db"}
    functions = f'source <(sed -n "/^proxy_url()/,/^db_path()/p" {script})'
    out = subprocess.run(["bash", "-c", f"{functions}; PY={sys.executable}; proxy_url; db_path"],
                         capture_output=True, text=True, timeout=60, env=env, cwd=ROOT, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["http://saved-for-dev:9", "/from/env.db"]


def test_blas_runs_one_thread_unless_the_user_says_otherwise() -> None:
    """Set by the package before numpy loads, in every process that imports it (the app, serve, mcp, query):
    OpenBLAS's second thread only spins between the app's small matrix products (docs/PERFORMANCE.md)."""
    code = "import amicus_desktop, numpy, os; print(os.environ['OPENBLAS_NUM_THREADS'])"
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "1"
    env["OPENBLAS_NUM_THREADS"] = "2"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "2"


@pytest.mark.parametrize(("raw", "expected"), [(None, 3.0), ("", 3.0), (" 0.5 ", 0.5), ("10", 10.0)])
def test_seconds_from_the_environment(monkeypatch: pytest.MonkeyPatch, raw: str | None, expected: float) -> None:
    if raw is None:
        monkeypatch.delenv("AMICUS_TEST_SECONDS", raising=False)
    else:
        monkeypatch.setenv("AMICUS_TEST_SECONDS", raw)
    assert seconds_from_env("AMICUS_TEST_SECONDS", 3.0, 0.05) == expected


@pytest.mark.parametrize(("raw", "why"), [("soon", "must be a number of seconds"), ("0.01", "must be at least 0.05"),
                                          ("nan", "must be at least 0.05"), ("-1", "must be at least 0.05")])
def test_seconds_that_cannot_be_used_say_why(monkeypatch: pytest.MonkeyPatch, raw: str, why: str) -> None:
    monkeypatch.setenv("AMICUS_TEST_SECONDS", raw)
    with pytest.raises(ValueError, match=f"\\$AMICUS_TEST_SECONDS {why}"):
        seconds_from_env("AMICUS_TEST_SECONDS", 3.0, 0.05)


def test_a_library_timeout_that_is_not_a_number_is_db_invalid_before_any_connection(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from amicus_desktop.store.pg.schema import STATEMENT_TIMEOUT_ENV, connect
    monkeypatch.setenv(STATEMENT_TIMEOUT_ENV, "a while")
    with pytest.raises(AmicusError) as caught:
        connect("postgresql://127.0.0.1:9/nowhere")  # port 9: nothing would answer, and nothing is asked
    assert caught.value.code is ErrorCode.DB_INVALID and STATEMENT_TIMEOUT_ENV in caught.value.message

"""``serve --db postgresql://…``: the service over a library exported into a real PostgreSQL answers as over its file.

The same questions go to a service over the SQLite library and to one over its export (``export-db``): the same
chunks in the same order with the same scores (meaning search's within 1e-5: pgvector's and sqlite-vec's float
sums differ in the last bits), the same warnings and breakdowns. ``test_retrieve.py``'s settings run against the
real study library and the real model on both backends. The URL's password is never printed or logged; a
database that holds no library yet answers ``DB_NOT_FOUND``, and one that cannot be reached now (restarted, down)
or whose statement ran out of time (a table locked) answers ``503 DB_UNAVAILABLE`` with ``Retry-After``, until it
can — no restart of the service. test_errors.py's rows run here too: its parameter table (imported, over the
study library in PostgreSQL) and its library and proxy failures, the library in PostgreSQL.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from amicus_desktop.store.pg.deadline import ANSWER_GRACE
from amicus_desktop.store.pg.export import export_library
from amicus_desktop.store.sqlite import connect
from tests.postgres_server import PgServeProcess, PgServer, exported_library
from tests.serve.conftest import expect_error, proxy_failures_in_turn
from tests.serve.test_errors import test_400, test_413_query_too_long_and_2000_is_fine  # noqa: F401  (run here)
from tests.serve.test_retrieve import SETTINGS
from tests.support.cli import query_json, run
from tests.support.scripted_proxy import ScriptedProxy
from tests.support.serve import ServeProcess

SECRET = "s3cret-pw"
QUESTIONS: list[dict[str, Any]] = [
    {"q": "Why did God choose Jacob over Esau?", "k": 8},
    {"q": "grace and peace Rom 5:1", "k": 5, "mode": "keyword"},
    {"q": "justified by faith", "k": 6, "mode": "hybrid", "chapter": "romans:3", "filter.book": ["rom", "john"]},
    {"q": "love one another", "mode": "hybrid", "filter.source_type": ["section_panel"]},
]


def _with_password(url: str) -> str:
    return url.replace("amicus_app@", f"amicus_app:{SECRET}@")


def _comparable(body: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(r["id"], r["rank"], r["source_type"], r["meta"], r["pinned"]) for r in body["results"]]


def _same_answers(a: httpx.Response, b: httpx.Response) -> None:
    assert a.status_code == b.status_code == 200, (a.text, b.text)
    x, y = a.json(), b.json()
    assert _comparable(x) == _comparable(y) and _comparable(x)
    for r, s in zip(x["results"], y["results"], strict=True):
        assert r["score"] == pytest.approx(s["score"], abs=1e-5)
        assert r["breakdown"].keys() == s["breakdown"].keys()
        assert all(v == pytest.approx(s["breakdown"][k], abs=1e-5) for k, v in r["breakdown"].items())
    assert [w["code"] for w in x["warnings"]] == [w["code"] for w in y["warnings"]]
    assert [r["chunk_id"] for r in x["rejected"]] == [r["chunk_id"] for r in y["rejected"]]
    assert x.get("filters") == y.get("filters") and x.get("query_trace") == y.get("query_trace")


@pytest.fixture
def both(small_db: Path, tmp_path: Path) -> Iterator[tuple[ServeProcess, ServeProcess, str]]:
    url = exported_library(small_db)
    with ScriptedProxy(dims=8, model="test-model") as proxy:
        lite = ServeProcess(small_db, proxy.url, home=tmp_path / "lite")
        pg_serve = PgServeProcess(_with_password(url), proxy.url, "--lanes", "2", home=tmp_path / "pg")
        try:
            yield lite.start(), pg_serve.start(), url
        finally:
            lite.close()
            pg_serve.close()


def test_the_same_answers_over_postgresql_as_over_the_file(both: tuple[ServeProcess, ServeProcess, str]) -> None:
    lite, pg_serve, _url = both
    for params in QUESTIONS:
        _same_answers(lite.get(params=params), pg_serve.get(params=params))
    health = pg_serve.get("/health")
    assert health.status_code == 200 and health.json()["library"]["chunks"] == 112
    said = pg_serve.run_output() + pg_serve.log_text()
    assert "listening on" in said and "amicus_app@" not in said and SECRET not in said


def test_a_database_without_a_library_answers_not_found_until_one_is_exported(
        small_db: Path, tmp_path: Path, pg_url: str) -> None:
    with ScriptedProxy(dims=8, model="test-model") as proxy:
        serve = PgServeProcess(_with_password(pg_url), proxy.url, home=tmp_path / "home")
        try:
            serve.start()
            body = expect_error(serve.get(params={"q": "grace", "mode": "keyword"}), 404, "DB_NOT_FOUND")
            assert "export-db" in body["error"]["message"] and SECRET not in str(body)
            export_library(small_db, pg_url)
            answer = serve.get(params={"q": "grace", "mode": "keyword"})
            assert answer.status_code == 200 and answer.json()["results"]
            assert serve.get("/health").json()["library"]["chunks"] == 112
            smaller = tmp_path / "smaller.db"  # a new version of the library, exported over the first
            shutil.copy(small_db, smaller)
            con = connect(smaller, readonly=False)
            for table in ("chunk_text", "chunk_metadata", "embeddings"):
                con.execute(f"DELETE FROM {table} WHERE rowid > 100")
            con.close()
            export_library(smaller, pg_url, replace=True)
            deadline = time.monotonic() + 10
            while serve.get("/health").json()["library"]["chunks"] != 100:  # each lane within a second
                assert time.monotonic() < deadline
                time.sleep(0.2)
            assert SECRET not in serve.run_output() + serve.log_text()
        finally:
            serve.close()


@pytest.fixture(scope="module")
def served_pg(study_db: Path, local_proxy: Any) -> Iterator[ServeProcess]:
    """``serve`` over the real study library exported into PostgreSQL, through the real proxy."""
    serve = PgServeProcess(exported_library(study_db), local_proxy.url)
    try:
        yield serve.start()
    finally:
        serve.close()


@pytest.mark.parametrize(("params", "flags"), SETTINGS, ids=["dense", "hybrid-filters", "keyword-book", "threshold"])
def test_retrieve_over_postgresql_answers_as_query_json_over_the_file(
        served_pg: ServeProcess, study_db: Path, local_proxy: Any, params: dict[str, Any], flags: list[str]) -> None:
    """test_retrieve.py's settings, the service over PostgreSQL, ``query --json`` over the SQLite file."""
    code, expected = query_json(params["q"], "--db", str(study_db), "--proxy", local_proxy.url, *flags)
    assert code == 0, expected
    body = served_pg.get(params=params).json()
    got = [(r["id"], r["rank"], r["meta"], r["source_type"], r["source_id"]) for r in body["results"]]
    want = [(r["chunk_id"], r["rank"], r["metadata"], r["source_type"], r["source_id"]) for r in expected["results"]]
    assert got == want and got
    assert [r["score"] for r in body["results"]] == pytest.approx([r["score"] for r in expected["results"]], abs=1e-5)
    assert [r["chunk_id"] for r in body["rejected"]] == [r["chunk_id"] for r in expected["rejected"]]
    assert body["warnings"] == expected["warnings"]
    assert body["filters"] == {k: v for k, v in expected["query_trace"]["filters"].items() if v}


def test_the_database_restarted_or_down_under_load_fails_with_a_code_then_recovers(
        both: tuple[ServeProcess, ServeProcess, str], pg: PgServer) -> None:
    """Every answer while PostgreSQL restarts or is down is 200 or the contract's ``503 DB_UNAVAILABLE`` with
    ``Retry-After`` (no hang, no 404, no 500); once it is back every lane connects again by itself."""
    _lite, pg_serve, _url = both
    params = {"q": "grace", "mode": "keyword", "k": 3}
    assert pg_serve.get(params=params).status_code == 200
    answers: list[httpx.Response] = []
    stop = threading.Event()

    def load() -> None:
        while not stop.is_set():
            answers.append(pg_serve.get(params=params, timeout=30))

    workers = [threading.Thread(target=load) for _ in range(2)]
    for t in workers:
        t.start()
    try:
        time.sleep(0.3)
        pg.restart()
        time.sleep(0.3)
        pg.stop()
        time.sleep(1.0)
        t0 = time.monotonic()
        down = pg_serve.get(params=params)
        down_seconds = time.monotonic() - t0
        deadline = time.monotonic() + 10
        while (health := pg_serve.get("/health")).status_code != 503:  # each lane looks again within a second
            assert time.monotonic() < deadline, health.text
            time.sleep(0.2)
        pg.start()
        time.sleep(0.3)
    finally:
        stop.set()
        for t in workers:
            t.join(60)
    body = expect_error(down, 503, "DB_UNAVAILABLE")
    assert down.headers["Retry-After"] == "1" and down_seconds < 10, down_seconds  # (a socket refuses at once)
    assert "cannot be reached" in body["error"]["message"] and SECRET not in str(body)
    codes = {r.status_code for r in answers}
    assert codes <= {200, 503} and 503 in codes, codes
    assert all(r.json()["error"]["code"] == "DB_UNAVAILABLE" and r.headers["Retry-After"] == "1"
               for r in answers if r.status_code == 503)
    for _ in range(4):  # each lane: its next statement connects again
        assert pg_serve.get(params=params).status_code == 200


def test_a_statement_that_waits_too_long_answers_unavailable_then_works(small_db: Path, tmp_path: Path,
                                                                        pg: PgServer) -> None:
    """A table the library reads held by an administrator (``LOCK TABLE … ACCESS EXCLUSIVE``): a search waits at
    most ``$AMICUS_LIBRARY_STATEMENT_TIMEOUT`` seconds and answers ``503 DB_UNAVAILABLE`` with ``Retry-After`` (no
    hang); once the lock is gone the same lane answers again."""
    url = exported_library(small_db)
    name = url.split("@/", 1)[1].split("?", 1)[0]
    params = {"q": "grace", "mode": "keyword", "k": 3}
    with ScriptedProxy(dims=8, model="test-model") as proxy:
        serve = PgServeProcess(url, proxy.url, home=tmp_path / "home",
                               env={"AMICUS_LIBRARY_STATEMENT_TIMEOUT": "0.5"})
        try:
            serve.start()
            assert serve.get(params=params).status_code == 200
            with pg.admin(name) as admin, admin.transaction():
                admin.execute("LOCK TABLE amicus_library.fts_postings IN ACCESS EXCLUSIVE MODE")
                t0 = time.monotonic()
                held = serve.get(params={**params, "q": "grace and peace"}, timeout=30)
                waited = time.monotonic() - t0
            body = expect_error(held, 503, "DB_UNAVAILABLE")
            assert held.headers["Retry-After"] == "1" and 0.4 < waited < 5, waited
            assert "QueryCanceled" in body["error"]["message"]
            assert serve.get(params=params).status_code == 200
        finally:
            serve.close()


def _library_backends(pg: PgServer, name: str) -> set[int]:
    with pg.admin() as con:
        rows = con.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s AND application_name = "
                           "'amicus-library'", [name]).fetchall()
    return {int(r[0]) for r in rows}


def test_a_lane_whose_server_never_answers_answers_unavailable_then_connects_again(
        small_db: Path, tmp_path: Path, pg: PgServer) -> None:
    """The service's server processes are frozen (SIGSTOP: each lane's socket stays open and never answers, as a
    host gone without a word): a search answers ``503 DB_UNAVAILABLE`` once the statement timeout and
    ``ANSWER_GRACE`` have passed — never a hang — and the lane's next search connects anew."""
    url = exported_library(small_db)
    name = url.split("@/", 1)[1].split("?", 1)[0]
    params = {"q": "grace", "mode": "keyword", "k": 3}
    before = _library_backends(pg, name)
    with ScriptedProxy(dims=8, model="test-model") as proxy:
        serve = PgServeProcess(url, proxy.url, home=tmp_path / "home", env={"AMICUS_LIBRARY_STATEMENT_TIMEOUT": "1"})
        try:
            serve.start()
            assert serve.get(params=params).status_code == 200
            frozen = _library_backends(pg, name) - before
            assert frozen
            for pid in frozen:
                os.kill(pid, signal.SIGSTOP)
            try:
                t0 = time.monotonic()
                silent = serve.get(params={**params, "q": "grace and peace"}, timeout=60)
                waited = time.monotonic() - t0
            finally:
                for pid in frozen:
                    os.kill(pid, signal.SIGCONT)
            expect_error(silent, 503, "DB_UNAVAILABLE")
            assert silent.headers["Retry-After"] == "1"
            assert 1 + ANSWER_GRACE - 0.5 < waited < 1 + ANSWER_GRACE + 10, waited
            for _ in range(4):  # every lane: its next statement connects again
                assert serve.get(params=params).status_code == 200
            assert not frozen & _library_backends(pg, name)
        finally:
            serve.close()


def test_the_mcp_tools_over_postgresql_name_the_library_it_was_exported_from(
        served_pg: ServeProcess, study_db: Path, local_proxy: Any) -> None:
    from amicus_desktop.store.content_id import library_id
    from amicus_desktop.store.scripture import ScriptureStore
    from tests.mcp.test_http import over_http
    from tests.mcp.tools_client import Tools

    question = "Why did God choose Jacob over Esau?"
    _, expected = query_json(question, "--db", str(study_db), "--proxy", local_proxy.url, "--k", "4",
                             "--mode", "keyword")
    with ScriptureStore(study_db) as store:
        wanted_id = library_id(store)
    seen: dict[str, Any] = {}

    async def check(session: Any) -> None:
        tools = await Tools(session).start()
        seen["found"] = await tools.ok("search_library", {"query": question, "k": 4, "mode": "keyword"})
        seen["verses"] = await tools.ok("search_verses", {"query": "the children being not yet born", "k": 5,
                                                          "mode": "keyword"})
        await tools.refused("search_verses", {"query": "grace", "mode": "semantic"}, "VERSES_NOT_INDEXED")

    over_http(f"{served_pg.url}/mcp", "no-token-needed", check)
    found = seen["found"]
    assert [r["id"] for r in found["results"]] == [r["chunk_id"] for r in expected["results"]]
    assert found["library"]["id"] == wanted_id == seen["verses"]["library"]["id"]
    code, out, _ = run("verses", "the children being not yet born", "--db", str(study_db), "--proxy", local_proxy.url,
                       "--k", "5", "--mode", "keyword", "--json")
    assert code == 0
    lite = json.loads(out)["results"]
    got = seen["verses"]["results"]
    assert [r["reference"] for r in got] == [r["reference"] for r in lite] and got
    assert [r["score"] for r in got] == pytest.approx([r["score"] for r in lite], abs=1e-5)


# -- the error table over PostgreSQL --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def served(served_pg: ServeProcess) -> ServeProcess:
    """test_errors.py's parameter table (imported below) asked of the service over PostgreSQL."""
    return served_pg


def test_library_and_proxy_failures_then_recovery_over_postgresql(small_db: Path, tmp_path: Path, pg_url: str,
                                                                   pg: PgServer) -> None:
    """test_errors.py's library and proxy rows, the library in PostgreSQL: none yet (404), an invalid one (500),
    then an exported one (200); the proxy's 500, wrong model, wrong dims and absence as over the file."""
    with ScriptedProxy(dims=8, model="test-model") as proxy:
        serve = PgServeProcess(_with_password(pg_url), proxy.url, home=tmp_path / "home")
        try:
            serve.start()
            dense = iter(f"grace question {n}" for n in range(100))  # new texts: the vector cache never answers

            def ask(mode: str = "dense") -> httpx.Response:
                return serve.get(params={"q": next(dense), "mode": mode})

            expect_error(ask(), 404, "DB_NOT_FOUND")
            assert serve.get("/health").status_code == 503
            name = pg_url.split("@/", 1)[1].split("?", 1)[0]
            with pg.admin(name) as con:  # a library whose db_meta lacks the model: invalid, not missing
                con.execute("CREATE SCHEMA amicus_library AUTHORIZATION amicus_app")
                con.execute("CREATE TABLE amicus_library.db_meta (key text PRIMARY KEY, value text NOT NULL)")
                con.execute("ALTER TABLE amicus_library.db_meta OWNER TO amicus_app")
                con.execute("INSERT INTO amicus_library.db_meta VALUES ('schema_version', '1')")
            body = expect_error(ask(), 500, "DB_INVALID")
            assert "embedding_model" in body["error"]["message"] and SECRET not in str(body)
            export_library(small_db, pg_url)  # replaces it: the service reads it at the next request
            assert ask().status_code == 200

            proxy_failures_in_turn(ask, proxy)
            assert SECRET not in serve.run_output() + serve.log_text()
        finally:
            serve.close()

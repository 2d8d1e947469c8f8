"""The notes store on PostgreSQL: the second wall (row-level security), replicas, pgvector, faults, moving a store.

A real PostgreSQL 18 with pgvector (tests/postgres_server.py), reached as a role row-level security holds for.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import numpy as np
import psycopg
import pytest

from amicus_desktop.notes import NotesCode, NotesError, NotesStore, parse_ref
from amicus_desktop.notes.copy import copy_store
from amicus_desktop.notes.pgschema import WALLED
from amicus_desktop.notes.postgres import DEFAULT_POOL_TIMEOUT, PgNotesStore
from amicus_desktop.notes.search import keyword_search, nearest
from amicus_desktop.store.pg.deadline import ANSWER_GRACE
from tests.postgres_server import PgServer


def _two_workspaces(store: PgNotesStore) -> None:
    alice, bob = store.workspace("alice"), store.workspace("bob")
    a = alice.add("alice's private grace", parse_ref("Rom 9:11"))
    b = bob.add("bob's private grace")
    alice.store_vectors("m", [(a, np.ones(4))])
    bob.store_vectors("m", [(b, np.ones(4))])
    alice.marks().add("bookmark", parse_ref("Rom 8:28"), labels=["alice-label"])
    bob.marks().add("bookmark", parse_ref("Rom 8:28"), labels=["bob-label"])
    bob.remove(bob.add("gone").id)
    alice.remove(alice.add("gone too").id)


def test_a_forgotten_filter_still_sees_one_workspace(pg_url: str) -> None:
    with PgNotesStore(pg_url) as store:
        _two_workspaces(store)
        # every table, read with no workspace filter at all, inside alice's transaction
        with store._transaction("alice") as cur:
            for table in WALLED:
                owners = {r[0] for r in cur.execute(f"SELECT workspace_id FROM {table}").fetchall()}
                assert owners == {"alice"}, table
            texts = [r[0] for r in cur.execute("SELECT text FROM notes").fetchall()]
            assert texts == ["alice's private grace"]
        # a transaction that names no workspace sees nothing at all
        with store._transaction(None) as cur:
            for table in WALLED:
                assert cur.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 0, table
        # and cannot write into another workspace, even by naming it
        with pytest.raises(NotesError), store._transaction("alice") as cur:
            cur.execute("UPDATE notes SET text = 'overwritten' WHERE workspace_id = 'bob'")
            assert cur.rowcount == 0
            cur.execute("INSERT INTO workspaces(workspace_id, created) VALUES ('carol', 'x')")
        assert store.workspace("bob").notes()[0].text == "bob's private grace"


def test_a_role_the_wall_does_not_hold_for_is_refused(pg: PgServer, pg_url: str) -> None:
    superuser = pg_url.replace("amicus_app@", "postgres@")
    with pytest.raises(NotesError) as err:
        PgNotesStore(superuser)
    assert err.value.code is NotesCode.NOTES_STORE_INVALID and "row-level security" in err.value.message


def test_any_replica_serves_any_workspace(pg_url: str) -> None:
    with PgNotesStore(pg_url) as one, PgNotesStore(pg_url) as two:
        ws_one, ws_two = one.workspace("w"), two.workspace("w")
        first = ws_one.add("faith and works", parse_ref("James 2:24"))
        index = ws_two.search().index("m")
        assert [r for r, _ in keyword_search(index, ["faith"], 5)] == [ws_two.rowids_of([first.id])[first.id]]
        ws_two.edit(first.id, "grace alone")
        ws_two.add("faith comes by hearing")
        index = ws_one.search().index("m")  # the first replica's index follows what the second wrote
        found = ws_one.search().fetch([r for r, _ in keyword_search(index, ["faith"], 5)])
        assert [n.text for n in found.values()] == ["faith comes by hearing"]
        assert not keyword_search(index, ["works"], 5)


def test_a_question_keeps_its_index_whole_while_the_cache_is_brought_up_to_date(pg_url: str) -> None:
    """The service's threads share one cached index per workspace: a write seen by one thread's refresh goes to a
    copy, so another thread's question, halfway through the index it took, still reads one whole generation."""
    with PgNotesStore(pg_url) as store:
        ws = store.workspace("w")
        first = ws.add("faith and works")
        reading = ws.search().index("m")
        ws.add("faith comes by hearing")
        ws.remove(first.id)
        fresh = ws.search().index("m")
        assert fresh is not reading and ws.search().index("m") is fresh
        assert reading.count == 1 and keyword_search(reading, ["works"], 5)
        assert fresh.count == 1 and not keyword_search(fresh, ["works"], 5) and keyword_search(fresh, ["hearing"], 5)


def test_pgvector_nearest_agrees_with_the_index(pg_url: str) -> None:
    rng = np.random.default_rng(7)
    with PgNotesStore(pg_url) as store:
        ws = store.workspace("w")
        notes = [ws.add(f"note {i}") for i in range(60)]
        ws.store_vectors("m", [(n, rng.standard_normal(32).astype(np.float32)) for n in notes])
        q = rng.standard_normal(32).astype(np.float32)
        in_memory = nearest(ws.search().index("m"), q, 40)
        by_id = {v: k for k, v in ws.rowids_of([n.id for n in notes]).items()}
        in_db = ws.nearest("m", q, 40)
        assert [by_id[r] for r, _ in in_memory] == [i for i, _ in in_db]
        assert max(abs(a[1] - b[1]) for a, b in zip(in_memory, in_db, strict=True)) < 1e-5


def test_a_restarted_database_fails_busy_then_recovers_by_itself(
        pg: PgServer, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three threads write and search while the database restarts: every operation in flight ends — done or
    ``NOTES_STORE_BUSY`` — within a bound (a wait for an answer lasts at most the statement timeout and
    ``ANSWER_GRACE`` more, then the connection is closed: under the whole suite's load about one restart in eight
    once left an operation waiting on a silent socket for ever — the frozen-server test below reproduces that
    socket every time), and the store works again by itself."""
    monkeypatch.setenv("AMICUS_NOTES_STATEMENT_TIMEOUT", "2")
    with PgNotesStore(pg_url) as store:
        ws = store.workspace("w")
        ws.add("before the restart")
        codes: list[str] = []
        stop = threading.Event()
        longest = [0.0]

        def load() -> None:
            while not stop.is_set():
                started = time.monotonic()
                try:
                    ws.add("under load")
                    ws.search().index("m")
                except NotesError as exc:
                    codes.append(exc.code.value)
                longest[0] = max(longest[0], time.monotonic() - started)

        workers = [threading.Thread(target=load, daemon=True) for _ in range(3)]
        for t in workers:
            t.start()
        time.sleep(0.5)
        pg.restart()
        recovered = False
        deadline = time.monotonic() + 30
        while not recovered and time.monotonic() < deadline:
            try:
                ws.add("after the restart")
                recovered = True
            except NotesError as exc:
                codes.append(exc.code.value)
                time.sleep(0.2)
        stop.set()
        ended = time.monotonic() + 30  # an operation: the pool's wait (5 s) and two waits of 2 + 3 s, at most
        for t in workers:
            t.join(max(0.0, ended - time.monotonic()))
        assert not [t for t in workers if t.is_alive()], "an operation in flight during the restart never ended"
        assert recovered, "no operation succeeded after the restart"
        assert set(codes) <= {"NOTES_STORE_BUSY"}  # never 'damaged': the store is healthy
        assert ws.find(ws.notes()[0].id) is not None and ws.notes()[0].text == "before the restart"


def _backends(pg: PgServer, pg_url: str) -> list[int]:
    database = pg_url.split("@/", 1)[1].split("?", 1)[0]
    with pg.admin() as con:
        rows = con.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s AND usename = 'amicus_app'",
                           [database]).fetchall()
    return [int(r[0]) for r in rows]


def test_an_operation_on_a_silent_connection_ends_busy_and_the_next_reconnects(
        pg: PgServer, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store's server processes are frozen (SIGSTOP: their sockets stay open and never answer, as a host gone
    without a word or the silent socket a restart once left): each wait for an answer ends after the statement
    timeout and ``ANSWER_GRACE``, closing that connection, so an operation ends ``NOTES_STORE_BUSY`` within the
    pool's wait and two such waits (the pool checks a second frozen connection before its wait runs out) — never
    for ever — and the next one connects anew."""
    monkeypatch.setenv("AMICUS_NOTES_STATEMENT_TIMEOUT", "1")
    with PgNotesStore(pg_url) as store:
        ws = store.workspace("w")
        ws.add("one")
        frozen = _backends(pg, pg_url)
        assert frozen
        for pid in frozen:
            os.kill(pid, signal.SIGSTOP)
        try:
            started = time.monotonic()
            with pytest.raises(NotesError) as err:
                ws.notes()
            waited = time.monotonic() - started
        finally:
            for pid in frozen:
                os.kill(pid, signal.SIGCONT)
        assert err.value.code is NotesCode.NOTES_STORE_BUSY
        answer = 1 + ANSWER_GRACE
        assert answer - 0.5 < waited < DEFAULT_POOL_TIMEOUT + 2 * answer + 3, waited  # measured: 8.9–9.0 s
        assert [n.text for n in ws.notes()] == ["one"]
        assert not set(frozen) & set(_backends(pg, pg_url))  # on a new connection


def test_an_exhausted_pool_answers_busy_without_hanging(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AMICUS_NOTES_POOL_SIZE", "1")
    monkeypatch.setenv("AMICUS_NOTES_POOL_TIMEOUT", "0.5")
    with PgNotesStore(pg_url) as store:
        ws = store.workspace("w")
        ws.add("one")
        assert store._pool is not None
        with store._pool.connection():  # the only connection, held by another operation
            started = time.monotonic()
            with pytest.raises(NotesError) as err:
                ws.notes()
            waited = time.monotonic() - started
        assert err.value.code is NotesCode.NOTES_STORE_BUSY and waited < 5
        assert [n.text for n in ws.notes()] == ["one"]  # free again: it works


def test_a_writer_waiting_on_a_lock_gives_up_busy_within_the_statement_timeout(
        pg: PgServer, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another host (here an administrator's session) holds the workspaces table: a write waits for its lock only
    as long as ``AMICUS_NOTES_STATEMENT_TIMEOUT``, answers busy, loses nothing, and works once the lock is gone."""
    monkeypatch.setenv("AMICUS_NOTES_STATEMENT_TIMEOUT", "0.5")
    with PgNotesStore(pg_url) as store:
        ws = store.workspace("w")
        ws.add("one")
        database = pg_url.split("@/", 1)[1].split("?", 1)[0]
        with pg.admin(database) as admin:
            admin.execute("BEGIN")
            admin.execute("LOCK TABLE workspaces IN ACCESS EXCLUSIVE MODE")
            started = time.monotonic()
            with pytest.raises(NotesError) as err:
                ws.add("two")
            waited = time.monotonic() - started
            admin.execute("ROLLBACK")
        assert err.value.code is NotesCode.NOTES_STORE_BUSY and 0.4 < waited < 5
        ws.add("three")
        assert sorted(n.text for n in ws.notes()) == ["one", "three"]


def test_a_transaction_killed_mid_write_leaves_nothing_half_written(pg: PgServer, pg_url: str) -> None:
    with PgNotesStore(pg_url) as store:
        ws = store.workspace("w")
        batch = [ws.add("kept")] * 2000  # an import of 2,000 notes: one transaction each time
        done = threading.Event()

        def kill() -> None:  # cut the store's busy connections again and again, wherever they are
            with pg.admin() as con:
                while not done.is_set():
                    con.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = "
                                "'amicus_app' AND state <> 'idle'")
                    time.sleep(0.02)

        killer = threading.Thread(target=kill)
        killer.start()
        whole, failures = 0, []
        try:
            for _ in range(20):
                try:
                    ws.restore_all(batch)
                    whole += 1
                except NotesError as exc:
                    failures.append(exc.code)
        finally:
            done.set()
            killer.join()
        assert failures and set(failures) == {NotesCode.NOTES_STORE_BUSY}
        assert ws.count() == 1 + 2000 * whole  # whole imports only, never a part of one


def test_notes_move_from_sqlite_to_postgresql_and_back(tmp_path: Path, pg_url: str) -> None:
    with NotesStore(tmp_path / "a.sqlite") as sqlite:
        alice = sqlite.workspace("alice")
        note = alice.add("on election", parse_ref("Rom 9:11"))
        alice.marks().add("highlight", parse_ref("Rom 9:13"), colour="green", labels=["esau"])
        sqlite.workspace("bob").add("bob's own")
        with PgNotesStore(pg_url) as shared:
            first = copy_store(sqlite, shared)
            again = copy_store(sqlite, shared)  # run again: nothing doubled
            assert (first.workspaces, first.notes, first.marks) == (2, 2, 1)
            assert (again.notes, again.marks, again.skipped) == (0, 0, 2)
            moved = shared.workspace("alice").get(note.id)
            assert (moved.text, moved.ref, moved.created) == (note.text, note.ref, note.created)
            assert shared.workspace("alice").pending_count("m") == 1  # embedded again over there
            with NotesStore(tmp_path / "b.sqlite") as back:
                copy_store(shared, back)
                assert [n.to_json() for n in back.workspace("alice").notes()] == [note.to_json()]
                assert [m.labels for m in back.workspace("alice").marks().marks()] == [("esau",)]
                assert [n.text for n in back.workspace("bob").notes()] == ["bob's own"]


def test_the_store_refuses_a_database_without_pgvector(pg: PgServer) -> None:
    name = "nv_" + str(int(time.time() * 1000))
    with pg.admin() as con:
        con.execute(f"CREATE DATABASE {name} OWNER amicus_app")
    try:
        with pytest.raises(NotesError) as err:
            PgNotesStore(pg.url(name))
        assert err.value.code is NotesCode.NOTES_STORE_INVALID and "CREATE EXTENSION vector" in err.value.message
    finally:
        with pg.admin() as con:
            con.execute(f"DROP DATABASE {name} WITH (FORCE)")


def test_psycopg_is_the_driver() -> None:
    assert tuple(int(p) for p in psycopg.__version__.split(".")[:3]) >= (3, 3, 6)  # Connection.wait(timeout=)


def test_notes_copy_on_the_command_line(amicus_home: Path, pg_url: str, tmp_path: Path) -> None:
    from tests.support.cli import run

    with NotesStore() as mine:  # the data folder's file: --from's default
        note = mine.workspace("w").add("copied by the command", parse_ref("John 3:16"))
    code, out, err = run("notes", "copy", "--to", pg_url, "--json")
    assert code == 0, err
    assert json.loads(out) == {"workspaces": 1, "notes": 1, "marks": 0, "skipped": 0}
    code, out, _ = run("notes", "copy", "--from", pg_url, "--to", str(tmp_path / "back.sqlite"), "--json")
    assert code == 0 and json.loads(out)["notes"] == 1
    with NotesStore(tmp_path / "back.sqlite") as back:
        assert back.workspace("w").get(note.id).text == "copied by the command"
    superuser = pg_url.replace("amicus_app@", "postgres@")
    code, out, _ = run("notes", "copy", "--to", superuser, "--json")
    assert code == 1 and json.loads(out)["error"]["code"] == "NOTES_STORE_INVALID" and "copied by" not in out


def test_a_questions_meaning_search_asks_pgvector_and_agrees_with_the_index(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from amicus_desktop.core.query import Filters
    from amicus_desktop.core.references import PassageRef
    from amicus_desktop.notes.pgvectors import PgNotesVectors
    from amicus_desktop.notes.view import NotesVectors

    rng = np.random.default_rng(11)
    with PgNotesStore(pg_url) as store:
        ws = store.workspace("w")
        refs = ["Rom 9:11", "John 3:16", None, "Rom 8:28"]
        notes = [ws.add(f"note {i}", parse_ref(refs[i % 4]) if refs[i % 4] else None) for i in range(80)]
        ws.store_vectors("m", [(n, rng.standard_normal(16).astype(np.float32)) for n in notes[:70]])  # 10 pending
        ws.store_vectors("other", [(n, rng.standard_normal(16).astype(np.float32)) for n in notes])
        assert isinstance(ws.search().view("m", embedded_only=True).vectors, NotesVectors)  # the default
        monkeypatch.setenv("AMICUS_NOTES_VECTORS", "pgvector")
        view = ws.search().view("m", embedded_only=True)
        assert isinstance(view.vectors, PgNotesVectors)
        memory = NotesVectors(view.index)
        q = rng.standard_normal(16).astype(np.float32)
        some = [r for r in view.index.rowids[: view.index.size][::3].tolist()]

        def same(a: list[tuple[int, float]], b: list[tuple[int, float]]) -> None:
            assert [i for i, _ in a] == [i for i, _ in b]
            assert all(abs(x - y) < 1e-5 for (_, x), (_, y) in zip(a, b, strict=True))

        for filters in (Filters(), Filters(books=frozenset({"romans"})),
                        Filters(source_types=frozenset({"user_note"})),
                        Filters(passages=(PassageRef("romans", 8, 27, 30), PassageRef("john", 3)))):  # marked
            same(view.vectors.nearest(q, 40, filters), memory.nearest(q, 40, filters))
        assert view.vectors.nearest(q, 40, Filters(scholars=frozenset({"calvin"}))) == []
        same(view.vectors.nearest_among(q, some, 10), memory.nearest_among(q, some, 10))
        d_pg, d_mem = view.vectors.distances(q, some), memory.distances(q, some)
        assert d_pg.keys() == d_mem.keys() and all(abs(d_pg[k] - d_mem[k]) < 1e-5 for k in d_pg)
        assert len(view.vectors.nearest(q, 100)) == 70  # the pending notes have no vector of this model
        late = ws.add("written after the question's index")
        ws.store_vectors("m", [(late, q)])
        assert late.id not in {view.index.note_ids[view.index.slot(r)] for r, _ in view.vectors.nearest(q, 5)}

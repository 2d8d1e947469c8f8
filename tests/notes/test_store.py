"""The notes store: where it lives, who may read it, its schema and upgrades, several processes at once,
and a public face that cannot be asked for every workspace."""

from __future__ import annotations

import inspect
import re
import stat
import subprocess
import sys
from pathlib import Path

import apsw
import numpy as np
import pytest

from amicus_desktop import paths
from amicus_desktop.notes import NotesCode, NotesError, NotesStore, Workspace, parse_ref
from amicus_desktop.notes.pgmarks import PgMarks
from amicus_desktop.notes.pgsearch import PgWorkspaceSearch
from amicus_desktop.notes.pgworkspace import PgWorkspace
from amicus_desktop.notes.postgres import PgNotesStore
from amicus_desktop.notes.schema import SCHEMA_VERSION
from amicus_desktop.notes.search import WorkspaceSearch, keyword_search
from tests.support.notes_v1 import V1_NOTES, write_v1_store


def test_the_store_lives_in_a_private_folder_of_its_own(amicus_home: Path) -> None:
    with NotesStore() as store:
        store.workspace("w").add("a note")
        path = store.path
    assert path == paths.notes_path() and path.is_relative_to(amicus_home)
    assert path.parent != paths.default_db_path().parent  # never beside the default scripture.db
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    con = apsw.Connection(str(path))
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


def test_notes_survive_closing_and_reopening(tmp_path: Path) -> None:
    path = tmp_path / "n.sqlite"
    with NotesStore(path) as store:
        note = store.workspace("w").add("kept", parse_ref("John 1:1"))
    with NotesStore(path) as store:
        assert store.workspace("w").get(note.id) == note


def test_a_newer_store_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "n.sqlite"
    with NotesStore(path) as store:
        store.workspace("w").add("from the future")
    con = apsw.Connection(str(path))
    con.execute("UPDATE store_meta SET value = '99' WHERE key = 'schema_version'")
    con.close()
    before = path.read_bytes()
    with pytest.raises(NotesError) as err:
        NotesStore(path)
    assert err.value.code is NotesCode.NOTES_STORE_INVALID and "newer" in err.value.message
    assert path.read_bytes() == before


@pytest.mark.parametrize("content", [b"this is not a database at all" * 100, b""])
def test_a_file_that_is_not_a_store(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "n.sqlite"
    if content:
        path.write_bytes(content)
        with pytest.raises(NotesError) as err:
            NotesStore(path)
        assert err.value.code is NotesCode.NOTES_STORE_INVALID
    else:  # an empty file is a new store
        path.write_bytes(content)
        with NotesStore(path) as store:
            assert store.workspace("w").count() == 0


def test_another_programs_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    con = apsw.Connection(str(path))
    con.execute("CREATE TABLE t(x)")
    con.close()
    with pytest.raises(NotesError) as err:
        NotesStore(path)
    assert err.value.code is NotesCode.NOTES_STORE_INVALID


def _layout(path: Path) -> list[tuple[str, str]]:
    con = apsw.Connection(str(path))
    try:
        rows = con.execute("SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' "
                           "ORDER BY name").fetchall()
    finally:
        con.close()
    return [(str(n), re.sub(r"\s+", " ", str(s or ""))) for n, s in rows]


def test_v1_data_is_upgraded_in_place(tmp_path: Path) -> None:
    old = write_v1_store(tmp_path / "old" / "notes.sqlite")
    with NotesStore(old) as store:
        alice, bob = store.workspace("alice"), store.workspace("bob")
        assert [n.id for n in alice.notes()] == [n[1] for n in V1_NOTES if n[0] == "alice"]
        first = alice.get("note:00000000000000a1")
        assert first.text == V1_NOTES[0][2] and first.ref == parse_ref("Romans 9:11") and first.models == ("m",)
        assert alice.get("note:00000000000000a2").ref == parse_ref("Romans 9")
        assert [n.id for n in alice.pending("m")] == ["note:00000000000000a2"]  # vectors kept as they were
        index = alice.search().index("m")
        assert index.count == 2 and index.pending == 1 and index.matrix.shape[1] == 4
        assert [r for r, _ in keyword_search(index, ["election"], 10)] == [1]
        assert [r for r, _ in keyword_search(bob.search().index("m"), ["election"], 10)] == [3]
        added = alice.add("after the upgrade: election again")
        added_row = alice.search().rowids_of([added.id])[added.id]
        assert {r for r, _ in keyword_search(alice.search().index("m"), ["election"], 10)} == {1, added_row}
        bob.remove("note:00000000000000b1")
        assert bob.search().index("m").count == 0
    con = apsw.Connection(str(old))
    assert con.execute("SELECT value FROM store_meta WHERE key = 'schema_version'").fetchone()[0] == str(SCHEMA_VERSION)
    con.close()
    with NotesStore(tmp_path / "new" / "notes.sqlite") as fresh:
        fresh.workspace("alice").add("x")
    assert _layout(old) == _layout(tmp_path / "new" / "notes.sqlite")  # an upgraded store is a new store


def test_an_upgrade_that_fails_leaves_v1_as_it_was(tmp_path: Path) -> None:
    old = write_v1_store(tmp_path / "notes.sqlite")
    con = apsw.Connection(str(old))
    con.execute("CREATE TABLE removed_notes(x)")  # in the way of the upgrade's own table: it fails half-way
    con.close()
    with pytest.raises(NotesError) as err:
        NotesStore(old)
    assert err.value.code is NotesCode.NOTES_STORE_INVALID
    con = apsw.Connection(str(old))
    assert con.execute("SELECT value FROM store_meta WHERE key = 'schema_version'").fetchone()[0] == "1"
    columns = [str(r[1]) for r in con.execute("PRAGMA table_info(workspaces)")]
    assert columns == ["workspace_id", "created"]  # the columns added before the failure were rolled back
    con.close()


_WRITER = """
import sys
from amicus_desktop.notes import NotesStore
store = NotesStore(sys.argv[1])
ws = store.workspace(sys.argv[2])
for i in range(int(sys.argv[3])):
    ws.add(f"note {i} from {sys.argv[2]}")
store.close()
"""


def test_several_processes_write_at_once(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite"
    NotesStore(path).close()
    procs = [subprocess.Popen([sys.executable, "-c", _WRITER, str(path), ws, "40"], stderr=subprocess.PIPE)
             for ws in ("alice", "alice", "bob")]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err.decode()
    with NotesStore(path) as store:
        assert store.workspace("alice").count() == 80 and store.workspace("bob").count() == 40
        assert len({n.id for n in store.workspace("alice").notes()}) == 80


# -- scoping by construction: the public face -------------------------------------------------------

def _public(cls: type) -> dict[str, object]:
    return {name: member for name, member in inspect.getmembers(cls) if not name.startswith("_")}


@pytest.mark.parametrize("cls", [NotesStore, PgNotesStore])
def test_the_store_has_no_door_but_one_workspace(cls: type) -> None:
    # (workspace_ids: the ids alone, for moving a whole store — notes copy; no note comes out of it)
    assert set(_public(cls)) == {"workspace", "workspace_ids", "close"}
    (param,) = [p for p in inspect.signature(cls.workspace).parameters if p != "self"]
    assert param == "workspace_id"
    assert [p for p in inspect.signature(cls.workspace_ids).parameters if p != "self"] == []


@pytest.mark.parametrize("cls", [Workspace, WorkspaceSearch, PgWorkspace, PgWorkspaceSearch, PgMarks])
def test_nothing_that_reads_notes_takes_a_workspace(cls: type) -> None:
    """No method of a workspace (or its searches) can be pointed at another workspace, nor hands out the
    connection that could."""
    for name, member in _public(cls).items():
        if callable(member):
            params = inspect.signature(member).parameters
            assert not [p for p in params if "workspace" in p.lower()], f"{cls.__name__}.{name}"
        assert "con" not in name.lower(), f"{cls.__name__}.{name}"


def test_every_statement_a_workspace_runs_is_bound_to_it(tmp_path: Path) -> None:
    """Trace every SQL statement while one workspace does everything it can: each one that reads or writes
    notes binds this workspace's id, and no statement names another workspace's keyword index."""
    with NotesStore(tmp_path / "n.sqlite") as store:
        other = store.workspace("other").add("other's note: election")
        ws = store.workspace("mine")
        seen: list[tuple[str, tuple[object, ...]]] = []

        def trace(_cursor: object, sql: str, bindings: object) -> bool:
            seen.append((sql, tuple(bindings) if isinstance(bindings, (list, tuple)) else ()))
            return True

        store._connection().exec_trace = trace
        a = ws.add("election and grace", parse_ref("Rom 9:11"))
        b = ws.save("a second note")
        ws.save("a second note, longer", note_id=b.id, expected_updated=b.updated)
        ws.edit(a.id, ref=parse_ref("Rom 9"))
        ws.store_vectors("m", [(n, np.ones(4)) for n in ws.pending("m")])
        ws.pending_count("m")
        ws.notes(on=parse_ref("Romans 9:11"))
        ws.find(other.id)
        ws.count()
        _ = ws.generation
        search = ws.search()
        search.index("m")
        ws.add("after the index was read")
        search.index("m")  # patched: reads what changed since
        search.fetch([1, 2, 3])
        search.rowids_of([other.id, a.id])
        ws.restore(ws.remove(b.id))
        store._connection().exec_trace = None
    assert len(seen) > 20
    for sql, bindings in seen:
        flat = " ".join(sql.split())
        assert "notes_fts_other" not in flat, flat
        touches_notes = re.search(r"\b(notes|workspaces)\b", flat) is not None
        if touches_notes:  # a row of this workspace: found by its id, or written with it
            assert "mine" in bindings, flat
            assert "workspace_id = ?" in flat or flat.startswith("INSERT"), flat
        elif "note_vectors" in flat:
            assert re.search(r"note_rowid = \?|VALUES", flat), flat


_KEEPS_WRITING = """
import sys
from amicus_desktop.notes import NotesStore
ws = NotesStore(sys.argv[1]).workspace("w")
note = ws.add("draft 0")
print(note.id, flush=True)
i = 0
while True:  # an editor's autosave, as fast as it can go, until it is killed
    i += 1
    note = ws.save(f"draft {i}", note_id=note.id) if i % 3 else ws.add(f"note {i}")
    print(note.id, note.text, flush=True)
"""


def test_a_killed_writer_loses_nothing_it_was_told_was_saved(tmp_path: Path) -> None:
    """SIGKILL in the middle of saving: every save that returned is in the store, which opens clean."""
    path = tmp_path / "notes.sqlite"
    NotesStore(path).close()
    proc = subprocess.Popen([sys.executable, "-c", _KEEPS_WRITING, str(path)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    saved: dict[str, str] = {}
    for line in proc.stdout:
        note_id, _, text = line.rstrip("\n").partition(" ")
        saved[note_id] = text or saved.get(note_id, "")
        if len(saved) >= 40:
            break
    proc.kill()
    proc.wait(timeout=30)
    proc.stdout.close()
    con = apsw.Connection(str(path))
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    with NotesStore(path) as store:
        ws = store.workspace("w")
        for note_id, text in saved.items():
            kept = ws.get(note_id)  # every note it reported saved is there, at least as reported
            if text:
                number = int(text.split()[-1])
                assert int(kept.text.split()[-1]) >= number


def test_one_error_tree_and_a_busy_store_is_busy_not_damaged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue #30 item 9 / #31 item 4: NotesError is an AmicusError (the window, the CLI and the service classify
    it by its code); a store another writer holds is NOTES_STORE_BUSY — "try again" — at open and at a write,
    never NOTES_STORE_INVALID's "move it aside" (that advice would set aside a healthy store)."""
    from amicus_desktop.core.errors import AmicusError
    from amicus_desktop.notes import store as notes_store
    from amicus_desktop.serve.errors import ServiceError

    monkeypatch.setattr(notes_store, "BUSY_TIMEOUT_MS", 50)
    path = tmp_path / "n.sqlite"
    with NotesStore(path) as store:
        ws = store.workspace("w")
        ws.add("before")
        holder = apsw.Connection(str(path))
        holder.execute("BEGIN IMMEDIATE")  # another program's write in progress
        try:
            with pytest.raises(NotesError) as err, notes_store.store_errors():
                ws.add("during")
        finally:
            holder.close()
        assert err.value.code is NotesCode.NOTES_STORE_BUSY
        assert "try again" in err.value.message and "move it aside" not in err.value.message
        assert [n.text for n in ws.notes()] == ["before"]  # healthy, and written to again once free
        ws.add("after")
    holder = apsw.Connection(str(path))
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(NotesError) as err:
            NotesStore(path).workspace("w").notes()
    finally:
        holder.close()
    assert err.value.code is NotesCode.NOTES_STORE_BUSY
    assert isinstance(err.value, AmicusError) and err.value.notes_only
    assert (ServiceError.of(err.value).code, ServiceError.of(err.value).status) == ("NOTES_STORE_BUSY", 503)
    damaged = NotesError(NotesCode.NOTES_STORE_INVALID, "damaged")
    assert damaged.notes_only and ServiceError.of(damaged).status == 500
    assert not NotesError(NotesCode.NOTE_NOT_FOUND, "gone").notes_only

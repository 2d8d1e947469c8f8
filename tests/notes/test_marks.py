"""Bookmarks, highlights and labels (notes/marks.py): one workspace's, listed, searched, exported and imported
with the notes, in a store upgraded from an older layout."""

from __future__ import annotations

import json
from pathlib import Path

import apsw
import pytest

from amicus_desktop.core.references import PassageRef
from amicus_desktop.notes import NotesCode, NotesError, NotesStore
from amicus_desktop.notes.exchange import export_json, import_notes
from amicus_desktop.notes.marks import MarkKind
from amicus_desktop.notes.schema import UPGRADES, write_transaction
from tests.support.notes_v1 import write_v1_store

ROM_8_28 = PassageRef("romans", 8, 28, 28)


def test_marks_are_added_listed_searched_and_edited_in_one_workspace(tmp_path: Path) -> None:
    with NotesStore(tmp_path / "notes.sqlite") as store:
        marks = store.workspace("alice").marks()
        b = marks.add("bookmark", ROM_8_28, labels=["Promises", " comfort  "])
        h = marks.add(MarkKind.HIGHLIGHT, PassageRef("romans", 8, 31, 39), colour="green", labels=["promises"])
        marks.add("highlight", PassageRef("john", 3, 16, 16))
        assert b.colour is None and b.labels == ("Promises", "comfort") and h.colour == "green"
        assert [m.id for m in marks.marks(on=PassageRef("romans", 8, 35, 35))] == [h.id]
        assert [m.id for m in marks.marks(on=PassageRef("romans", 8))] == [b.id, h.id]
        assert [m.id for m in marks.marks(label="PROMISES")] == [b.id, h.id]
        assert [m.id for m in marks.marks(kind=MarkKind.BOOKMARK)] == [b.id]
        assert marks.labels() == [("Promises", 2), ("comfort", 1)]
        assert [m.ref.label() for m in marks.search("john 3")] == ["John 3:16"]
        assert [m.id for m in marks.search("comf")] == [b.id]
        edited = marks.edit(h.id, colour="pink", labels=["victory"])
        assert edited.colour == "pink" and marks.get(h.id).labels == ("victory",)
        with pytest.raises(NotesError) as err:
            marks.add("highlight", ROM_8_28, colour="purple")
        assert err.value.code is NotesCode.NOTE_INVALID
        with pytest.raises(NotesError):
            marks.add("underline", ROM_8_28)


def test_another_workspace_never_sees_or_removes_a_mark(tmp_path: Path) -> None:
    with NotesStore(tmp_path / "notes.sqlite") as store:
        mine = store.workspace("alice").marks().add("bookmark", ROM_8_28, labels=["private"])
        bob = store.workspace("bob").marks()
        assert bob.marks() == [] and bob.search("private") == [] and bob.labels() == []
        with pytest.raises(NotesError) as err:
            bob.remove(mine.id)
        assert err.value.code is NotesCode.NOTE_NOT_FOUND
        assert store.workspace("alice").marks().get(mine.id) == mine


def test_marks_travel_with_the_notes_export_into_the_workspace_asked_for(tmp_path: Path) -> None:
    with NotesStore(tmp_path / "notes.sqlite") as store:
        alice = store.workspace("alice")
        alice.add("a note", ROM_8_28)
        alice.marks().add("highlight", ROM_8_28, colour="blue", labels=["sermon 12"])
        data = export_json(alice)
        assert [m["colour"] for m in data["marks"]] == ["blue"]
        data["marks"].append({"kind": "bookmark", "ref": {"book_id": "romans", "chapter_num": 99}})
        report = import_notes(store.workspace("carol"), data)
        assert report.to_json()["marks_imported"] == 1 and report.to_json()["mark_errors"][0]["index"] == 1
        carol = store.workspace("carol").marks().marks()
        assert [(m.colour, m.labels) for m in carol] == [("blue", ("sermon 12",))]
        old_style = import_notes(store.workspace("dan"), {"workspace": "x", "notes": []}).to_json()
        assert old_style == {"imported": 0, "errors": []}


def test_a_version_2_store_gains_marks_and_keeps_its_notes(tmp_path: Path) -> None:
    old = write_v1_store(tmp_path / "notes.sqlite")
    con = apsw.Connection(str(old))
    with write_transaction(con):  # version 2 as it was: v1 and its registered step
        UPGRADES[1](con)
        con.execute("UPDATE store_meta SET value = '2' WHERE key = 'schema_version'")
    assert "marks" not in {str(n) for (n,) in con.execute("SELECT name FROM sqlite_master")}
    con.close()
    with NotesStore(old) as store:
        ws = store.workspace("alice")
        before = ws.count()
        ws.marks().add("bookmark", ROM_8_28)
        assert ws.count() == before and len(ws.marks().marks()) == 1


def test_the_command_lists_and_searches_one_workspace(amicus_home: Path) -> None:
    from tests.support.cli import cli

    with NotesStore() as store:
        store.workspace("alice").marks().add("highlight", ROM_8_28, colour="green", labels=["promises"])
        store.workspace("alice").marks().add("bookmark", PassageRef("john", 3, 16, 16))
        store.workspace("bob").marks().add("bookmark", ROM_8_28, labels=["promises"])
    proc = cli("notes", "marks", "--workspace", "alice", "--search", "promise", "--json")  # a real process
    assert proc.returncode == 0, proc.stderr
    body = json.loads(proc.stdout)
    assert [m["ref"]["verse_start"] for m in body["marks"]] == [28] and body["labels"] == {"promises": 1}
    proc = cli("notes", "marks", "--workspace", "alice", "--ref", "John 3")
    assert proc.returncode == 0 and "John 3:16" in proc.stdout and "Romans" not in proc.stdout

"""One workspace's notes: add, save, edit, remove, restore, vectors — and nothing of another workspace."""

from __future__ import annotations

import numpy as np
import pytest

from amicus_desktop.notes import KEEP, NotesCode, NotesError, NotesStore, parse_ref
from amicus_desktop.notes.model import Note
from amicus_desktop.notes.workspace import decide_edit

# ``store``: tests/notes/conftest.py — each test runs on the SQLite file and on PostgreSQL.


def test_a_note_is_saved_with_its_reference_and_times(store: NotesStore) -> None:
    ws = store.workspace("alice")
    note = ws.add("Election is not of works.", parse_ref("Rom 9:11"))
    assert note.id.startswith("note:") and note.workspace == "alice"
    assert note.created == note.updated and note.created.endswith("Z")
    again = store.workspace("alice").get(note.id)
    assert again.text == "Election is not of works."
    assert (again.ref.book_id, again.ref.chapter, again.ref.verse_start, again.ref.verse_end) == ("romans", 9, 11, 11)
    assert again.to_json()["ref"] == {"book_id": "romans", "chapter_num": 9, "verse_start": 11, "verse_end": 11}


def test_another_workspace_never_finds_the_note(store: NotesStore) -> None:
    note = store.workspace("alice").add("private")
    bob = store.workspace("bob")
    assert bob.find(note.id) is None
    assert bob.notes() == [] and bob.count() == 0
    with pytest.raises(NotesError) as err:
        bob.get(note.id)
    assert err.value.code is NotesCode.NOTE_NOT_FOUND and "private" not in err.value.message
    for act in (lambda: bob.edit(note.id, "mine now"), lambda: bob.remove(note.id)):
        with pytest.raises(NotesError) as err:
            act()
        assert err.value.code is NotesCode.NOTE_NOT_FOUND
    assert store.workspace("alice").get(note.id).text == "private"


def test_autosave_of_unchanged_text_writes_nothing(store: NotesStore) -> None:
    ws = store.workspace("w")
    note = ws.save("draft")
    same = ws.save("draft", note_id=note.id)
    assert same == note
    later = ws.save("draft, longer", note_id=note.id, expected_updated=note.updated)
    assert later.updated > note.updated and later.created == note.created
    with pytest.raises(NotesError) as err:  # an editor still holding the first version
        ws.save("stale edit", note_id=note.id, expected_updated=note.updated)
    assert err.value.code is NotesCode.NOTE_CONFLICT
    assert ws.get(note.id).text == "draft, longer"


def test_edit_keeps_or_changes_the_reference(store: NotesStore) -> None:
    ws = store.workspace("w")
    note = ws.add("on John 3", parse_ref("John 3"))
    assert ws.edit(note.id, "still on John 3").ref == note.ref
    moved = ws.edit(note.id, ref=parse_ref("John 3:16"))
    assert moved.ref.verse_start == 16 and moved.text == "still on John 3"
    assert ws.edit(note.id, ref=None).ref is None
    assert ws.edit(note.id, "x", KEEP).ref is None


def test_one_rule_decides_an_edit_for_both_stores() -> None:
    # the pure decision both stores write (they only run its SQL): unchanged, moved, rewritten, stale
    old = Note("n1", "w", "grace", parse_ref("Rom 9"), "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z",
               ("model",))
    assert decide_edit(old, "grace", KEEP, old.updated) is None
    assert decide_edit(old, None, parse_ref("Romans 9"), None) is None  # the same passage, typed otherwise
    moved = decide_edit(old, None, parse_ref("Rom 9:11"), None)
    assert moved is not None and not moved.forget_vectors and moved.note.models == ("model",)
    assert moved.note.ref is not None and moved.note.ref.verse_start == 11 and moved.note.updated > old.updated
    assert moved.columns == ("grace", "romans", 9, 11, 11, moved.note.updated)
    rewritten = decide_edit(old, "grace alone", None, None)
    assert rewritten is not None and rewritten.forget_vectors and rewritten.note.models == ()
    assert rewritten.columns[:5] == ("grace alone", None, None, None, None)
    with pytest.raises(NotesError) as err:
        decide_edit(old, "stale", KEEP, "2025-12-31T00:00:00.000Z")
    assert err.value.code is NotesCode.NOTE_CONFLICT


def test_updated_always_moves_forward(store: NotesStore) -> None:
    ws = store.workspace("w")
    note = ws.add("a")
    stamps = [note.updated]
    for i in range(20):  # faster than the clock's millisecond
        stamps.append(ws.edit(note.id, f"a{i}").updated)
    assert stamps == sorted(set(stamps))


def test_remove_then_restore_gives_the_note_back(store: NotesStore) -> None:
    ws = store.workspace("w")
    note = ws.add("keep me", parse_ref("Rom 8:28"))
    gone = ws.remove(note.id)
    assert ws.find(note.id) is None
    back = ws.restore(gone)
    assert (back.id, back.text, back.ref, back.created, back.updated) == (
        note.id, note.text, note.ref, note.created, note.updated)
    clash = ws.restore(gone)  # the id is taken now: a new one
    assert clash.id != note.id and ws.count() == 2


def test_notes_on_a_passage(store: NotesStore) -> None:
    ws = store.workspace("w")
    chapter = ws.add("chapter", parse_ref("Romans 9"))
    verses = ws.add("verses", parse_ref("Romans 9:10-13"))
    ws.add("elsewhere", parse_ref("Romans 8:1"))
    ws.add("nowhere")
    assert [n.id for n in ws.notes(on=parse_ref("Romans 9:11"))] == [chapter.id, verses.id]
    assert [n.id for n in ws.notes(on=parse_ref("Romans 9:1"))] == [chapter.id]
    assert len(ws.notes()) == 4


@pytest.mark.parametrize("text", ["", "   \n", "x" * 100_001, "bad \ud800 text", "nul\x00"])
def test_text_that_cannot_be_a_note(store: NotesStore, text: str) -> None:
    with pytest.raises(NotesError) as err:
        store.workspace("w").add(text)
    assert err.value.code is NotesCode.NOTE_INVALID
    assert store.workspace("w").count() == 0


@pytest.mark.parametrize("workspace", ["", "A", "a_b", "a" * 65, "ä", "a b", "../x", None])
def test_workspace_ids(store: NotesStore, workspace: object) -> None:
    with pytest.raises(NotesError) as err:
        store.workspace(workspace)  # type: ignore[arg-type]
    assert err.value.code is NotesCode.WORKSPACE_INVALID


def test_vectors_are_per_model_and_forgotten_when_the_text_changes(store: NotesStore) -> None:
    ws = store.workspace("w")
    a, b = ws.add("first"), ws.add("second")
    assert [n.id for n in ws.pending("m1")] == [a.id, b.id]
    assert ws.store_vectors("m1", [(a, np.ones(4)), (b, np.ones(4))]) == 2
    assert ws.pending("m1") == [] and ws.pending_count("m2") == 2  # another model: embedded again
    ws.edit(a.id, ref=parse_ref("John 1"))  # the text is the same: the vector still describes it
    assert ws.pending("m1") == []
    ws.edit(a.id, "first, rewritten")
    assert [n.id for n in ws.pending("m1")] == [a.id]
    assert ws.store_vectors("m1", [(a, np.ones(4))]) == 0  # a vector of the old text is not kept
    ws.remove(b.id)
    assert ws.store_vectors("m1", [(b, np.ones(4))]) == 0

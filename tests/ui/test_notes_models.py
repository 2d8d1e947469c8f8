"""The notes pane's item model (``ui/notes/models.py``): a chapter's notes by verse, the whole list by passage,
the note itself under NoteRole, and a model Qt's model tester accepts — notes from a real notes store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from amicus_desktop.notes import NotesStore, parse_ref
from amicus_desktop.ui.notes.models import NoteRole, NotesModel


def test_a_chapters_notes_by_verse_and_the_whole_list_by_passage(qapp: Any, qtmodeltester: Any,
                                                                   tmp_path: Path) -> None:
    with NotesStore(tmp_path / "notes.sqlite") as store:
        space = store.workspace("personal")
        notes = (space.add("Not of works, but of him that calleth.", parse_ref("Rom 9:11")),
                 space.add("The potter and the clay.", parse_ref("Rom 9:20-21")),
                 space.add("On the whole chapter.", parse_ref("Romans 9")))
    model = NotesModel()
    model.set_notes(notes, in_chapter=True)
    qtmodeltester.check(model)
    shown = [model.data(model.index(r, 0)) for r in range(model.rowCount())]
    assert shown == ["v. 11 · Not of works, but of him that calleth.", "v. 20–21 · The potter and the clay.",
                     "Chapter · On the whole chapter."]
    assert model.data(model.index(1, 0), NoteRole) == notes[1] and model.note(1) == notes[1]
    assert model.note(3) is None and model.row_of(notes[2].id) == 2 and model.row_of("nope") == -1
    assert model.data(model.index(0, 0), Qt.ItemDataRole.AccessibleTextRole).startswith("Your note on Romans 9:11: ")
    model.set_notes(notes[:1], in_chapter=False)
    qtmodeltester.check(model)
    assert model.rowCount() == 1
    assert model.data(model.index(0, 0)) == "Romans 9:11 · Not of works, but of him that calleth."

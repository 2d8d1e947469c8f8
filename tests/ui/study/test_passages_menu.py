"""The filter bar's "My passages" (``ui/study/passages_menu.py``): what a workspace's marks offer, a choice's
passages and words, a choice its marks no longer hold dropped — marks from a real notes store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from amicus_desktop.notes import NotesStore, parse_ref
from amicus_desktop.notes.marks import MarkChoice, MarkKind
from amicus_desktop.ui.study.passages_menu import MarkedPassagesButton


def test_the_marks_offer_their_kinds_and_labels_and_a_choice_limits_the_passages(qapp: Any, tmp_path: Path) -> None:
    with NotesStore(tmp_path / "notes.sqlite") as store:
        marks = store.workspace("personal").marks()
        kept = [marks.add(MarkKind.BOOKMARK, parse_ref("Rom 9:11"), labels=["Promises"]),
                marks.add(MarkKind.BOOKMARK, parse_ref("John 3:16")),
                marks.add(MarkKind.HIGHLIGHT, parse_ref("Rom 8:28"), colour="green", labels=["promises"])]
    button = MarkedPassagesButton()
    changed: list[None] = []
    button.changed.connect(lambda: changed.append(None))
    assert [a.text() for a in button.menu_.actions()] == ["No bookmarks, highlights or labels in this workspace yet"]
    button.set_marks(kept)
    assert [a.text() for a in button.menu_.actions()] == ["My bookmarks (2)", "My highlights (1)",
                                                          "Labelled “Promises” (2)"]
    assert changed == [] and button.words() is None and button.passages() == ()
    button.menu_.actions()[2].trigger()  # the label, any case
    assert changed == [None] and button.chosen == [MarkChoice(label="Promises")]
    assert {(p.book_id, p.chapter, p.verse_start) for p in button.passages()} == {("romans", 9, 11), ("romans", 8, 28)}
    assert button.words() == "labelled “Promises” (2 passages)" and button.text().endswith("(1)")
    button.set_marks(kept[1:2])  # the labelled marks removed: the choice goes, the filter with it
    assert button.chosen == [] and button.passages() == () and len(changed) == 2
    button.deleteLater()

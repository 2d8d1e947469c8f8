"""Search my labelled passages (issue 34, item 6): the filter bar's *My passages* menu over the current
workspace's marks, a question limited to them, and the choice dropped when the workspace changes — the real
window offscreen, the real demo library, the real notes store (no proxy: keyword search)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction

from amicus_desktop.core.query import SearchMode
from amicus_desktop.core.references import ChapterRef, PassageRef
from amicus_desktop.core.results import ChunkMetadata
from amicus_desktop.notes import NotesStore
from tests.support.proxy import free_port

from .conftest import run, wait_for

ROM_8_28 = PassageRef("romans", 8, 28, 28)
JOHN_3 = PassageRef("john", 3, 16, 17)


def _entry(window: Any, text: str) -> QAction | None:
    return next((a for a in window.filter_bar.marked.menu_.actions() if a.text() == text), None)


def _covered(meta: ChunkMetadata) -> bool:
    return any(p.covers(meta) for p in (ROM_8_28, JOHN_3))


def test_a_question_searches_only_the_labelled_passages_of_this_workspace(harness: Any, qtbot: Any,
                                                                          demo_db: Path) -> None:
    window = harness.open(db=demo_db, proxy=f"http://127.0.0.1:{free_port()}", chapter="romans:8")
    s, bar = window.session, window.filter_bar
    wait_for(qtbot, lambda: s.reader.loaded_chapter == ChapterRef("romans", 8), timeout=30)
    with NotesStore() as store:
        marks = store.workspace(s.notebook.workspace_id).marks()
        marks.add("bookmark", ROM_8_28, labels=["promises"])
        marks.add("highlight", JOHN_3, colour="yellow", labels=["Promises", "gospel"])
    window.study_control.refresh_marks()
    wait_for(qtbot, lambda: _entry(window, "Labelled “promises” (2)") is not None, timeout=20)
    assert _entry(window, "My bookmarks (1)") is not None and _entry(window, "Labelled “gospel” (1)") is not None

    s.set_mode(SearchMode.KEYWORD)
    window.ask.edit.setText("love grace")
    window.ask.askRequested.emit("love grace")
    wait_for(qtbot, lambda: s.question.view is not None and bool(s.question.view.result.results), timeout=30)
    everywhere = s.question.view.result.results
    assert not all(_covered(r.metadata) for r in everywhere)  # unfiltered, the library answers from elsewhere too
    model = window.results.results_model  # the snippets' tooltips mark the searched words
    tips = [model.index(r, model.TITLE).data(Qt.ItemDataRole.ToolTipRole) for r in range(model.rowCount())]
    assert any(t.startswith("<qt>") and ("<b>love" in t.lower() or "<b>grace" in t.lower()) for t in tips)
    assert all(model.chunk(r).chunk_id in tips[r] for r in range(model.rowCount()))

    entry = _entry(window, "Labelled “promises” (2)")
    assert entry is not None
    entry.trigger()  # the question on screen is asked again, limited to the two passages
    wait_for(qtbot, lambda: s.search.filters.passages == (JOHN_3, ROM_8_28))
    wait_for(qtbot, lambda: s.question.view is not None and s.question.view.result.trace.filters.passages
             == (JOHN_3, ROM_8_28), timeout=30)
    found = s.question.view.result.results
    assert found and all(_covered(r.metadata) for r in found)
    assert bar.marked.text() == "My passages (1)"
    assert "labelled “promises” (2 passages)" in bar.summary.text()
    assert bar.toggle.text().endswith("Filters (1)")

    # another workspace: the passages were the last one's — dropped at once, and its own marks offered
    other = s.notebook.workspaces.create("Second")
    run(qtbot, s.notebook.switch(other.id))
    wait_for(qtbot, lambda: s.notebook.workspace_id == other.id)
    assert s.search.filters.passages == ()
    wait_for(qtbot, lambda: bar.marked.chosen == [] and _entry(window, "Labelled “promises” (2)") is None)
    assert bar.marked.text() == "My passages"


def test_clear_filters_drops_the_passages_too(harness: Any, qtbot: Any, demo_db: Path) -> None:
    window = harness.open(db=demo_db, proxy=f"http://127.0.0.1:{free_port()}", chapter="romans:8")
    s, bar = window.session, window.filter_bar
    wait_for(qtbot, lambda: s.reader.loaded_chapter == ChapterRef("romans", 8), timeout=30)
    with NotesStore() as store:
        store.workspace(s.notebook.workspace_id).marks().add("bookmark", ROM_8_28)
    window.study_control.refresh_marks()
    wait_for(qtbot, lambda: _entry(window, "My bookmarks (1)") is not None, timeout=20)
    entry = _entry(window, "My bookmarks (1)")
    assert entry is not None
    entry.trigger()
    wait_for(qtbot, lambda: s.search.filters.passages == (ROM_8_28,))
    bar.clear_button.click()
    wait_for(qtbot, lambda: not s.search.filters.active)
    assert bar.marked.chosen == [] and bar.marked.passages() == ()
    # the mark removed while chosen: the choice goes with it, the filter too (never "no passages: everything")
    entry = _entry(window, "My bookmarks (1)")
    assert entry is not None
    entry.trigger()
    wait_for(qtbot, lambda: s.search.filters.passages == (ROM_8_28,))
    with NotesStore() as store:
        marks = store.workspace(s.notebook.workspace_id).marks()
        marks.remove(marks.marks()[0].id)
    window.study_control.refresh_marks()
    wait_for(qtbot, lambda: s.search.filters.passages == () and bar.marked.chosen == [], timeout=20)

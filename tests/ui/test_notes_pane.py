"""The reader's notes in the window, on real widgets offscreen: a real study library, the real local proxy.

Done when (issue #24): a note written in the app is found by the next question, shows as "Your note" in the
results and in the copied context, and is absent for another workspace. Around it: the margin mark, the
notes pane (keyboard, the list with search, delete and undo), the workspace switch visible in the title,
status bar and results header, "My notes" among the filter bar's source types, and the item model checked
by qtmodeltester.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication, QTextCursor
from PySide6.QtWidgets import QApplication, QInputDialog

from amicus_desktop.core.query import USER_NOTE
from amicus_desktop.core.references import ChapterRef
from amicus_desktop.notes import NotesStore
from amicus_desktop.session.notes import EditorState
from tests.support.proxy import free_port

from .conftest import wait_for

NOTE = "Election before birth: not of works but of him that calleth. Remember the potter and the clay."


def _select_verses(window: Any, first: int, last: int) -> None:
    reader = window.reader
    anchors = dict((v, p) for p, v in reader._anchors())
    cursor = reader.text.textCursor()
    cursor.setPosition(anchors[first] + 1)
    cursor.setPosition(anchors[last] + 2, QTextCursor.MoveMode.KeepAnchor)
    reader.text.setTextCursor(cursor)
    reader.text.setFocus(Qt.FocusReason.OtherFocusReason)


def _ask(window: Any, qtbot: Any, question: str) -> Any:
    s = window.session
    window.ask.edit.setText(question)
    qtbot.mouseClick(window.ask.button, Qt.MouseButton.LeftButton)
    wait_for(qtbot, lambda: s.question.view is not None and not s.question.busy
             and s.question.view.result.query == question, timeout=30)
    return s.question.view


@pytest.mark.slow
def test_a_note_written_in_the_window_is_found_cited_as_yours_and_absent_from_another_workspace(
        harness, qtbot, qtmodeltester, study_db: Path, local_proxy) -> None:
    window = harness.open(db=study_db, proxy=local_proxy.url, chapter="romans:9")
    s, pane = window.session, window.notes_control.pane
    wait_for(qtbot, lambda: s.can_ask and s.reader.loaded_chapter == ChapterRef("romans", 9), timeout=30)
    assert window.windowTitle() == "Romans 9 — Personal — Amicus Desktop"
    assert window.workspace_switcher.currentText() == "Workspace: Personal"
    wait_for(qtbot, lambda: pane.heading.text() == "My notes on Romans 9 (0)")
    # select verses 11–13 in the reader and press Ctrl+N: a new note on them, the focus in its text
    _select_verses(window, 11, 13)
    qtbot.keyClick(window.reader.text, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    wait_for(qtbot, lambda: s.notebook.editor.is_open and pane.editor.hasFocus())
    assert pane.editor_title.text() == "New note on Romans 9:11-13"
    qtbot.keyClicks(pane.editor, NOTE)
    wait_for(qtbot, lambda: s.notebook.editor.status.state is EditorState.SAVED, timeout=10)  # autosaved
    assert pane.editor_status.text().startswith("Saved ")
    qtbot.keyClick(pane.editor, Qt.Key.Key_Escape)  # done
    wait_for(qtbot, lambda: not s.notebook.editor.is_open and pane.model.rowCount() == 1)
    qtmodeltester.check(pane.model, force_py=True)
    assert pane.model.index(0, 0).data().startswith("v. 11–13 · Election before birth")
    # the margin mark on verse 11, its notes in the tooltip; clicking it selects the note
    wait_for(qtbot, lambda: 11 in window.reader.margin_marks())
    assert "Your note on Romans 9:11-13" in window.reader.margin_marks()[11]
    assert "✎" in window.reader.text.toPlainText()
    window.reader.noteMarkClicked.emit(11)
    assert pane.current is not None and pane.current.text == NOTE and pane.list.hasFocus()
    assert "potter" in pane.view.toPlainText()

    # the next question finds it, as the reader's own
    view = _ask(window, qtbot, "election not of works, the potter and the clay")
    note_rows = [r for r in view.result.results if r.candidate.source_type == USER_NOTE]
    assert note_rows, "the note written in the window is among the results"
    row = window.results.results_model.row_of(note_rows[0].chunk_id)
    model = window.results.results_model
    assert model.index(row, model.TITLE).data() == "Your note — Romans 9:11-13"
    assert model.index(row, model.TITLE).data(Qt.ItemDataRole.AccessibleTextRole).startswith("Your own note:")
    assert model.index(row, model.TITLE).data(Qt.ItemDataRole.DecorationRole) is not None
    assert window.results.title.text().endswith("· in Personal")
    QGuiApplication.clipboard().clear()
    window.actions_by_id["copy_context"].trigger()
    wait_for(qtbot, lambda: "Your note on Romans 9:11-13" in QGuiApplication.clipboard().text(), timeout=15)
    assert NOTE in QGuiApplication.clipboard().text()
    # "My notes" among the source types, with the workspace's count
    labels = [a.text() for a in window.filter_bar.menus["source_types"].actions()]
    assert "My notes (1)" in labels

    # another workspace: the same question asked again there, and the note is nowhere
    window.menus.workspace_menu.new_workspace("Study group")
    wait_for(qtbot, lambda: s.notebook.workspace_id == "study-group" and s.question.view is not None
             and not s.question.busy and s.question.view.result.context.workspace == "study-group", timeout=30)
    assert window.windowTitle() == "Romans 9 — Study group — Amicus Desktop"
    assert window.workspace_switcher.currentText() == "Workspace: Study group"
    again = s.question.view
    assert window.results.title.text().endswith("· in Study group")
    assert all(c.source_type != USER_NOTE for c in again.result.candidates)
    QGuiApplication.clipboard().clear()
    window.actions_by_id["copy_context"].trigger()
    wait_for(qtbot, lambda: QGuiApplication.clipboard().text() != "", timeout=15)
    assert "Your note" not in QGuiApplication.clipboard().text() and "potter and the clay" not in \
        QGuiApplication.clipboard().text()
    wait_for(qtbot, lambda: pane.heading.text() == "My notes on Romans 9 (0)" and not window.reader.margin_marks())
    # and back: the note is there again
    window.workspace_switcher.activated.emit(window.workspace_switcher.findData("personal"))
    wait_for(qtbot, lambda: pane.model.rowCount() == 1 and 11 in window.reader.margin_marks())


def test_the_note_list_searches_deletes_with_undo_and_follows_the_command_line(harness, qtbot, qtmodeltester,
                                                                             small_db: Path) -> None:
    window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}", chapter="romans:9")
    s, pane = window.session, window.notes_control.pane
    wait_for(qtbot, lambda: s.reader.loaded_chapter == ChapterRef("romans", 9))
    with NotesStore() as store:  # as `amicus-desktop notes add` would, from another process's connection
        ws = store.workspace("personal")
        ws.add("**Grace** alone, *not* works <script>x</script>", _ref("Romans 9:16"))
        ws.add("Jacob and Esau", _ref("Romans 9:13"))
        ws.add("Born of water and the Spirit", _ref("John 3:5"))
    wait_for(qtbot, lambda: pane.model.rowCount() == 2, timeout=15)  # polled: the chapter's two
    # Ctrl+Shift+L: all notes, the focus in the search box; typing narrows the list
    window.actions_by_id["find_notes"].trigger()
    assert pane.search.hasFocus() and pane.scope == "all"
    wait_for(qtbot, lambda: pane.model.rowCount() == 3)
    qtmodeltester.check(pane.model, force_py=True)
    qtbot.keyClicks(pane.search, "grac")
    wait_for(qtbot, lambda: pane.model.rowCount() == 1)
    assert pane.model.index(0, 0).data().startswith("Romans 9:16 · Grace alone")
    html = pane.view.toHtml()
    assert "<script>" not in html and "&lt;script&gt;" in html and "font-weight" in html  # bold, escaped
    # Delete in the list deletes it; Ctrl+Z in the pane brings it back with its id
    gone = pane.current
    pane.list.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.keyClick(pane.list, Qt.Key.Key_Delete)
    wait_for(qtbot, lambda: pane.undo_button.isVisible() and s.notebook.desk.count == 2)
    assert "was deleted" in pane.info.text()
    qtbot.keyClick(pane.list, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    wait_for(qtbot, lambda: s.notebook.desk.count == 3)
    with NotesStore() as store:
        assert store.workspace("personal").find(gone.id) is not None
    # Ctrl+5: this chapter's notes, the focus in the list; Enter edits the note, Esc ends it
    window.actions_by_id["focus_notes"].trigger()
    assert pane.list.hasFocus() and pane.scope == "chapter"
    wait_for(qtbot, lambda: pane.model.rowCount() == 2)
    qtbot.keyClick(pane.list, Qt.Key.Key_Return)
    wait_for(qtbot, lambda: pane.editor.hasFocus())
    qtbot.keyClick(pane.editor, Qt.Key.Key_Escape)
    wait_for(qtbot, lambda: not s.notebook.editor.is_open)
    # offline: the notes written are pending, and the pane says they are searched by words meanwhile
    wait_for(qtbot, lambda: "searched by words until the embed proxy returns" in pane.info.text())
    # while the proxy is online they are being embedded, not waiting for it
    pane.set_online(True)
    assert "of your notes are being embedded: searched by words until then." in pane.info.text()
    assert "proxy returns" not in pane.info.text()


def test_new_workspace_from_the_menu_asks_for_its_name(harness, qtbot, small_db: Path) -> None:
    window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}", chapter="romans:9")
    s = window.session
    wait_for(qtbot, lambda: s.reader.loaded_chapter is not None)

    def answer() -> None:
        dialog = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QInputDialog) and w.isVisible())
        dialog.setTextValue("Youth group")
        dialog.accept()

    QTimer.singleShot(200, answer)
    window.menus.workspace_menu.new_action.trigger()  # as the menu does: triggered(checked)
    wait_for(qtbot, lambda: s.notebook.workspace_id == "youth-group")
    assert window.workspace_switcher.currentText() == "Workspace: Youth group"


def test_the_workspace_and_the_notes_count_stay_visible_in_a_small_window(harness, qtbot, small_db: Path) -> None:
    window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}", chapter="romans:9")
    pane = window.notes_control.pane
    window.resize(1000, 650)
    window.show()
    window.notes_control.focus()  # Ctrl+5: the notes open in the drawer under the text
    wait_for(qtbot, lambda: pane.heading.text() == "My notes on Romans 9 (0)")
    # a passing sentence hides a status bar's other widgets: never the workspace
    window.show_status("Copied 10 chunks, 1,875 tokens")
    assert window.status_bar.currentMessage() and window.workspace_switcher.isVisible()
    # the heading says the count in the narrow pane, in the short form rather than elided
    qtbot.wait(50)
    assert pane.heading.shown_text() in ("My notes on Romans 9 (0)", "My notes (0)")
    pane.heading.resize(pane.heading.fontMetrics().horizontalAdvance("My notes (0)") + 8, pane.heading.height())
    assert pane.heading.shown_text() == "My notes (0)" and pane.heading.is_elided()
    assert "My notes on Romans 9 (0)" in pane.heading.toolTip()


def test_every_notes_control_is_reachable_by_tab(harness, qtbot, small_db: Path) -> None:
    window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}", chapter="romans:9")
    pane = window.notes_control.pane
    wait_for(qtbot, lambda: window.session.reader.loaded_chapter is not None)
    window.notes_control.find()
    seen = set()
    widget = pane.search
    for _ in range(40):
        seen.add(widget)
        widget = widget.nextInFocusChain()
        while not (widget.focusPolicy() & Qt.FocusPolicy.TabFocus) or not widget.isVisible():
            widget = widget.nextInFocusChain()
    for control in (pane.chapter_button, pane.all_button, pane.add_button, pane.search, pane.list, pane.view,
                    window.workspace_switcher):
        assert control in seen, control.accessibleName()
    for control in (pane.chapter_button, pane.all_button, pane.add_button, pane.search, pane.list, pane.editor,
                    pane.edit_button, pane.delete_button, pane.undo_button, window.workspace_switcher):
        assert control.accessibleName()


def _ref(text: str) -> Any:
    from amicus_desktop.notes import parse_ref

    return parse_ref(text)


@pytest.mark.slow
@pytest.mark.parametrize("fault", ["damaged", "busy"])
def test_a_damaged_or_busy_notes_store_never_stops_the_library(harness, qtbot, study_db: Path, local_proxy,
                                                                monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    """Issue #30 item 9: a damaged notes store made every question fail as "an internal error … a bug in Amicus
    Desktop (NotesError)". Now the library answers and a banner says the notes are unavailable and why; a store
    another writer holds is "busy, try again", never "damaged, move it aside"."""
    import apsw

    from amicus_desktop import paths
    from amicus_desktop.notes import store as notes_store

    path = paths.notes_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    holder = None
    if fault == "damaged":
        path.write_bytes(b"this is not a notes store " * 200)
    else:
        with NotesStore(path) as store:
            store.workspace("personal").add("a note", None)
        monkeypatch.setattr(notes_store, "BUSY_TIMEOUT_MS", 50)
        holder = apsw.Connection(str(path))
        holder.execute("PRAGMA locking_mode = EXCLUSIVE")
        holder.execute("BEGIN EXCLUSIVE")  # another program writing, and holding on
    try:
        window = harness.open(db=study_db, proxy=local_proxy.url, chapter="romans:9")
        s = window.session
        wait_for(qtbot, lambda: s.can_ask, timeout=30)
        view = _ask(window, qtbot, "the potter and the clay")
        assert view.result.results and all(r.source_type != USER_NOTE for r in view.result.results)
        banner = window.notice_banner
        wait_for(qtbot, lambda: banner.isVisible())
        shown = " ".join([banner.title.text(), banner.body.text(), banner.detail.text()])
        assert "this answer is from the library only" in shown and "bug" not in shown
        if fault == "busy":
            assert "Your notes are busy" in shown and "try again" in shown and "move it aside" not in shown
        else:
            assert "Your notes are unavailable" in shown and "move it aside" in shown
    finally:
        if holder is not None:
            holder.close()

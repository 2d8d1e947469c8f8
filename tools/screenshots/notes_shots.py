"""Regenerate the screenshots of the reader's notes and workspaces (docs/UI.md, "Your notes").

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/screenshots/notes_shots.py --db PATH/demo.db

Each state is reached in-process through the real window and session — a few notes written into a fresh
notes store first, as ``amicus-desktop notes add`` would — against the real local embed proxy (started
here) or a closed port, and saved at the window's default size and at 1000×650 (``-1000x650``):

* ``notes-pane.png`` — Romans 9 with the reader's notes: the margin marks (✎) in the text, the notes
  pane under the commentary, the selected note shown with its formatting;
* ``notes-margin.png`` — the reader alone, close up on the marks of verses 11–13;
* ``notes-editing.png`` — a note being written on Romans 9:20–21, autosaved ("Saved 14:02:03");
* ``notes-list-search.png`` — every note of the workspace, searched for "potter";
* ``notes-in-results.png`` — a question whose answer holds the reader's note, marked ✎ and titled
  "Your note — Romans 9:20-21", its breakdown beside it;
* ``notes-workspace.png`` — another workspace ("Study group"): the title, the status bar and the results
  header name it, and none of the first workspace's notes is anywhere;
* ``notes-pending.png`` — the proxy away, searching by words: the strip and the pane say the notes are
  searched by words until the proxy returns, and embedded the moment it does.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from shotkit import ask, drive, opened, reach, run, save

NOTES = (
    ("Romans 9:11-13", "**Election before birth.** Not of works, but of him that calleth — before the twins "
                       "had done *any* good or evil.\n\n- Compare Malachi 1:2-3\n- Ask the group: is this about "
                       "nations or persons?"),
    ("Romans 9:20-21", "# The potter and the clay\nWho are you to answer back? The *potter* has a right over the "
                       "clay: read with Jeremiah 18."),
    ("Romans 9", "Outline for Sunday: 1–5 Paul's grief, 6–13 the promise, 14–29 mercy, 30–33 the stone."),
    ("John 3:16", "The whole gospel in one verse — *so* loved."),
)


def main() -> int:
    return run(__doc__ or "", shots, offline=True)


def shots(db: Path, proxy_url: str, offline_url: str, out: Path) -> None:

    from amicus_desktop.core.query import SearchMode
    from amicus_desktop.notes import NotesStore, parse_ref
    from amicus_desktop.session import Session
    from amicus_desktop.session.notes import EditorState

    with NotesStore() as store:
        ws = store.workspace("personal")
        for ref, text in NOTES:
            ws.add(text, parse_ref(ref))

    async def settle(seconds: float = 0.4) -> None:
        await asyncio.sleep(seconds)

    async def ready(session: Session) -> None:
        """The proxy checked once and the notes desk on the open chapter."""
        await reach(session, lambda: session.connection.state.checks > 0)
        await reach(session, lambda: session.notebook.desk.chapter is not None)

    async def run() -> None:
        async with opened(db, proxy_url, "romans:9") as (session, window):
            await ready(session)
            control, pane = window.notes_control, window.notes_control.pane
            await reach(session, lambda: session.notebook.desk.pending == 0, timeout=20)  # embedded: the proxy is up
            await settle(0.6)
            pane.select(session.notebook.desk.chapter.notes[1].id)  # type: ignore[union-attr]
            await save(window, out, "notes-pane.png")
            def verse_10_on_top() -> None:  # the marks on verses 11–13 in view, under the verse before them
                y = window.reader.verse_rect_y(10)
                bar = window.reader.text.verticalScrollBar()
                if y is not None:
                    bar.setValue(bar.value() + y - 20)

            await save(window, out, "notes-margin.png", part=lambda: window.reader, prepare=verse_10_on_top)
            # writing a note: the editor, autosaved
            control.edit(session.notebook.desk.chapter.notes[2])  # type: ignore[union-attr]
            await reach(session, lambda: session.notebook.editor.is_open)
            await settle()
            pane.editor.moveCursor(pane.editor.textCursor().MoveOperation.End)
            pane.editor.insertPlainText("\n\n- Bring the clay from the children's class.")
            await reach(session, lambda: session.notebook.editor.status.state is EditorState.SAVED
                        and "children" in session.notebook.editor.draft, timeout=10)
            await reach(session, lambda: session.notebook.desk.pending == 0, timeout=20)  # embedded a few s after
            await save(window, out, "notes-editing.png")
            await session.notebook.editor.close()
            # the whole list, searched
            control.find()
            pane.search.setText("potter")
            await reach(session, lambda: session.notebook.desk.listing.query == "potter")
            await save(window, out, "notes-list-search.png")
            # a question: the reader's note among the results, marked and titled as theirs
            control.focus()
            session.set_mode(SearchMode.HYBRID)
            question = "the potter has a right over the clay"
            window.ask.edit.setText(question)
            task = session.ask(question)
            assert task is not None
            await task
            view = session.question.view
            assert view is not None
            mine = [r for r in view.result.results if r.candidate.source_type == "user_note"]
            assert mine, "the reader's note is not among the results"
            row = window.results.results_model.row_of(mine[0].chunk_id)
            window.results.results_view.selectRow(row)
            await save(window, out, "notes-in-results.png")
            # another workspace: nothing of the first one's notes
            window.menus.workspace_menu.new_workspace("Study group")
            await reach(session, lambda: session.question.view is not None and not session.question.busy
                        and session.question.view.result.context.workspace == "study-group")  # type: ignore[union-attr]
            await save(window, out, "notes-workspace.png")

        # the proxy away: notes written meanwhile are pending and searched by words
        async with opened(db, offline_url, "romans:9") as (session, window):
            await ready(session)
            await reach(session, lambda: session.connection.state.state.value == "offline")
            switching = session.notebook.switch("personal")  # the app reopened in the workspace it was left in
            if switching is not None:
                await switching
            with NotesStore() as store:
                store.workspace("personal").add("Written on the train: mercy, not merit.", parse_ref("Romans 9:16"))
            await reach(session, lambda: session.notebook.desk.pending > 0)
            session.set_mode(SearchMode.KEYWORD)
            await ask(window, session, "mercy not merit", settle=0)
            await save(window, out, "notes-pending.png")

    drive(run)


if __name__ == "__main__":
    sys.exit(main())

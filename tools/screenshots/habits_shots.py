"""Regenerate the screenshots of a reader's habits added last (docs/UI.md, "The window" and "Search modes").

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/screenshots/habits_shots.py --db PATH/demo.db

Each state is reached in-process through the real window and session on the demo library, and saved at the
window's default size and at 1000×650 (``-1000x650``):

* ``search-my-passages.png`` — the filter bar open with *My passages* set to the passages labelled
  "promises" (Romans 8:28, 8:38-39, John 3:16), a question by words answered from them only;
* ``reader-parallel-doxology.png`` — Romans 14 in the WEB and the KJV side by side, verse 23 in the middle: the WEB's
  doxology on a row of its own beside "(KJV at Romans 16:25-27)".
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from shotkit import drive, opened, reach, run, save


def main() -> int:
    return run(__doc__ or "", shots)


def shots(db: Path, proxy_url: str, out: Path) -> None:

    from amicus_desktop.core.query import SearchMode
    from amicus_desktop.core.references import ChapterRef, PassageRef
    from amicus_desktop.notes import NotesStore
    from amicus_desktop.notes.marks import MarkKind

    with NotesStore() as store:
        marks = store.workspace("personal").marks()
        marks.add(MarkKind.HIGHLIGHT, PassageRef("romans", 8, 28, 28), colour="yellow", labels=["promises"])
        marks.add(MarkKind.HIGHLIGHT, PassageRef("romans", 8, 38, 39), colour="green", labels=["promises", "comfort"])
        marks.add(MarkKind.BOOKMARK, PassageRef("john", 3, 16, 16), labels=["promises"])
        marks.add(MarkKind.BOOKMARK, PassageRef("romans", 3, 21, 26), labels=["sermon 12"])

    async def run_() -> None:
        async with opened(db, proxy_url, "romans:8") as (session, window):
            bar = window.filter_bar
            window.study_control.refresh_marks()
            await reach(session, lambda: any(a.text().startswith("Labelled “promises”")
                                             for a in bar.marked.menu_.actions()))
            session.set_mode(SearchMode.KEYWORD)
            window.ask.edit.setText("love that nothing can separate")
            entry = next(a for a in bar.marked.menu_.actions() if a.text().startswith("Labelled “promises”"))
            entry.trigger()
            bar.set_open(True)
            asked = session.ask("love that nothing can separate")
            if asked is not None:
                await asked
            await reach(session, lambda: session.question.view is not None and not session.question.busy, timeout=60)
            await asyncio.sleep(0.5)
            await save(window, out, "search-my-passages.png")

            bar.clear()
            session.set_filters(bar.filters)
            bar.set_open(False)
            session.set_chapter(ChapterRef("romans", 14))
            await reach(session, lambda: session.reader.loaded_chapter == ChapterRef("romans", 14))
            window.reader_control.toggle_parallel()
            await reach(session, lambda: window.reader.showing_parallel)

            await save(window, out, "reader-parallel-doxology.png", prepare=lambda: window.reader.centre_verse(23))

    drive(run_)


if __name__ == "__main__":
    sys.exit(main())

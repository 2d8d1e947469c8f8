"""Regenerate the screenshots of docs/UI.md's "What a reader gets" (the app's ranking and its warnings).

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/screenshots/generate_answers.py --db PATH/demo.db

Each state is reached in-process through the real window and session, against the real local embed proxy
(started here), and saved at the window's default size and at 1000×650 (``-1000x650`` before ``.png``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from shotkit import ask, drive, opened, reach, run, save


def main() -> int:
    return run(__doc__ or "", shots)


def shots(db: Path, proxy_url: str, out: Path) -> None:

    from amicus_desktop.core.references import ChapterRef
    from amicus_desktop.ui.main_window import MainWindow

    def select(window: MainWindow, row: int) -> None:
        window.results.results_view.selectRow(row)

    async def run() -> None:
        async with opened(db, proxy_url, "romans:3") as (session, window):
            await reach(session, lambda: session.can_ask)
            # a passage named in the question comes before the open chapter; the breakdown of a Romans 3 chunk says so
            await ask(window, session, "predestination and free will in Romans 9")
            view = session.question.view
            assert view is not None
            row = next((r.rank - 1 for r in view.result.ranked if r.breakdown.chapter_suspended), 0)
            select(window, row)
            await save(window, out, "answers-passage-first.png")
            # a topic asked with no chapter open: full list, commentary first, the focus chapter in the breakdown
            session.set_chapter(None)
            await ask(window, session, "the raising of Lazarus")
            select(window, 0)
            await save(window, out, "answers-topic.png")
            # a deliberate move re-ranks, says so and which key undoes it
            session.set_chapter(ChapterRef("romans", 3))
            await ask(window, session, "How is a person justified before God?")
            session.set_chapter(ChapterRef("romans", 5))
            await reach(session, lambda: session.reader.loaded_chapter == ChapterRef("romans", 5))
            await save(window, out, "answers-reranked.png")
            # one shared word is not a strong match: the warning is inside the Results tab, the tab bar stays put
            await ask(window, session, "Noah's ark")
            await save(window, out, "answers-no-strong-match.png")
            # one question asked of the whole library: the header's toggle off, and the header says so
            session.set_chapter(ChapterRef("romans", 8))
            await reach(session, lambda: session.reader.loaded_chapter == ChapterRef("romans", 8))
            await ask(window, session, "How should Christians treat the government?")
            session.set_whole_library(True)
            select(window, 0)
            await save(window, out, "answers-whole-library.png")
            # a pin shown where it applies: pinned for John 3, first in a question asked there
            session.set_chapter(ChapterRef("john", 3))
            await reach(session, lambda: session.reader.loaded_chapter == ChapterRef("john", 3))
            await ask(window, session, "What does it mean to be born again?")
            view = session.question.view
            assert view is not None
            chosen = next((r for r in view.result.ranked if r.candidate.metadata.book_id == "john"),
                          view.result.ranked[0])
            task = session.pin(chosen.chunk_id, "passage")
            assert task is not None
            await task
            await ask(window, session, "Who can enter the kingdom of God?")
            select(window, 0)
            await save(window, out, "answers-pinned-for-passage.png")

    drive(run)


if __name__ == "__main__":
    sys.exit(main())

"""Regenerate the search screenshots of docs/UI.md ("Search modes, references, filters and pins").

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/screenshots/generate_search.py --db PATH/demo.db

Each state is reached in-process through the real window and session, against the real local embed
proxy (started here) or a closed port (offline), and saved twice: at the window's default size and
at 1000×650 (``-1000x650`` before ``.png``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from shotkit import ask, drive, opened, reach, run, save


def main() -> int:
    return run(__doc__ or "", shots, offline=True)


def shots(db: Path, proxy_url: str, offline_url: str, out: Path) -> None:

    from amicus_desktop.core.query import Filters, SearchMode
    from amicus_desktop.core.references import ChapterRef
    from amicus_desktop.present.states import ACTION_LABELS, KEYWORD

    async def run() -> None:
        async with opened(db, proxy_url, "romans:3") as (session, window):
            await reach(session, lambda: session.connection.state.checks > 0)
            session.set_mode(SearchMode.HYBRID)
            await ask(window, session, "How is a person justified before God?")
            await save(window, out, "search-justified.png")
            session.set_chapter(ChapterRef("romans", 5))
            await reach(session, lambda: session.reader.loaded_chapter == ChapterRef("romans", 5))
            await ask(window, session, "love")
            await save(window, out, "search-love.png")
            # references in the question become chips
            session.set_chapter(ChapterRef("romans", 9))
            await reach(session, lambda: session.reader.loaded_chapter == ChapterRef("romans", 9))
            await ask(window, session, "What does Rom 9:6-13 say about Jacob and Esau?")
            await save(window, out, "search-chips.png")
            # the filter bar, open, with two kinds active
            window.filter_bar.set_open(True)
            task = session.set_filters(Filters.of(source_types=["section_panel", "chapter_panel"], books=["romans"]))
            if task is not None:
                await task
            await save(window, out, "search-filters.png")
            window.filter_bar.set_open(False)
            task = session.set_filters(Filters())
            if task is not None:
                await task
            # a pinned result, first
            third = session.question.view.result.results[3].chunk_id if session.question.view else None
            if third is not None:
                task = session.toggle_pin(third)
                if task is not None:
                    await task
                window.results.results_view.selectRow(0)
                await save(window, out, "search-pinned.png")
                task = session.clear_pins()
                if task is not None:
                    await task

        # offline: the banner offers keyword search; choosing it shows in the switch and the banner
        async with opened(db, offline_url, "romans:9") as (session, window):
            await reach(session, lambda: session.connection.state.state.value == "offline")
            window.ask.edit.setText("potter clay mercy")
            await save(window, out, "search-offline.png")
            button = window.banner.button(ACTION_LABELS[KEYWORD])
            assert button is not None, "no 'Search by words instead' button"
            button.click()
            await ask(window, session, "potter clay mercy")
            await save(window, out, "search-offline-keyword.png")

    drive(run)


if __name__ == "__main__":
    sys.exit(main())

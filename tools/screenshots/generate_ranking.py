"""Regenerate the screenshots of docs/UI.md's answers that follow the question (issue 33, the ranking's part).

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/screenshots/generate_ranking.py --db PATH/demo.db

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

    async def run() -> None:
        async with opened(db, proxy_url, "romans:8") as (session, window):
            await reach(session, lambda: session.reader.loaded_chapter == ChapterRef("romans", 8))
            await reach(session, lambda: session.can_ask)
            # a question not about the open chapter: Romans 8 set aside, and a Romans 8 result's breakdown says why
            await ask(window, session, "What does it mean to be born again?")
            view = session.question.view
            assert view is not None
            row = next((r.rank - 1 for r in view.result.ranked if r.breakdown.chapter_off_topic), 0)
            window.results.results_view.selectRow(row)
            await save(window, out, "answers-chapter-off-topic.png")
            # a word asked bare: its own entries, then the commentary where it is used
            await ask(window, session, "agape")
            window.results.results_view.selectRow(0)
            await save(window, out, "answers-word.png")

    drive(run)


if __name__ == "__main__":
    sys.exit(main())

"""Regenerate the screenshots of a partial library (docs/UI.md, "A library of some books"): the whole Bible to
read in the demo library, and the warning when a question needs a book it holds no study material for.

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/screenshots/library_shots.py --db PATH/demo.db

Each state is reached in-process through the real window and session, against the real local embed proxy
(started here), and saved at the window's default size and at 1000×650 (``-1000x650`` before ``.png``).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from shotkit import ask, drive, opened, reach, run, save


def main() -> int:
    return run(__doc__ or "", shots)


def shots(db: Path, proxy_url: str, out: Path) -> None:
    from amicus_desktop.core.results import WarningCode

    async def run() -> None:
        async with opened(db, proxy_url, "genesis:6") as (session, window):
            await reach(session, lambda: session.can_ask)
            await asyncio.sleep(0.5)
            # Genesis in a library built for Romans and John: the text is there, the study material is not
            await save(window, out, "library-genesis-text.png")
            question = "What happened to Noah's ark?"
            await ask(window, session, question, settle=0)
            view = session.question.view
            assert view is not None
            assert WarningCode.BOOKS_NOT_SEARCHABLE in {w.code for w in view.result.warnings}
            await asyncio.sleep(0.3)
            await save(window, out, "library-partial-warning.png")

    drive(run)


if __name__ == "__main__":
    sys.exit(main())

"""Regenerate the screenshots of the library growing in the background (docs/UI.md, "The whole Bible, growing"):
the first launch (every book readable, the status bar preparing the rest), the progress with its estimate, the
paused state, and a question that needs a book still being prepared (its warning).

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/screenshots/growth_shots.py --db PATH/scripture.db

``--db`` is a library the first launch left (``build-db --all --resume --stop-after 2``: the text of all 66
books, the study material of Romans and John, still growing). It is copied into this run's data folder, so the
window takes it for its own and continues it with the real builder in a child process (stopped when the run
ends). The estimate needs a book finished in this run, minutes on this machine: the progress shot shows the
builder's own progress line for the twelfth book fed to the status bar. Each state is saved at the window's
default size and at 1000×650 (``-1000x650`` before ``.png``).
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
from pathlib import Path

from shotkit import ask, drive, opened, reach, run, save


def main() -> int:
    return run(__doc__ or "", shots)


def shots(db: Path, proxy_url: str, out: Path) -> None:
    from amicus_desktop import paths
    from amicus_desktop.core.results import WarningCode
    from amicus_desktop.store.sqlite import growing_marker
    from amicus_desktop.ui.growth import Phase
    from amicus_desktop.ui.layout import window_settings

    own = paths.default_db_path()
    own.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(db, own)
    growing_marker(own).touch()

    async def run() -> None:
        async with opened(None, proxy_url, "genesis:1", qsettings=window_settings()) as (session, window):
            await reach(session, lambda: window.growth.phase is Phase.RUNNING)
            await asyncio.sleep(0.5)
            # The first launch: Genesis reads at once; the status bar says the rest is being prepared
            await save(window, out, "growth-first-launch.png")
            real = window.growth.progress
            window.growth._line(json.dumps({"stage": "book 11/55: Acts", "done": 9120, "total": 54180, "rate": 19.2,
                                            "eta": 2346.0, "books_done": 12}))
            await asyncio.sleep(0.2)
            await save(window, out, "growth-progress.png")
            window.growth.widget.button.click()  # Pause
            await asyncio.sleep(0.3)
            await save(window, out, "growth-paused.png")
            window.growth.widget.button.click()  # Continue, the progress where it really is (2 books), not the line fed
            await reach(session, lambda: window.growth.phase is Phase.RUNNING)
            window.growth.progress = real
            window.growth._set(Phase.RUNNING)
            # A question that needs a book still being prepared: the warning names it and counts the books searchable
            await reach(session, lambda: session.can_ask)
            question = "What happened to Noah's ark?"
            await ask(window, session, question, settle=0)
            view = session.question.view
            assert view is not None
            warning = next(w for w in view.result.warnings if w.code is WarningCode.BOOKS_NOT_SEARCHABLE)
            assert "Genesis is still being prepared" in warning.message, warning.message
            await asyncio.sleep(0.3)
            await save(window, out, "growth-partial-warning.png")

    drive(run)


if __name__ == "__main__":
    sys.exit(main())

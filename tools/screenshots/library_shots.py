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

from shotkit import reach, run, save


def main() -> int:
    return run(__doc__ or "", shots)


def shots(db: Path, proxy_url: str, out: Path) -> None:
    from amicus_desktop.core.results import WarningCode
    from amicus_desktop.session import Overrides, Session
    from amicus_desktop.settings import SettingsStore
    from amicus_desktop.ui.app import make_application, qt_event_loop
    from amicus_desktop.ui.main_window import MainWindow

    app = make_application()
    app.setQuitOnLastWindowClosed(False)

    async def run() -> None:
        session = Session(SettingsStore(), Overrides(db_path=str(db), proxy_url=proxy_url, chapter="genesis:6"))
        window = MainWindow(session)
        window.show()
        session.start()
        await reach(session, lambda: session.library.ready and session.reader.loaded_chapter is not None)
        await reach(session, lambda: session.can_ask)
        await asyncio.sleep(0.5)
        # Genesis in a library built for Romans and John: the text is there, the study material is not
        await save(window, out, "library-genesis-text.png")
        question = "What happened to Noah's ark?"
        window.ask.edit.setText(question)
        task = session.ask(question)
        assert task is not None, "asking is not possible now"
        await task
        view = session.question.view
        assert view is not None
        assert WarningCode.BOOKS_NOT_SEARCHABLE in {w.code for w in view.result.warnings}
        await asyncio.sleep(0.3)
        await save(window, out, "library-partial-warning.png")
        window.close()
        await session.aclose()

    with qt_event_loop(app) as loop:
        loop.run_until_complete(run())


if __name__ == "__main__":
    sys.exit(main())

"""Regenerate the verse-search screenshots of docs/UI.md ("Verses and translations").

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/screenshots/generate_verses.py --db PATH/demo.db

The database must hold the verse tables (``build-db`` writes them). Each state is reached in-process
through the real window and session, against the real local embed proxy (started here) or a closed
port (offline, keyword), and saved at the window's default size and at 1000×650 (``-1000x650``):

* ``verses.png`` — the Verses tab for a remembered quotation, the first verse's "why this rank";
* ``verses-keyword-offline.png`` — the Verses tab searched by words with the proxy unreachable;
* ``verses-kjv.png`` — the reader switched to the King James Version, a verse opened from the tab;
* ``verses-copied.png`` — verses selected in the reader, copied with their reference (the status bar
  says so; the clipboard's text is printed).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from shotkit import ask, drive, opened, reach, run, save


def main() -> int:
    return run(__doc__ or "", shots, offline=True)


def shots(db: Path, proxy_url: str, offline_url: str, out: Path) -> None:
    from PySide6.QtGui import QGuiApplication, QTextCursor

    from amicus_desktop.core.query import SearchMode
    from amicus_desktop.core.references import ChapterRef, PassageRef
    from amicus_desktop.session import Session
    from amicus_desktop.ui.main_window import MainWindow

    async def ask_verses(window: MainWindow, session: Session, question: str) -> None:
        await ask(window, session, question, settle=0)
        await reach(session, lambda: not session.verses.busy and session.verses.view is not None)

    async def run() -> None:
        async with opened(db, proxy_url, "john:3") as (session, window):
            await reach(session, lambda: session.connection.state.checks > 0)
            session.set_mode(SearchMode.HYBRID)
            await ask_verses(window, session, "God so loved the world")
            window.results.tabs.setCurrentIndex(window.results.VERSES_TAB)
            await save(window, out, "verses.png")
            # the KJV in the reader, a verse opened from the tab (highlighted), the tab searched in the KJV
            session.set_translation("kjv")
            await reach(session, lambda: not session.verses.busy and session.verses.view is not None
                        and session.verses.view.result.translation == "kjv")
            session.open_passage(PassageRef("john", 3, 16, 16))
            await reach(session, lambda: session.reader.text is not None and session.reader.text.translation == "KJV"
                        and session.reader.loaded_chapter == ChapterRef("john", 3))
            await save(window, out, "verses-kjv.png", prepare=lambda: window.reader.set_focus(session.reader.focus))
            # verses selected in the reader and copied with their reference
            session.set_translation("web")
            await reach(session, lambda: session.reader.text is not None and session.reader.text.translation == "WEB")
            await asyncio.sleep(0.3)
            anchors = dict((n, p) for p, n in window.reader._anchors())
            cursor = window.reader.text.textCursor()
            cursor.setPosition(anchors[16])
            cursor.setPosition(anchors[18] - 1, QTextCursor.MoveMode.KeepAnchor)
            window.reader.text.setTextCursor(cursor)
            assert window.reader.copy_verses(), "nothing was copied"
            print("clipboard:", QGuiApplication.clipboard().text().replace("\n", " / "))
            window.ask.edit.clear()
            window.ask.edit.paste()  # what was copied, pasted where it can be seen: "… — John 3:16-17 (WEB)"
            await save(window, out, "verses-copied.png", prepare=window.reader.text.ensureCursorVisible)

        # offline: keyword verse search still works when chosen
        async with opened(db, offline_url, "romans:8") as (session, window):
            await reach(session, lambda: session.connection.state.state.value == "offline")
            session.set_mode(SearchMode.KEYWORD)
            await ask_verses(window, session, "nothing separate us from the love of God")
            window.results.tabs.setCurrentIndex(window.results.VERSES_TAB)
            await save(window, out, "verses-keyword-offline.png")

    drive(run)


if __name__ == "__main__":
    sys.exit(main())

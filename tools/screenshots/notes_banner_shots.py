"""Regenerate the screenshots of the notes-unavailable banner (docs/UI.md, "Your notes").

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/screenshots/notes_banner_shots.py --db PATH/demo.db

Reached in-process through the real window and session against the real local embed proxy (started here),
saved at the window's default size and at 1000×650 (``-1000x650``):

* ``notes-unavailable.png`` — the reader's notes store is damaged (here: a file that is not a store): the
  question is answered from the library, and the banner under the results says the notes are unavailable,
  why (the store's own sentence) and that the answer is the library's alone;
* ``notes-busy.png`` — another program holds the store's write lock: "Your notes are busy", try again.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from shotkit import ask, drive, opened, reach, run, save


def main() -> int:
    return run(__doc__ or "", shots)


def shots(db: Path, proxy_url: str, out: Path) -> None:
    import apsw

    from amicus_desktop import paths
    from amicus_desktop.notes import NotesStore
    from amicus_desktop.notes import store as notes_store

    notes = paths.notes_path()
    notes.parent.mkdir(parents=True, exist_ok=True)

    async def shot(name: str) -> None:
        async with opened(db, proxy_url, "romans:9") as (session, window):
            await reach(session, lambda: session.can_ask)
            question = "the potter has a right over the clay"
            await ask(window, session, question, settle=0)
            await reach(session, lambda: window.notice_banner.isVisible())
            await asyncio.sleep(0.3)
            await save(window, out, name)

    async def go() -> None:
        notes.write_bytes(b"this is not a notes store " * 200)
        await shot("notes-unavailable.png")
        notes.unlink()
        with NotesStore() as store:
            store.workspace("personal").add("a note")
        notes_store.BUSY_TIMEOUT_MS = 200
        holder = apsw.Connection(str(notes))
        holder.execute("PRAGMA locking_mode = EXCLUSIVE")
        holder.execute("BEGIN EXCLUSIVE")
        try:
            await shot("notes-busy.png")
        finally:
            holder.close()

    drive(go)


if __name__ == "__main__":
    sys.exit(main())

"""A process that writes a note the way the app's note editor does, until it is killed.

``python -m tests.support.autosave_child`` (``AMICUS_HOME`` set by the test): a
:class:`~amicus_desktop.session.notes.NoteEditor` over a real notes store with the app's own autosave
delay; a word is "typed" every 50 ms and each keystroke is reported on stdout as ``<chars> <seconds>``
(the draft's length, seconds since the first). ``tests/session/test_note_autosave.py`` SIGKILLs it.
"""

from __future__ import annotations

import asyncio
import time

from amicus_desktop.core.references import PassageRef
from amicus_desktop.session.notes import NoteEditor, NotesDesk

WORDS = "not of works but of him that calleth the elder shall serve the younger".split()


def typed(keystrokes: int) -> str:
    """The draft after ``keystrokes`` words (the test rebuilds it to compare)."""
    return "".join(WORDS[i % len(WORDS)] + " " for i in range(keystrokes))


async def main() -> None:
    desk = NotesDesk("kill-test", poll=3600)
    editor = NoteEditor(desk)  # the app's autosave delay
    editor.new(PassageRef("romans", 9, 11, 11))
    start = time.monotonic()
    n = 0
    while True:
        n += 1
        text = typed(n)
        editor.type(text)
        print(f"{len(text)} {time.monotonic() - start:.3f}", flush=True)
        await asyncio.sleep(0.05)


if __name__ == "__main__":
    asyncio.run(main())

"""A crash while writing a note loses at most the last few seconds: a process typing into the app's note
editor (``tests/support/autosave_child.py``) is killed with SIGKILL, and the store holds a prefix of what
was typed that is at most :data:`AUTOSAVE_SECONDS` (plus scheduling slack) behind the last keystroke."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from amicus_desktop.notes import NotesStore
from amicus_desktop.session.notes import AUTOSAVE_SECONDS
from tests.support.autosave_child import typed

ROOT = Path(__file__).resolve().parents[2]
#: what a loaded machine may add to the autosave delay (the save itself, an fsync, a late timer)
SLACK_SECONDS = 1.5


@pytest.mark.parametrize("typing_for", [1.0, 5.5])
def test_a_killed_editor_loses_at_most_the_last_few_seconds(amicus_home: Path, typing_for: float) -> None:
    env = {**os.environ, "AMICUS_HOME": str(amicus_home), "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-m", "tests.support.autosave_child"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env, cwd=ROOT, text=True)
    try:
        first = child.stdout.readline() if child.stdout else ""
        assert first, child.stderr.read() if child.stderr else "no output"
        time.sleep(typing_for)
        child.send_signal(signal.SIGKILL)
        out, _err = child.communicate(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == -signal.SIGKILL
    keystrokes = [(int(a), float(b)) for a, b in (line.split() for line in [first, *out.splitlines()] if line)]
    last_chars, last_time = keystrokes[-1]
    with NotesStore() as store:  # it opens: the file is intact
        notes = store.workspace("kill-test").notes()
    final = typed(len(keystrokes))
    assert len(final) == last_chars
    if last_time < AUTOSAVE_SECONDS - 0.2:  # killed before the first save was due: nothing, or all of it
        assert [n.text for n in notes] in ([], [final[: len(notes[0].text)]] if notes else [])
        return
    assert len(notes) == 1, "one note, saved again and again: never a second copy"
    saved = notes[0].text
    assert final.startswith(saved), "the store holds exactly what was typed, up to a keystroke"
    saved_at = next(t for chars, t in keystrokes if chars == len(saved))
    lost = last_time - saved_at
    assert lost <= AUTOSAVE_SECONDS + SLACK_SECONDS, f"{lost:.2f} s of typing lost"
    assert notes[0].ref is not None and (notes[0].ref.book_id, notes[0].ref.verse_start) == ("romans", 11)

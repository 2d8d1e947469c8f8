"""The first cross-references of a library make its index (a minute or two on the whole Bible): that work never
holds the DB thread, so the chapters and questions that need it meanwhile are not kept waiting."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from amicus_desktop.core.references import ChapterRef, PassageRef

from ..conftest import wait_for


def test_the_reader_reads_on_while_the_cross_reference_index_is_made(harness: Any, qtbot: Any, demo_db: Path) -> None:
    """On the whole Bible, Romans 8 took 93 s to open after the first cross-references were asked for (the index
    was made on the DB thread). Here the DB thread answers a read at once, before the index is ready."""
    window = harness.open(db=demo_db, chapter="romans:8")
    s = window.session
    wait_for(qtbot, lambda: s.reader.loaded_chapter == ChapterRef("romans", 8), timeout=30)
    control = window.study_control
    pane = control.panel.xrefs
    control.show_xrefs(PassageRef("romans", 8, 28, 28))  # a fresh AMICUS_HOME: its index is made now
    shown_at_read: list[int] = []  # how many cross-references the pane showed when the DB thread answered

    async def probe() -> None:
        engine = s.engine
        assert engine is not None
        await engine.run_db(lambda _store: time.sleep(0))
        shown_at_read.append(pane.list.count())

    window.tasks.spawn(probe())
    wait_for(qtbot, lambda: pane.list.count() > 0 and bool(shown_at_read), timeout=120)
    assert shown_at_read == [0]  # answered while the index was still being made

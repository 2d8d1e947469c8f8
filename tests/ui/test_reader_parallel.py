"""The parallel view beyond the verse numbers (issue 34, item 2): the second translation kept for the next
start, and the WEB's doxology at Romans 14:23 shown beside where the KJV has it (Romans 16:25-27) — the real
window offscreen over the real demo library (its WEB and KJV)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from amicus_desktop import paths
from amicus_desktop.core.references import ChapterRef
from amicus_desktop.settings import FILE_NAME
from tests.support.proxy import free_port

from .conftest import wait_for

SMALL = (1000, 650)


def _open(harness: Any, qtbot: Any, db: Path, chapter: str) -> Any:
    w = harness.open(db=db, proxy=f"http://127.0.0.1:{free_port()}", chapter=chapter)
    w.resize(*SMALL)
    book, number = chapter.split(":")
    wait_for(qtbot, lambda: w.session.reader.loaded_chapter == ChapterRef(book, int(number)), timeout=30)
    return w


def test_the_translation_beside_is_kept_for_the_next_start(harness: Any, qtbot: Any, demo_db: Path) -> None:
    window = _open(harness, qtbot, demo_db, "romans:9")
    assert not window.reader.showing_parallel  # a first start: one translation
    window.actions_by_id["parallel"].trigger()
    wait_for(qtbot, lambda: window.reader.showing_parallel)
    saved = json.loads((paths.config_dir() / FILE_NAME).read_text(encoding="utf-8"))
    assert saved["beside_translation"] == "kjv"
    harness.close(window)

    again = _open(harness, qtbot, demo_db, "romans:9")
    wait_for(qtbot, lambda: again.reader.showing_parallel and again.session.reader.text is not None
             and again.session.reader.text.beside_translation == "KJV")
    assert again.actions_by_id["parallel"].isChecked()
    assert again.reader.nav.beside_combo.currentText().startswith("+ KJV")
    again.actions_by_id["parallel"].trigger()  # one translation again: that is kept too
    wait_for(qtbot, lambda: not again.reader.showing_parallel)
    assert json.loads((paths.config_dir() / FILE_NAME).read_text(encoding="utf-8"))["beside_translation"] is None
    harness.close(again)
    third = _open(harness, qtbot, demo_db, "romans:9")
    wait_for(qtbot, lambda: third.session.reader.text is not None)
    assert not third.reader.showing_parallel and not third.actions_by_id["parallel"].isChecked()


def test_the_webs_doxology_sits_beside_the_kjvs_place_for_it(harness: Any, qtbot: Any, demo_db: Path) -> None:
    window = _open(harness, qtbot, demo_db, "romans:14")
    window.actions_by_id["parallel"].trigger()
    wait_for(qtbot, lambda: window.reader.showing_parallel)
    plain = window.reader.text.toPlainText()
    assert "(KJV at Romans 16:25-27)" in plain
    table = window.reader.text.document().rootFrame().childFrames()[0]
    text = window.session.reader.text
    assert table.rows() == 1 + len({n for n, _t in text.verses}) + 1  # the heading, the verses, the moved words
    window.session.set_chapter(ChapterRef("romans", 16))
    wait_for(qtbot, lambda: window.session.reader.loaded_chapter == ChapterRef("romans", 16)
             and window.reader.showing_parallel)
    wait_for(qtbot, lambda: window.reader.text.toPlainText().count("(in the WEB at the end of Romans 14:23)") == 3)

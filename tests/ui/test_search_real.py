"""The issue's first two searches, asked in the window through the real local proxy on the real study
library (Romans 3, 5 and 9 with Matthew Henry, Scofield, Nave's, word studies and Strong's entries):
in the app's default mode (hybrid), commentary must be in the top five."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from amicus_desktop.core.query import SearchMode

from .conftest import wait_for

pytestmark = pytest.mark.slow

#: Commentary: a scholar's notes on a passage (not a lexicon entry, word study, topical note or FAQ).
COMMENTARY = {"section_panel", "chapter_panel"}


@pytest.mark.parametrize(("question", "chapter"), [
    ("How is a person justified before God?", "romans:3"),
    ("love", "romans:5"),
])
def test_commentary_in_the_top_five(harness, qtbot, study_db: Path, local_proxy, question: str,
                                    chapter: str) -> None:
    window = harness.open(db=study_db, proxy=local_proxy.url, chapter=chapter)
    s = window.session
    wait_for(qtbot, lambda: s.can_ask and s.reader.loaded_chapter is not None, timeout=30)
    assert s.search.mode is SearchMode.HYBRID
    window.ask.edit.setText(question)
    qtbot.mouseClick(window.ask.button, Qt.MouseButton.LeftButton)
    wait_for(qtbot, lambda: s.question.view is not None and not s.question.busy, timeout=30)
    view = s.question.view
    assert view is not None and view.result.mode is SearchMode.HYBRID
    top = view.result.results[:5]
    kinds = [r.candidate.source_type for r in top]
    assert COMMENTARY & set(kinds), f"no commentary in the top five: {kinds}"
    assert all(r.candidate.metadata.scholar_id for r in top if r.candidate.source_type in COMMENTARY)
    assert "· Hybrid search ·" in window.results.title.text()

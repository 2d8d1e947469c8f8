"""bench/verses.py: verse search timed beside chunk search on a real database (a benchmark, not a test of speed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from amicus_desktop.bench import verses

pytestmark = pytest.mark.slow


def test_verse_search_is_measured_beside_chunk_search(verse_db: Path, study_db: Path) -> None:
    assert verses.has_verse_vectors(verse_db) and not verses.has_verse_vectors(study_db)
    report = verses.measure(verse_db, 2)
    assert report["queries"] == 2 and report["warmup"] == verses.WARMUP
    for name in ("chunks", "verses", "verses_keyword"):
        assert report[name]["total"]["n"] == 2 and report[name]["total"]["p50"] > 0
    assert {"search.verses", "search.commentary", "search.lexicon", "search.score"} <= set(report["verses"])
    assert report["verses_keyword"]["embed"]["p50"] < 1.0  # words only: nothing embedded
    table = verses.table(report)
    assert "verses, hybrid (default)" in table and "chunks, hybrid (app default)" in table

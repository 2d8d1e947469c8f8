"""The commentary that follows the chapter (``session/commentary.py``), with no question and no proxy."""

from __future__ import annotations

from pathlib import Path

import pytest

from amicus_desktop.core.references import ChapterRef
from amicus_desktop.session import BROWSE_TYPES
from amicus_desktop.store import ScriptureStore
from tests.support.proxy import free_port
from tests.support.sessions import OpenSession, reach

pytestmark = pytest.mark.anyio  # async tests on asyncio; see conftest.py


async def test_commentary_follows_the_chapter_without_a_question(small_db: Path, open_session: OpenSession) -> None:
    """Chapter panels, notes and word studies on the chapter on screen, each by verse, from a browse over
    chunk_metadata: it works with no proxy at all (nothing listens on the URL)."""
    session = open_session(small_db, f"http://127.0.0.1:{free_port()}", chapter="romans:9")
    session.start()
    await reach(session, lambda: session.commentary.notes is not None)
    notes = session.commentary.notes
    assert notes is not None and notes.ref == ChapterRef("romans", 9) and notes.chunks
    assert not session.can_ask  # offline, and still the notes came
    for chunk in notes.chunks:
        m = chunk.metadata
        assert (m.book_id, m.chapter_num) == ("romans", 9) and chunk.source_type in BROWSE_TYPES
    kinds = [BROWSE_TYPES.index(c.source_type) for c in notes.chunks]
    assert kinds == sorted(kinds)  # chapter panels, then the notes on verses, then the chapter's word studies
    for kind in set(kinds):
        starts = [c.metadata.verse_start for c, k in zip(notes.chunks, kinds, strict=True) if k == kind]
        whole = [s for s in starts if s is None]
        assert starts[: len(whole)] == whole  # whole-chapter ones first
        assert starts[len(whole):] == sorted(s for s in starts if s is not None)
    # the expected set, straight from the file
    with ScriptureStore(small_db) as store:
        expected = {r[0] for r in store.rows(
            "SELECT t.chunk_id FROM chunk_text t JOIN chunk_metadata m ON m.rowid = t.rowid "
            "WHERE m.book_id = 'romans' AND m.chapter_num = 9 AND t.source_type IN (?, ?, ?)", BROWSE_TYPES)}
    assert {c.chunk_id for c in notes.chunks} == expected
    session.set_chapter(ChapterRef("john", 2))
    await reach(session, lambda: session.commentary.notes is not None
                and session.commentary.notes.ref == ChapterRef("john", 2))

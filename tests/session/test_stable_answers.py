"""Stable answers (issue: "looking at a result changes the answer"): opening a result never re-ranks; a
deliberate move re-ranks visibly and can be undone; an answer keeps the chapter it was asked with."""

from __future__ import annotations

from pathlib import Path

from amicus_desktop.core.query import Profile
from amicus_desktop.core.references import ChapterRef, PassageRef
from tests.session.test_session import make_session, reach, run
from tests.support.scripted_proxy import ScriptedProxy

ROM9, JOHN3 = ChapterRef("romans", 9), ChapterRef("john", 3)


def test_peeking_at_a_result_never_reranks_and_a_move_reranks_undoably(small_db: Path) -> None:
    async def main() -> None:
        with ScriptedProxy(dims=8) as proxy:
            session = make_session(small_db, proxy.url, chapter="romans:9")
            session.start()
            try:
                await reach(session, lambda: session.can_ask)
                task = session.ask("grace")
                assert task is not None
                await task
                asked = session.question.view
                assert asked is not None and session.question.ranked_for == ROM9
                # opening a result in John 3 to read it: the reader goes there, the answer does not move
                session.open_passage(PassageRef("john", 3, 16, 16), peek=True)
                assert session.reader.chapter == JOHN3
                assert session.question.view is asked and session.question.undo_view is None
                # going to John 3 on purpose (the go-to box): re-ranked for it, visibly, and undoable
                session.set_chapter(ChapterRef("romans", 9))
                session.open_passage(PassageRef("john", 3, None, None))
                moved = session.question.view
                assert moved is not None and moved.cause == "chapter" and session.question.ranked_for == JOHN3
                assert moved.previous_ranks == {r.chunk_id: r.rank for r in asked.result.results}
                assert session.question.undo()
                assert session.question.view is not None
                assert session.question.view.result.results == asked.result.results
                assert session.question.ranked_for == ROM9 and not session.question.undo()  # once
                # a profile change re-ranks for the chapter the answer is ranked for, not the reader's
                session.set_profile(Profile.of(["spurgeon"], []))
                preferred = session.question.view
                assert preferred is not None and preferred.cause == "profile"
                assert session.question.ranked_for == ROM9 and session.reader.chapter == JOHN3
            finally:
                await session.aclose()

    run(main(), timeout=60)

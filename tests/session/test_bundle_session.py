"""The session's side of the retrieval bundle: question history, the failed question, the vector
cache on a re-ask, the database's names for citations, and the context budget. No Qt."""

from __future__ import annotations

import json
from pathlib import Path

from amicus_desktop import paths
from amicus_desktop.session import History
from tests.support.scripted_proxy import ScriptedProxy, reply_json

from .test_session import Recorder, make_session, reach, run


def test_history_walks_back_and_forward_and_gives_the_draft_back() -> None:
    h = History(limit=3)
    assert h.older("draft") is None and h.newer() is None  # nothing asked yet
    for q in ("grace", "faith", "hope", "grace ", ""):
        h.add(q)
    assert h.items == ("faith", "hope", "grace")  # asked again: moved to the end; blanks ignored
    assert h.older("half-typed") == "grace"
    assert h.older("ignored") == "hope"
    assert h.older("ignored") == "faith"
    assert h.older("ignored") is None  # the oldest: stays
    assert h.newer() == "hope"
    assert h.newer() == "grace"
    assert h.newer() == "half-typed"  # past the newest: the draft comes back
    assert h.newer() is None  # not walking any more
    for q in ("a", "b", "c", "d"):
        h.add(q)
    assert h.items == ("b", "c", "d")  # the limit keeps the newest
    assert h.older("d") == "c"  # the box shows the question just asked: Up goes to the one before


def test_failed_question_is_kept_until_an_answer_and_a_reask_reuses_the_vector(small_db: Path) -> None:
    async def main() -> None:
        with ScriptedProxy(dims=8) as proxy:
            session = make_session(small_db, proxy.url)
            seen = Recorder(session)
            session.start()
            await reach(session, lambda: session.can_ask)
            proxy.behaviour = lambda body: None if body.get("health") else reply_json(
                500, {"error": {"code": "UPSTREAM", "message": "boom"}})
            task = session.ask("grace and peace")
            assert task is not None
            await task
            assert session.question.failed_text == "grace and peace"
            assert seen.values("ask failed")
            proxy.behaviour = None
            first = session.ask("grace and peace")
            assert first is not None
            await first
            assert session.question.failed_text is None
            view = session.question.view
            assert view is not None and not view.result.trace.embedding_cached
            requests = proxy.embed_requests
            again = session.ask("grace and peace")
            assert again is not None
            await again
            view = session.question.view
            assert view is not None and view.result.trace.embedding_cached  # the session's vector cache
            assert proxy.embed_requests == requests  # no new embed
            assert session.question.history.items == ("grace and peace",)
            await session.aclose()

    run(main())


def test_library_names_and_the_context_budget(small_db: Path) -> None:
    async def main() -> None:
        with ScriptedProxy(dims=8) as proxy:
            session = make_session(small_db, proxy.url)
            seen = Recorder(session)
            session.start()
            await reach(session, lambda: session.library.ready)
            names = session.library.names
            assert names.book("romans") == "Romans"
            assert names.scholar("matthew-henry").name == "Matthew Henry"
            assert session.prefs.set_context_budget(4000)
            assert not session.prefs.set_context_budget(4000)  # unchanged: nothing saved or announced
            saved = json.loads((paths.config_dir() / "settings.json").read_text())
            assert saved["context_budget"] == 4000
            assert [s.context_budget for s in seen.values("settings changed")] == [4000]
            await session.aclose()

    run(main())

"""Answers that follow the question (issue #33 items 2 and 3), in the session without Qt, on a real sqlite-vec
file and a real HTTP embed server: the whole-library choice per question, and pins that apply only where the
reader pinned them (questions like one, the open chapter, or every question)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from amicus_desktop.core.references import ChapterRef
from amicus_desktop.pin_scopes import PinScope
from amicus_desktop.session import Session
from amicus_desktop.session.pins import alike
from amicus_desktop.settings import SettingsStore
from tests.support.scripted_proxy import ScriptedProxy
from tests.support.sessions import OpenSession, reach

pytestmark = pytest.mark.anyio

POTTER = "the potter and the clay"
POTTER_AGAIN = "Has the potter power over the clay?"
LOVE = "love one another"


async def answer(session: Session, task: asyncio.Task[None] | None) -> None:
    assert task is not None, "the session did not ask"
    await asyncio.wait_for(task, 20)
    assert session.question.view is not None


async def started(small_db: Path, proxy: ScriptedProxy, open_session: OpenSession) -> Session:
    session = open_session(small_db, proxy.url, chapter="rom 9")
    session.start()
    await reach(session, lambda: session.can_ask and session.reader.chapter is not None)
    return session


def pinned(session: Session) -> list[str]:
    view = session.question.view
    assert view is not None
    return [r.chunk_id for r in view.result.results if r.pinned]


async def test_the_whole_library_is_one_choice_per_question(small_db: Path, proxy: ScriptedProxy,
                                                           open_session: OpenSession) -> None:
    session = await started(small_db, proxy, open_session)
    await answer(session, session.ask(POTTER))
    assert session.question.ranked_for == ChapterRef("romans", 9)
    assert session.set_whole_library(True)
    view = session.question.view
    assert view is not None and view.whole_library and view.cause == "library" and view.undoable
    assert view.result.context is not None and view.result.context.chapter is None  # ranked with no chapter
    # no open-chapter boost (only the app's focus boost, as with no chapter open at all)
    assert all(r.breakdown.chapter_boost == 1.0 or r.breakdown.chapter_focus for r in view.result.results)
    assert not session.set_whole_library(True)  # already so
    # a chapter move changes nothing while the question is the whole library's
    session.set_chapter(ChapterRef("romans", 3))
    assert session.question.view is view
    # asking the same question again keeps the choice; it is asked with no chapter
    await answer(session, session.ask(POTTER))
    again = session.question.view
    assert again is not None and again.whole_library and again.result.context is not None
    assert again.result.context.chapter is None
    # the next question is ranked for the open chapter again
    await answer(session, session.ask(LOVE))
    nxt = session.question.view
    assert nxt is not None and not nxt.whole_library and session.question.ranked_for == ChapterRef("romans", 3)
    # on again: ranked for the open chapter from the same candidates, and undo goes back
    assert session.set_whole_library(True) and session.set_whole_library(False)
    back = session.question.view
    assert back is not None and not back.whole_library and session.question.ranked_for == ChapterRef("romans", 3)
    assert session.question.undo() and session.question.whole_library


async def test_a_pin_stays_with_questions_like_its_own(small_db: Path, proxy: ScriptedProxy,
                                                      open_session: OpenSession) -> None:
    session = await started(small_db, proxy, open_session)
    await answer(session, session.ask(POTTER))
    view = session.question.view
    assert view is not None
    chosen = view.result.results[-1].chunk_id
    await answer(session, session.toggle_pin(chosen))  # Ctrl+B: the narrow default
    assert pinned(session) == [chosen]
    assert session.search.scope_of(chosen) == PinScope(chosen, "question", POTTER)
    saved = json.loads(SettingsStore().path.read_text())
    assert saved["pins"] == [chosen] and saved["pin_scopes"] == [
        {"chunk_id": chosen, "scope": "question", "question": POTTER}]

    await answer(session, session.ask(LOVE))  # unrelated: not in its results, nor in its context
    assert pinned(session) == []
    love = session.question.view
    assert love is not None and love.result.context is not None and love.result.context.pins == ()
    await answer(session, session.ask(POTTER_AGAIN))  # like it: the pin is back
    assert alike(POTTER, POTTER_AGAIN) and pinned(session) == [chosen]

    # "always": in every answer, as the contract's --pin
    await answer(session, session.pin(chosen, "always"))
    await answer(session, session.ask(LOVE))
    assert pinned(session) == [chosen]
    assert SettingsStore().load().pin_scopes == ()  # an always pin needs no scope entry


async def test_a_passage_pin_follows_the_open_chapter(small_db: Path, proxy: ScriptedProxy,
                                                     open_session: OpenSession) -> None:
    session = await started(small_db, proxy, open_session)
    await answer(session, session.ask(POTTER))
    view = session.question.view
    assert view is not None
    chosen = view.result.results[-1].chunk_id
    await answer(session, session.pin(chosen, "passage"))
    assert pinned(session) == [chosen] and session.search.scope_of(chosen).chapter == ChapterRef("romans", 9)
    await answer(session, session.ask(LOVE))  # any question, while Romans 9 is open
    assert pinned(session) == [chosen]

    session.set_chapter(ChapterRef("romans", 3))  # out of its passage: re-ranked without it
    moved = session.question.view
    assert moved is not None and moved.cause == "chapter" and pinned(session) == []
    assert moved.result.context is not None and moved.result.context.pins == ()

    asked: list[object] = []
    session.question.result_changed.connect(asked.append)
    session.set_chapter(ChapterRef("romans", 9))  # back: it was not searched for, so the question is asked again
    await reach(session, lambda: bool(asked) and not session.question.busy and pinned(session) == [chosen])
    view = session.question.view
    assert view is not None and view.cause == "pins"

    assert session.set_whole_library(True)  # the whole library: no chapter, so no passage pin
    assert pinned(session) == []


def test_an_old_settings_file_loads_its_pins_as_always(amicus_home: Path) -> None:
    store = SettingsStore()
    store.path.parent.mkdir(parents=True, exist_ok=True)
    store.path.write_text(json.dumps({"version": 1, "pins": ["a", "b"]}))
    settings = store.load()
    assert settings.pins == ("a", "b") and settings.pin_scopes == () and store.notice is None
    store.path.write_text(json.dumps({"pins": ["a", "b"], "pin_scopes": [
        {"chunk_id": "a", "scope": "passage", "chapter": "john:3"}, {"chunk_id": "b", "scope": "sometimes"}]}))
    settings = store.load()
    assert settings.pin_scopes == (PinScope("a", "passage", "john:3"),)  # the bad one: "always", with a note
    assert store.notice is not None and "pin_scopes" in store.notice


@pytest.mark.parametrize(("pinned_for", "question", "expected"), [
    ("born again", "What does it mean to be born again?", True),
    ("born again", "How should Christians treat the government?", False),
    ("Should Christians obey the government?", "Must Christians obey the governing authorities?", True),
    ("Is the law itself sin?", "How did sin come into the world?", False),  # one shared word of two
    ("What is it?", "what is it", True),  # no content words: only the same question
    ("What is it?", "What is faith?", False),
])
def test_questions_alike(pinned_for: str, question: str, expected: bool) -> None:
    assert alike(pinned_for, question) is expected


def test_a_workspace_holds_its_pins_scopes_and_an_old_one_loads_its_pins_as_always() -> None:
    from amicus_desktop.session.workspaces import Held

    held = Held(pins=("a", "b"), pin_scopes=(PinScope("a", "question", "born again"),))
    again = Held.from_json(json.loads(json.dumps(held.to_json())))
    assert again.pins == ("a", "b") and again.pin_scopes == held.pin_scopes
    old = Held.from_json({"preferred_scholars": [], "pins": ["a"]})  # written before scopes
    assert old.pins == ("a",) and old.pin_scopes == ()
    bad = Held.from_json({"pins": ["a"], "pin_scopes": [{"chunk_id": "a", "scope": "never"}]})
    assert bad.pins == ("a",) and bad.pin_scopes == ()  # its pin is for every question

"""Reader navigation (``session/reader.py``): typed references, crossing books, clamping."""

from __future__ import annotations

from pathlib import Path

import pytest

from amicus_desktop.core.references import ChapterRef, PassageRef
from amicus_desktop.understand import PassageError
from tests.support.scripted_proxy import ScriptedProxy
from tests.support.sessions import OpenSession, reach

pytestmark = pytest.mark.anyio  # async tests on asyncio; see conftest.py


async def test_typed_references_say_why_they_go_nowhere(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    """A book the database has no text of, or a chapter past the end, is an error naming it; the
    chapter (the ranking's context) stays where it was."""
    session = open_session(small_db, proxy.url, chapter="john:3")
    session.start()
    await reach(session, lambda: session.reader.chapter == ChapterRef("john", 3))
    reader = session.reader
    cases = {
        "Gal 2": ("book", "no text of Galatians; it holds John, Romans"),
        "John 30": ("chapter", "John has 21 chapters"),
        "John 3:99": ("verse", "John 3 has 36 verses"),
        "Hezekiah 4": ("book", "No book of the Bible is called 'Hezekiah'"),
        "hello": ("form", "not a reference"),
    }
    for text, (kind, words) in cases.items():
        with pytest.raises(PassageError) as err:
            reader.resolve(text)
        assert err.value.kind == kind and words in str(err.value), text
    assert reader.chapter == ChapterRef("john", 3)
    # a passage with verses puts them in focus; another chapter clears the focus
    focused: list[PassageRef | None] = []
    reader.focus_changed.connect(focused.append)
    session.open_passage(reader.resolve("Rom 9:4-6"))
    assert reader.chapter == ChapterRef("romans", 9)
    assert session.context("q").chapter == ChapterRef("romans", 9)
    assert reader.focus == PassageRef("romans", 9, 4, 6, "Rom 9:4-6")
    session.step_chapter(1)
    assert reader.focus is None and focused == [reader.resolve("Rom 9:4-6"), None]


async def test_reader_navigation_crosses_books_and_clamps(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    session = open_session(small_db, proxy.url, chapter="john:21")
    session.start()
    await reach(session, lambda: session.reader.chapter == ChapterRef("john", 21))
    reader = session.reader
    assert reader.neighbour(1) == ChapterRef("romans", 1)
    session.set_chapter(ChapterRef("romans", 99))
    assert reader.chapter == ChapterRef("romans", 16)  # clamped to the book
    assert reader.neighbour(1) is None  # the last chapter of the last book
    session.step_chapter(-1)
    assert reader.chapter == ChapterRef("romans", 15)
    assert reader.resolve("John 3:16") == PassageRef("john", 3, 16, 16, "John 3:16")
    assert reader.find("Hezekiah 4") is None
    assert session.library.names.chapter(ChapterRef("john", 3)) == "John 3"

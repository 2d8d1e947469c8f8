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


async def test_a_book_alone_and_a_one_chapter_books_verse_are_read_as_every_bible_writes_them(
    tmp_path: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    """"Obadiah", "3 John" and "2 Jn" open the book's first chapter; in a book of one chapter the number is
    a verse — "Jude 3" is Jude 1:3, "3 John 4" 3 John 1:4 — as references to those books are written.
    A book of many chapters keeps its number a chapter, and the verse still has its bounds."""
    from tests.support.dbs import BOOKS, build_db, demo_like_chunks, verses

    short = [("2-john", "2 John", 63, 1), ("3-john", "3 John", 64, 1), ("jude", "Jude", 65, 1)]
    lines = [(b, 1, v, f"Verse {v} of {name}.") for b, name, _o, _c in short for v in range(1, 14)]
    db = build_db(tmp_path / "short.db", demo_like_chunks(dims=8), books=[*BOOKS, *short], verses=[*verses(), *lines])
    session = open_session(db, proxy.url, chapter="john:3")
    session.start()
    await reach(session, lambda: session.reader.chapter == ChapterRef("john", 3))
    reader = session.reader
    assert reader.resolve("3 John") == PassageRef("3-john", 1, None, None, "3 John")
    assert reader.resolve("2 Jn") == PassageRef("2-john", 1, None, None, "2 Jn")
    assert reader.resolve("Romans") == PassageRef("romans", 1, None, None, "Romans")
    assert reader.resolve("Jude 3") == PassageRef("jude", 1, 3, 3, "Jude 3")
    assert reader.resolve("Jude 3-5") == PassageRef("jude", 1, 3, 5, "Jude 3-5")
    assert reader.resolve("3 John 4") == PassageRef("3-john", 1, 4, 4, "3 John 4")
    assert reader.resolve("Jude 1:4") == PassageRef("jude", 1, 4, 4, "Jude 1:4")
    assert reader.resolve("Romans 8") == PassageRef("romans", 8, None, None, "Romans 8")  # a chapter, as before
    assert reader.resolve("John 3") == PassageRef("john", 3, None, None, "John 3")  # not 3 John
    with pytest.raises(PassageError) as err:
        reader.resolve("Jude 30")
    assert err.value.kind == "verse" and "Jude 1 has 25 verses" in str(err.value)
    with pytest.raises(PassageError):
        reader.resolve("Galatians")  # a book this database has no text of

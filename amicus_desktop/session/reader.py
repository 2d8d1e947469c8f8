"""Reader navigation: the current chapter (the ranking's chapter context) and its text. No Qt.

:class:`Reader` knows which chapter is open, which verses of it are in focus (a typed "John 3:16"
or a result opened in the reader: highlighted and scrolled into view), how to step to the next or
previous one across books, how to read a typed reference (through the app's one reference parser,
:func:`~amicus_desktop.understand.parse_passage`, checked against the books this database holds),
and loads a chapter's verses through an :class:`~.engine.Engine`. The book list comes from the
:class:`~.library.Library`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..core.references import ChapterRef, PassageRef
from ..store.library import LibraryStore
from ..store.verses import Translation
from ..understand import PassageError, parse_passage, resolve_book_name
from .engine import Engine
from .events import Event
from .library import Library
from .reading_history import ReadingHistory

#: a book and a number or range with no chapter: "Jude 3", "3 John 4", "Phm 6-9" (a verse in a one-chapter book)
_VERSES_ONLY = re.compile(
    r"^\s*(?P<book>(?:[1-3]\s*)?[^\W\d_][^\d:]*?)\s*(?P<verses>\d+(?:\s*[-\u2013\u2014]\s*\d+)?)\s*$"
)


@dataclass(frozen=True)
class ChapterText:
    """A chapter's verses as ``(number, text)``; empty when the database has no text for it.
    ``translation`` names the translation they are in (its abbreviation, ``""`` when unknown). ``beside``
    holds the same chapter in a second translation (``beside_translation``) when the reader shows two in
    parallel (empty otherwise); its verse numbers may differ (see :func:`aligned`)."""

    ref: ChapterRef
    verses: tuple[tuple[int, str], ...]
    translation: str = ""
    beside: tuple[tuple[int, str], ...] = ()
    beside_translation: str = ""

    @property
    def parallel(self) -> bool:
        return bool(self.beside_translation)


def aligned(left: tuple[tuple[int, str], ...],
            right: tuple[tuple[int, str], ...]) -> list[tuple[int, str | None, str | None]]:
    """Two translations of a chapter, one row per verse number either holds, in order: ``(verse, left text,
    right text)`` with ``None`` where one translation has no such verse (the versifications differ: a verse
    one tradition numbers and the other omits or joins to its neighbour, as the KJV's 3 John 1:15 against
    the WEB's 1:14)."""
    lmap, rmap = dict(left), dict(right)
    return [(n, lmap.get(n), rmap.get(n)) for n in sorted(lmap.keys() | rmap.keys())]


@dataclass(frozen=True)
class PassageText:
    """The Bible text of a passage (a result's verse range): ``(number, text)`` in order; empty
    when the database has no text for it. ``translation`` as for :class:`ChapterText`."""

    passage: PassageRef
    verses: tuple[tuple[int, str], ...]
    translation: str = ""


def _chapter(translation: Translation | None, book_id: str,
             number: int) -> Callable[[LibraryStore], list[tuple[int, str]]]:
    """What reads a chapter on the DB thread: ``verses`` for the default translation, its own table otherwise."""
    if translation is None or translation.default:
        return lambda store: store.chapter(book_id, number)
    return lambda store: store.verse_index().chapter(translation, book_id, number)


class Reader:
    """Events: :attr:`chapter_changed` (the chapter context moved), :attr:`focus_changed` (the
    verses in focus changed), :attr:`text_loaded` (the current chapter's verses arrived)."""

    def __init__(self, library: Library) -> None:
        self._library = library
        self.chapter: ChapterRef | None = None
        self.text: ChapterText | None = None
        #: The verses to highlight and bring into view, always in :attr:`chapter` (``None``: none).
        self.focus: PassageRef | None = None
        self.focus_changed: Event[PassageRef | None] = Event("verse focus changed")
        self.chapter_changed: Event[ChapterRef | None] = Event("chapter changed")
        self.text_loaded: Event[ChapterText] = Event("chapter text loaded")
        self.passage_loaded: Event[PassageText] = Event("passage text loaded")
        #: where the reader has been (back and forward); :class:`~.navigation.Navigation` records the visits
        self.history = ReadingHistory()
        #: the second translation shown beside the first (``None``: one translation)
        self.beside: Translation | None = None

    @property
    def loaded_chapter(self) -> ChapterRef | None:
        """The chapter whose verses are in :attr:`text` (lags :attr:`chapter` while loading)."""
        return self.text.ref if self.text is not None else None

    def go(self, ref: ChapterRef | None) -> bool:
        """Make ``ref`` (clamped to its book's chapters) current; ``True`` when that changed it."""
        if ref is not None:
            book = self._library.book(ref.book_id)
            if book is not None and book.chapters:
                ref = ChapterRef(ref.book_id, max(1, min(ref.chapter, book.chapters)))
        if ref == self.chapter:
            return False
        self.chapter = ref
        if self.focus is not None and self.focus.chapter_ref != ref:
            self._set_focus(None)
        self.chapter_changed.emit(ref)
        return True

    def show(self, passage: PassageRef) -> bool:
        """Open ``passage``'s chapter with its verses (if any) in focus; ``True`` when the chapter changed."""
        self._set_focus(passage if passage.verse_start is not None else None)
        return self.go(passage.chapter_ref)

    def _set_focus(self, passage: PassageRef | None) -> None:
        if passage != self.focus:
            self.focus = passage
            self.focus_changed.emit(passage)

    def neighbour(self, delta: int) -> ChapterRef | None:
        """The previous (-1) or next (+1) chapter, crossing into the neighbouring book."""
        books = self._library.books
        ids = [b.book_id for b in books]
        if self.chapter is None or self.chapter.book_id not in ids:
            return None
        i = ids.index(self.chapter.book_id)
        n = self.chapter.chapter + delta
        book = books[i]
        if 1 <= n <= book.chapters:
            return ChapterRef(book.book_id, n)
        if n < 1 and i > 0:
            return ChapterRef(books[i - 1].book_id, books[i - 1].chapters)
        if n > book.chapters and i + 1 < len(books):
            return ChapterRef(books[i + 1].book_id, 1)
        return None

    def resolve(self, text: str) -> PassageRef:
        """``"Rom 9"``, ``"romans:9"``, ``"John 3:16"`` → the passage, in a book this database holds.

        Raises :class:`~amicus_desktop.understand.PassageError` saying why not: not a reference, no
        such book, a book the database has no text of, or a chapter or verse past the end.
        """
        books = self._library.books
        passage = parse_passage(self._written_out(text or ""), [b.book_id for b in books])
        passage = replace(passage, text=(text or "").strip())
        book = self._library.book(passage.book_id)
        name = self._library.names.book(passage.book_id)
        if book is None:
            held = ", ".join(b.name for b in books[:6]) + (" …" if len(books) > 6 else "")
            raise PassageError("book", f"This database has no text of {name}; it holds {held}.", passage.book_id)
        if book.chapters and passage.chapter > book.chapters:
            raise PassageError(
                "chapter", f"{name} has {book.chapters} chapter{'s' * (book.chapters != 1)}.", passage.book_id
            )
        return passage

    def _written_out(self, text: str) -> str:
        """``text`` with the chapter a reader leaves out written in: a book named alone ("Obadiah", "3 John",
        "Genesis") is its first chapter, and a one-chapter book's number is a verse ("Jude 3", "Phm 6-9",
        "3 John 4" → chapter 1, as every Bible writes them); anything else as typed."""
        ids = [b.book_id for b in self._library.books]
        alone = resolve_book_name(text, ids) if not any(c.isdigit() for c in text.strip()[1:]) else None
        if alone is not None:
            return f"{alone} 1"
        m = _VERSES_ONLY.match(text)
        book_id = resolve_book_name(m.group("book"), ids) if m else None
        book = self._library.book(book_id) if book_id else None
        if m is not None and book is not None and book.chapters == 1:
            return f"{book_id} 1:{m.group('verses')}"
        return text

    def find(self, text: str) -> PassageRef | None:
        """:meth:`resolve`, or ``None`` when ``text`` is not a passage of this database."""
        try:
            return self.resolve(text)
        except PassageError:
            return None

    async def load_text(self, engine: Engine, ref: ChapterRef, translation: Translation | None = None) -> None:
        """Read ``ref``'s verses (in ``translation``, the database's default when ``None``); they become
        :attr:`text` if ``ref`` is still current then."""
        # plain values (and a frozen Translation) only cross to the DB thread
        verses = await engine.run_db(_chapter(translation, ref.book_id, ref.chapter))
        beside = self.beside
        other: tuple[tuple[int, str], ...] = ()
        if beside is not None and (translation is None or beside.translation_id != translation.translation_id):
            other = tuple(await engine.run_db(_chapter(beside, ref.book_id, ref.chapter)))
        else:
            beside = None
        if engine.is_open and ref == self.chapter:
            self.text = ChapterText(ref, tuple(verses), translation.abbreviation if translation else "", other,
                                    (beside.abbreviation or beside.name) if beside is not None else "")
            self.text_loaded.emit(self.text)

    async def load_passage(self, engine: Engine, passage: PassageRef,
                           translation: Translation | None = None) -> PassageText:
        """Read the verses of ``passage`` (the whole chapter when it names none) and announce them."""
        verses = await engine.run_db(_chapter(translation, passage.book_id, passage.chapter))
        lo = passage.verse_start or 1
        hi = passage.verse_end or passage.verse_start or max((n for n, _t in verses), default=0)
        text = PassageText(passage, tuple((n, t) for n, t in verses if lo <= n <= hi),
                           translation.abbreviation if translation else "")
        if engine.is_open:
            self.passage_loaded.emit(text)
        return text

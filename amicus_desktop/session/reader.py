"""Reader navigation: the current chapter (the ranking's chapter context) and its text. No Qt.

:class:`Reader` knows which chapter is open, how to step to the next or previous one across
books, how to read a typed reference ("Rom 9", "John 3:16"), and loads a chapter's verses through
an :class:`~.engine.Engine`. The book list comes from the :class:`~.library.Library`.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.books import parse_reference
from ..core.types import ChapterRef
from .engine import Engine
from .events import Event
from .library import Library


@dataclass(frozen=True)
class ChapterText:
    """A chapter's verses as ``(number, text)``; empty when the database has no text for it."""

    ref: ChapterRef
    verses: tuple[tuple[int, str], ...]


class Reader:
    """Events: :attr:`chapter_changed` (the chapter context moved), :attr:`text_loaded` (the
    current chapter's verses arrived)."""

    def __init__(self, library: Library) -> None:
        self._library = library
        self.chapter: ChapterRef | None = None
        self.text: ChapterText | None = None
        self.chapter_changed: Event[ChapterRef | None] = Event("chapter changed")
        self.text_loaded: Event[ChapterText] = Event("chapter text loaded")

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
        self.chapter_changed.emit(ref)
        return True

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

    def resolve(self, text: str) -> tuple[ChapterRef, int | None] | None:
        """``"Rom 9"``, ``"romans:9"``, ``"John 3:16"`` → (chapter, verse), or ``None``."""
        known = frozenset(b.book_id for b in self._library.books)
        parsed = parse_reference(text or "", known)
        if parsed is None:
            return None
        book, chapter, verse = parsed
        return ChapterRef(book, chapter), verse

    def resolve_chapter(self, text: str) -> ChapterRef | None:
        found = self.resolve(text)
        return found[0] if found else None

    async def load_text(self, engine: Engine, ref: ChapterRef) -> None:
        """Read ``ref``'s verses; they become :attr:`text` if ``ref`` is still current then."""
        book_id, number = ref.book_id, ref.chapter  # plain values only cross to the DB thread
        verses = await engine.run_db(lambda store: store.chapter(book_id, number))
        if engine.is_open and ref == self.chapter:
            self.text = ChapterText(ref, tuple(verses))
            self.text_loaded.emit(self.text)

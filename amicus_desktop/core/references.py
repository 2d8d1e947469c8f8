"""Scripture places as plain data: a chapter, and a passage a question names. No Qt, no I/O."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .books import book_words

if TYPE_CHECKING:
    from .results import ChunkMetadata


def reference_text(book: str, chapter: int | None = None, verse_start: int | None = None,
                   verse_end: int | None = None) -> str:
    """How a place in scripture is written, everywhere: ``"Romans"``, ``"Romans 9"``,
    ``"Romans 9:11"``, ``"1 Corinthians 13:4-7"``. ``book`` is the name to show; verses count only
    with a chapter, and a range only when it ends past its first verse."""
    if chapter is None:
        return book
    ref = f"{book} {chapter}"
    if verse_start is not None:
        ref += f":{verse_start}"
        if verse_end is not None and verse_end != verse_start:
            ref += f"-{verse_end}"
    return ref


@dataclass(frozen=True)
class ChapterRef:
    """A chapter of a book, e.g. ``ChapterRef("romans", 9)``."""

    book_id: str
    chapter: int

    def __str__(self) -> str:
        return f"{self.book_id}:{self.chapter}"


@dataclass(frozen=True)
class PassageRef:
    """A scripture reference found in a question: a chapter, or verses of one chapter.

    ``verse_start``/``verse_end`` are ``None`` for a whole chapter; a single verse has
    ``verse_end == verse_start``. ``text`` is how the question wrote it ("Rom 9:11").
    """

    book_id: str
    chapter: int
    verse_start: int | None = None
    verse_end: int | None = None
    text: str = ""

    @property
    def chapter_ref(self) -> ChapterRef:
        return ChapterRef(self.book_id, self.chapter)

    def covers(self, meta: ChunkMetadata) -> bool:
        """Whether a chunk with ``meta`` covers this passage (CONTRACT section 6).

        Same book and chapter, and verse ranges overlapping; a whole-chapter reference is covered by
        any chunk of the chapter, and a chunk without verses covers any verse of its chapter.
        """
        if meta.book_id != self.book_id or meta.chapter_num != self.chapter:
            return False
        if self.verse_start is None or meta.verse_start is None:
            return True
        chunk_end = meta.verse_end if meta.verse_end is not None else meta.verse_start
        ref_end = self.verse_end if self.verse_end is not None else self.verse_start
        return meta.verse_start <= ref_end and self.verse_start <= chunk_end

    def label(self, book_name: str | None = None) -> str:
        """``"Romans 9:11"``, ``"Romans 9"``, ``"1 Corinthians 13:4-7"``."""
        return reference_text(book_name or book_words(self.book_id), self.chapter, self.verse_start, self.verse_end)

    def to_json(self) -> dict[str, Any]:
        return {
            "book_id": self.book_id,
            "chapter_num": self.chapter,
            "verse_start": self.verse_start,
            "verse_end": self.verse_end,
            "text": self.text,
        }


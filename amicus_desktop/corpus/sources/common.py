"""What every chunk source shares: the build scope, scholars, references and the WEB text."""

from __future__ import annotations

import dataclasses
import re
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ...core.books import BOOKS, BY_ID, BY_OSIS, Book, resolve_book
from ...core.parts import with_part
from ...core.results import ChunkMetadata
from ...core.scholars import Scholar
from ...core.scholars import resolve as resolve_scholar
from ...store.writer import ChunkRecord
from ..library import Library
from ..sword import Token, verse_tokens

DEMO_BOOKS = ("romans", "john")


def meta(
    scholar_id: str | None = None,
    *,
    book_id: str | None = None,
    chapter_num: int | None = None,
    verse_start: int | None = None,
    verse_end: int | None = None,
    panel_type: str | None = None,
) -> ChunkMetadata:
    """ChunkMetadata with the scholar's tradition filled in (``core.scholars``)."""
    tradition = resolve_scholar(scholar_id).tradition if scholar_id else None
    return ChunkMetadata(scholar_id=scholar_id, tradition=tradition, book_id=book_id, chapter_num=chapter_num,
                         verse_start=verse_start, verse_end=verse_end, panel_type=panel_type)


@dataclass(frozen=True)
class Scope:
    """The books a build covers, in canonical order. ``full`` when it is all 66."""

    books: tuple[Book, ...]

    @classmethod
    def of(cls, names: Sequence[str] | None) -> Scope:
        """``None`` → all 66 books; otherwise names resolved like the CLI's ``--chapter``."""
        if names is None:
            return cls(BOOKS)
        ids: set[str] = set()
        for name in names:
            name = name.strip()
            if not name:
                continue
            book_id = resolve_book(name)
            if book_id is None:
                raise ValueError(f"unknown book {name!r}")
            ids.add(book_id)
        if not ids:
            raise ValueError("no books chosen")
        return cls(tuple(b for b in BOOKS if b.book_id in ids))

    @property
    def full(self) -> bool:
        return len(self.books) == len(BOOKS)

    @property
    def ids(self) -> frozenset[str]:
        return frozenset(b.book_id for b in self.books)

    @property
    def osis(self) -> frozenset[str]:
        return frozenset(b.osis for b in self.books)

    def __contains__(self, book: object) -> bool:
        if isinstance(book, Book):
            return book.book_id in self.ids
        return book in self.ids or book in self.osis

    def describe(self) -> str:
        if self.full:
            return "all 66 books"
        return ", ".join(b.name for b in self.books)


# -- references ---------------------------------------------------------------------------------

def ref(book: Book | str, chapter: int | None = None, verse: int | None = None,
        verse_end: int | None = None) -> str:
    """``Romans 9:1-5``; ``Romans 9``; ``Romans``."""
    b = book if isinstance(book, Book) else (BY_ID.get(book) or BY_OSIS[book])
    out = b.name
    if chapter:
        out += f" {chapter}"
        if verse:
            out += f":{verse}"
            if verse_end and verse_end != verse:
                out += f"-{verse_end}"
    return out


@dataclass(frozen=True, order=True)
class VerseRef:
    ordinal: int
    chapter: int
    verse: int
    verse_end: int

    @property
    def book(self) -> Book:
        return BOOKS[self.ordinal - 1]

    def short(self) -> str:
        """``3:24-26`` (no book)."""
        if not self.verse:
            return str(self.chapter)
        s = f"{self.chapter}:{self.verse}"
        return s + (f"-{self.verse_end}" if self.verse_end != self.verse else "")

    def full(self) -> str:
        return f"{self.book.name} {self.short()}"

    def key(self) -> str:
        return f"{self.book.osis}.{self.short().replace(':', '.')}"


_OSIS_REF = re.compile(r"^([1-4]?[A-Za-z]+)\.(\d+)(?:\.(\d+))?$")
_LOOSE_REF = re.compile(r"^\s*([1-4]?\s?[A-Za-z]+)\.?\s+(\d+)(?::(\d+)(?:\s*-\s*(\d+))?)?")


def parse_osis_ref(value: str) -> VerseRef | None:
    """``Rom.3.24`` or ``Rom.3.24-Rom.3.26`` (ranges inside one chapter keep their end)."""
    start, _, end = value.strip().partition("-")
    m = _OSIS_REF.match(start)
    if not m or m.group(1) not in BY_OSIS:
        return None
    book = BY_OSIS[m.group(1)]
    chapter = int(m.group(2))
    verse = int(m.group(3) or 0)
    verse_end = verse
    if end:
        m2 = _OSIS_REF.match(end)
        if m2 and m2.group(1) == m.group(1) and int(m2.group(2)) == chapter and m2.group(3):
            verse_end = int(m2.group(3))
    return VerseRef(book.ordinal, chapter, verse, verse_end)


def parse_loose_ref(value: str) -> VerseRef | None:
    """Scofield's ``ro 3:23``, ``Ro 10:1-11`` (first reference of a list)."""
    m = _LOOSE_REF.match(value)
    if not m:
        return None
    book_id = resolve_book(m.group(1))
    if book_id is None:
        return None
    verse = int(m.group(3) or 0)
    verse_end = int(m.group(4) or verse)
    return VerseRef(BY_ID[book_id].ordinal, int(m.group(2)), verse, max(verse, verse_end))


def join_refs(refs: Iterable[VerseRef]) -> str:
    """``1:16, 17; 2:13; 3:21, 22, 24-26`` — chapters grouped, in order, without the book."""
    out: list[str] = []
    last_chapter = None
    for r in sorted(set(refs)):
        if r.chapter == last_chapter and r.verse:
            out[-1] += ", " + r.short().split(":", 1)[1]
        else:
            out.append(r.short())
        last_chapter = r.chapter
    return "; ".join(out)


# -- the WEB ------------------------------------------------------------------------------------

@dataclass
class BibleText:
    """The WEB's verses (plain text, one line) and Strong's tokens for a set of books."""

    verses: dict[tuple[str, int, int], str] = field(default_factory=dict)
    tokens: dict[tuple[str, int, int], list[Token]] = field(default_factory=dict)

    @classmethod
    def load(cls, library: Library, books: Iterable[Book], module: str = "web") -> BibleText:
        """The verses of ``books`` in the Bible ``module`` (a :data:`~..library.MODULES` key: ``web``, ``kjv``)."""
        bible = library.verse_module(module)
        out = cls()
        for book in books:
            for entry in bible.entries(book.osis):
                if entry.chapter == 0 or entry.verse == 0:
                    continue  # book/chapter headings (the WEB's preface sits in Genesis' slot)
                text, toks = verse_tokens(entry.raw)
                # The KJV marks its paragraphs with a pilcrow inside the verse text: not a word.
                text = " ".join(text.replace("\u00b6", " ").split())
                if not text:
                    continue  # e.g. Acts 8:37: only a footnote in the WEB
                key = (book.book_id, entry.chapter, entry.verse)
                out.verses[key] = text
                out.tokens[key] = toks
        return out

    @classmethod
    def whole(cls, library: Library, module: str = "web") -> BibleText:
        """All 66 books of ``module``, read once per :class:`Library` (every build carries the whole Bible's
        text; a process that builds several libraries reads it once). Shared: never change it."""
        kept = _WHOLE.setdefault(library, {})
        if module not in kept:
            kept[module] = cls.load(library, BOOKS, module)
        return kept[module]

    def verse(self, book_id: str, chapter: int, verse: int) -> str | None:
        return self.verses.get((book_id, chapter, verse))

    def only(self, book_ids: Iterable[str]) -> BibleText:
        """The verses and tokens of ``book_ids`` alone (a build's scope out of the whole Bible)."""
        ids = frozenset(book_ids)
        return BibleText({k: v for k, v in self.verses.items() if k[0] in ids},
                         {k: v for k, v in self.tokens.items() if k[0] in ids})

    def rows(self) -> list[tuple[str, int, int, str]]:
        return [(b, c, v, t) for (b, c, v), t in self.verses.items()]


_WHOLE: weakref.WeakKeyDictionary[Library, dict[str, BibleText]] = weakref.WeakKeyDictionary()


def record(chunk_id: str, source_type: str, source_id: str, text: str,
           metadata: ChunkMetadata) -> ChunkRecord:
    return ChunkRecord(chunk_id=chunk_id, source_type=source_type, source_id=source_id,
                       text=text.strip(), metadata=metadata)


def mark_parts(records: Iterable[ChunkRecord]) -> list[ChunkRecord]:
    """``records`` with each note in several parts marked ``#n/N`` on its ``source_id``
    (:mod:`amicus_desktop.core.parts`), so titles can say "part 2 of 3".

    A part is a record whose id ends in ``#<number>``; parts with the same id before the ``#`` are
    one note, numbered in the order given. Pass only parts of notes: a ``#1`` that numbers distinct
    items (Scofield's quotations) is not a part.
    """
    out = list(records)
    notes: dict[str, list[int]] = {}
    for i, rec in enumerate(out):
        base, sep, number = rec.chunk_id.rpartition("#")
        if sep and number.isdigit():
            notes.setdefault(base, []).append(i)
    for members in notes.values():
        for n, i in enumerate(members, start=1):
            out[i] = dataclasses.replace(out[i], source_id=with_part(out[i].source_id, n, len(members)))
    return out


def scholars_of(records: Iterable[ChunkRecord]) -> list[Scholar]:
    """Who every ``scholar_id`` the records name is (for the database's ``scholars`` table)."""
    ids = sorted({r.metadata.scholar_id for r in records if r.metadata.scholar_id})
    return [resolve_scholar(scholar_id) for scholar_id in ids]

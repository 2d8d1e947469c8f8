"""Scripture references in what a person types: one parser for the whole app.

Two faces over the same machinery:

* :func:`find_references` — every reference in a free-text question ("What does Rom 9:11 mean?"),
  for the reference boost of CONTRACT section 6;
* :func:`parse_passage` — a whole input that *is* one reference ("John 3:16", "rom 9",
  "1cor:13", "romans:9", "jn3:16", "John 3 16"), for the reader's go-to box and ``--chapter``.

Book names are recognised by `pythonbible <https://pypi.org/project/pythonbible/>`_ (full names,
SBL/Logos-style abbreviations, "I Corinthians", "1st Cor", "Song of Songs", "Qoh" …), which also
knows how many verses each chapter has. It falls short on forms readers type, which are rewritten
(:mod:`.forms`) before it reads the text; and it raises on some inputs (a range across books,
"Gen 3:11-1Jn 9"), so every call into it is guarded here: a text it cannot read holds no reference.

Every reference returned is valid in the canon — chapter and verses from 1 up to what the book
and chapter hold (a range running past the chapter's end is cut there) — and a question yields at
most :data:`MAX_REFERENCES` of them (CONTRACT section 6). Chapter and verse numbers are digits:
"Romans nine" is not a reference.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator

import pythonbible as pb
from pythonbible.parser import normalize_reference
from pythonbible.regular_expressions import SCRIPTURE_REFERENCE_REGULAR_EXPRESSION

from ..core.books import BOOKS, BY_ID, Book, resolve_book
from ..core.references import PassageRef
from .forms import DASHES, normalise

__all__ = [
    "MAX_REFERENCES", "PassageError", "find_references", "parse_passage", "reference_spans", "resolve_book_name",
    "verse_count",
]

#: References one question may name (a chapter each; "Romans 3:21-5:2" counts 3). More are ignored:
#: each joins up to 20 chunks to the pool and a chip to the window, and 1,189 chapters in one
#: question once brought the app down. Documented in CONTRACT section 6.
MAX_REFERENCES = 24


class PassageError(ValueError):
    """An input is not a usable reference. ``kind`` says why: ``form``, ``book``, ``chapter`` or ``verse``.

    ``book_id`` is set when the book was recognised (for "John 30": ``john``), so a caller can say
    "John has 21 chapters".
    """

    def __init__(self, kind: str, message: str, book_id: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.book_id = book_id


def _pb_book(book: Book) -> pb.Book:
    return pb.Book(book.ordinal)


def _our_book(book: pb.Book | None) -> Book | None:
    if book is None:
        return None
    return BOOKS[book.value - 1] if 1 <= book.value <= len(BOOKS) else None


def verse_count(book_id: str, chapter: int) -> int:
    """Verses in ``chapter`` of the canonical book ``book_id`` (0 for a chapter or book the canon lacks)."""
    book = BY_ID.get(book_id)
    return _verses(book, chapter) if book is not None else 0


def _verses(book: Book, chapter: int) -> int:
    """Verses in ``chapter`` of ``book`` (0 when pythonbible does not know the chapter)."""
    if not 1 <= chapter <= book.chapters:
        return 0
    try:
        return int(pb.get_number_of_verses(_pb_book(book), chapter))
    except Exception:  # pythonbible's own tables: a gap there must not end a question
        return 0


def _normalised(span: str) -> list[pb.NormalizedReference]:
    """pythonbible's reading of one matched span, or ``[]`` when it cannot read it.

    A range across books ("Gen 3:11-1Jn 9") raises inside pythonbible; its first part alone is
    still read ("Gen 3:11"), as a reader who typed it meant at least that.
    """
    for text in (span, span.split("-", 1)[0]):
        try:
            return list(normalize_reference(text))
        except Exception:
            continue
    return []


def _in_canon(book: Book, chapter: int, start: int | None, end: int | None, text: str) -> PassageRef | None:
    """The reference if the canon holds it (a range past the chapter's end is cut there), else ``None``."""
    verses = _verses(book, chapter)
    if verses == 0:
        return None
    if start is None:
        return PassageRef(book.book_id, chapter, None, None, text)
    end = start if end is None else end
    if not 1 <= start <= verses or end < start:
        return None
    return PassageRef(book.book_id, chapter, start, min(end, verses), text)


def _split_by_chapter(book: Book, ref: pb.NormalizedReference, text: str) -> Iterator[PassageRef]:
    """One :class:`PassageRef` per chapter of a pythonbible reference (ranges may cross chapters)."""
    if ref.start_chapter is None:
        return  # a book name alone ("Romans nine") is not a reference
    end_chapter = min(ref.end_chapter or ref.start_chapter, book.chapters)
    for chapter in range(ref.start_chapter, end_chapter + 1):
        if ref.start_verse is None:
            start = end = None
        else:
            start = ref.start_verse if chapter == ref.start_chapter else 1
            if chapter == end_chapter:
                end = ref.end_verse if ref.end_verse is not None else start
            else:
                end = _verses(book, chapter)
        passage = _in_canon(book, chapter, start, end, text)
        if passage is not None:
            yield passage


def find_references(text: str, limit: int = MAX_REFERENCES) -> list[PassageRef]:
    """Every scripture reference in ``text``, in order, without duplicates, at most ``limit``.

    A range across chapters ("Romans 3:21-5:2") becomes one reference per chapter, as the contract's
    reference object names one chapter. ``text`` of each is the words the question used.
    """
    found: list[PassageRef] = []
    for _span, passages in reference_spans(text):
        for passage in passages:
            if passage not in found:
                found.append(passage)
                if len(found) >= limit:
                    return found
    return found


def reference_spans(text: str) -> list[tuple[tuple[int, int], tuple[PassageRef, ...]]]:
    """Where ``text`` names references: each span ``(start, end)`` of ``text`` that reads as one or more
    valid references, with them — all of them, not cut at :data:`MAX_REFERENCES`, so that a caller can
    take every reference's words out of the question *by position* (cutting a reference's text wherever
    it occurs cut "John 3:1" out of "John 3:16" and left a "6")."""
    clean, offsets = normalise(text)
    spans: list[tuple[tuple[int, int], tuple[PassageRef, ...]]] = []
    for m_start, matched in _matches(clean):
        span = matched.strip(" ,;.")
        if not span:
            continue
        start = clean.index(span, m_start)
        first, last = offsets[start], offsets[start + len(span) - 1] + 1
        original = text[first:last].strip()
        passages = _passages(matched, original)
        if passages:
            spans.append(((first, last), passages))
    return spans


def _passages(matched: str, original: str) -> tuple[PassageRef, ...]:
    """The valid passages of one match (``original``: the words the question used for it)."""
    passages: list[PassageRef] = []
    for ref in _normalised(matched):
        book = _our_book(ref.book)
        if book is None or ref.end_book not in (None, ref.book):
            continue  # apocrypha, or a range across books: not a passage of one chapter
        passages.extend(_split_by_chapter(book, ref, original))
    return tuple(passages)


def _matches(clean: str) -> Iterator[tuple[int, str]]:
    """pythonbible's matches in ``clean``: (where each starts, its text).

    Each search after a match starts on the text *after* it, without what came before: the pattern
    will not read "John" right after "1 " (that is "1 John"), and in "John 3:1 John 3:16" the "1" is the
    first reference's verse, so the second "John" was never found.
    """
    pos = 0
    while pos < len(clean):
        m = re.search(SCRIPTURE_REFERENCE_REGULAR_EXPRESSION, clean[pos:])
        if m is None:
            return
        if m.end() == m.start():  # an empty match: step over one character
            pos += m.start() + 1
            continue
        matched = _without_next_book(clean, pos + m.start(), m[0])
        yield pos + m.start(), matched
        pos += m.start() + len(matched)


#: a number at the end of a match, after a comma or a semicolon ("Gen 1:1, 1"): a further verse
#: or chapter to pythonbible, though it may begin the next book's name ("Gen 1:1, 1 Samuel 1")
_TRAILING_NUMBER = re.compile(r"\s*[,;]\s*([1-3])\s*$")


def _without_next_book(clean: str, start: int, matched: str) -> str:
    """``matched`` without a last number that begins the name of the book after it ("Gen 1:1, 1 Samuel 1")."""
    tail = _TRAILING_NUMBER.search(matched)
    if tail is None:
        return matched
    after = re.match(SCRIPTURE_REFERENCE_REGULAR_EXPRESSION, clean[start + tail.start(1):])
    return matched[: tail.start()] if after is not None and _passages(after[0], "") else matched


def _pb_book_of(text: str) -> Book | None:
    """The canonical book pythonbible reads in ``text`` followed by a chapter, or ``None``."""
    try:
        refs = pb.get_references(f"{text} 1")
    except Exception:  # see _normalised: pythonbible raises on some inputs
        return None
    for ref in refs:
        book = _our_book(ref.book)
        if book is not None and ref.start_chapter is not None:
            return book
    return None


def resolve_book_name(text: str, known: Collection[str] = ()) -> str | None:
    """The ``book_id`` a person meant by ``text`` ("Rom", "1cor", "I Corinthians", "song-of-solomon").

    ``known`` are the database's ``book_id`` values, tried first and exactly (case-insensitive), so a
    database with books outside the canon still resolves its own ids. Then pythonbible's names, then
    the book table's abbreviations and a unique prefix.
    """
    raw = text.strip().rstrip(".")
    if not raw:
        return None
    for book_id in known:
        if book_id.lower() == raw.lower():
            return book_id
    spaced = re.sub(r"(?<=\d)-|-(?=\w)", " ", raw)
    book = _pb_book_of(spaced)
    if book is not None:
        return book.book_id
    return resolve_book(spaced, frozenset(known))


#: A whole input that is one reference. The book is letters (after an optional 1, 2 or 3): no other
#: digit may hide in it, so "John 3 16" is John 3:16 and never "John 3", chapter 16. Between
#: chapter and verse: ``:``, ``.`` or spaces; before the chapter: nothing ("rom9"), spaces, ``:``
#: or ``.``.
_PASSAGE = re.compile(
    r"^\s*(?P<book>(?:[1-3](?:st|nd|rd)?\s*-?\s*)?[^\W\d_][^\d:]*?)\s*[\s:.]?\s*(?P<chapter>\d+)"
    r"(?:\s*(?:[:.]|\s)\s*(?P<start>\d+)(?:\s*-\s*(?P<end>\d+))?)?\s*$",
    re.IGNORECASE,
)
#: digits a chapter or verse number may have (no book has 1,000 chapters nor a chapter 1,000 verses)
_MAX_DIGITS = 3


def parse_passage(text: str, known: Collection[str] = (), *, check_bounds: bool = True) -> PassageRef:
    """The reference that ``text`` is, in full: ``"Rom 9"``, ``"romans:9"``, ``"John 3:16"``, ``"jn3 16-18"``.

    Raises :class:`PassageError` when it is not one — it never guesses: an input that is not one
    reference ("John 3 16 17", "Gen 3:11-1Jn 9") says so. With ``check_bounds`` a chapter or verse
    past the end of a canonical book is an error too ("John 30": John has 21 chapters); without it
    (the command line's ``--chapter``, where an unknown chapter simply boosts nothing) only the form
    and the book are checked, and a book that is not recognised is kept as typed, lower-cased.
    Chapter or verse 0 is never a reference.
    """
    typed = (text or "").translate(DASHES)
    m = _PASSAGE.match(typed)
    shown = typed.strip()
    if not m or any(len(g) > _MAX_DIGITS for g in m.group("chapter", "start", "end") if g):
        raise PassageError("form", f"{shown!r} is not a reference such as 'Romans 9' or 'John 3:16'.")
    book_id = resolve_book_name(m.group("book"), known)
    if book_id is None:
        if not check_bounds:
            book_id = m.group("book").strip().lower()
        else:
            raise PassageError("book", f"No book of the Bible is called {m.group('book').strip()!r}.")
    chapter = int(m.group("chapter"))
    start = int(m.group("start")) if m.group("start") else None
    end = int(m.group("end")) if m.group("end") else start
    if chapter < 1 or (start is not None and (start < 1 or (end is not None and end < start))):
        raise PassageError("form", f"{shown!r} has a chapter or verse range that cannot be.", book_id)
    canon = BY_ID.get(book_id)
    if check_bounds and canon is not None:
        if chapter > canon.chapters:
            raise PassageError(
                "chapter", f"{canon.name} has {canon.chapters} chapter{'s' * (canon.chapters != 1)}.", book_id
            )
        if start is not None:
            verses = _verses(canon, chapter)
            if start > verses:
                raise PassageError("verse", f"{canon.name} {chapter} has {verses} verses.", book_id)
            end = min(end or start, verses)
    return PassageRef(book_id, chapter, start, end, shown)

"""Scripture references in what a person types: one parser for the whole app.

Two faces over the same machinery:

* :func:`find_references` — every reference in a free-text question ("What does Rom 9:11 mean?"),
  for the reference boost of CONTRACT section 6;
* :func:`parse_passage` — a whole input that *is* one reference ("John 3:16", "rom 9",
  "1cor:13", "romans:9"), for the reader's go-to box and ``--chapter``.

Book names are recognised by `pythonbible <https://pypi.org/project/pythonbible/>`_ (full names,
SBL/Logos-style abbreviations, "I Corinthians", "1st Cor", "Song of Songs", "Qoh" …), which also
validates chapter and verse numbers. It falls short on a few forms people use, which we normalise
before handing it the text (measured in ``tests/understand/test_references.py``):

* en and em dashes in verse ranges ("John 3:16–18" gave only verse 16);
* two-letter and other short abbreviations it does not know ("Mt 5:3", "Mk 1", "Lk 2", "Is 53",
  "Ex 20", "Am 5:24"): the book table in :mod:`amicus_desktop.core.books` knows them, and they are
  rewritten to the book's name when a chapter number follows (an abbreviation that is also an
  English word, such as "Is" or "Am", only when written with a capital);
* the ``book_id:chapter`` form of the command line ("romans:9", "1-corinthians:13").

Chapter and verse numbers are digits: "Romans nine" is not a reference.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterator

import pythonbible as pb
from pythonbible.parser import normalize_reference
from pythonbible.regular_expressions import SCRIPTURE_REFERENCE_REGULAR_EXPRESSION

from ..core.books import _CANON, BOOKS, BY_ID, Book, resolve_book
from ..core.references import PassageRef

__all__ = ["PassageError", "find_references", "parse_passage", "resolve_book_name"]

_DASHES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2011": "-", "\u2012": "-", "\u2212": "-"})
#: Short abbreviations that are also English words: rewritten only when capitalised ("Is 53").
_ENGLISH_WORDS = frozenset({"is", "am", "so", "he", "re", "ex", "ho", "la", "na", "mi", "ob", "es", "ne", "ga",
                            "ac", "ep", "co", "da", "be", "do", "no", "jam"})


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


def _our_book(book: pb.Book) -> Book | None:
    return BOOKS[book.value - 1] if 1 <= book.value <= len(BOOKS) else None


@functools.cache
def _rewrites() -> tuple[re.Pattern[str], dict[str, str]]:
    """Abbreviations from our book table that pythonbible does not recognise, and the names to use.

    Computed once by asking pythonbible, so that a newer pythonbible that learns a form makes the
    rewrite unnecessary without a change here.
    """
    names: dict[str, str] = {}
    for book, (_name, osis, _chapters, abbreviations) in zip(BOOKS, _CANON, strict=True):
        for alias in (osis, *abbreviations):
            if not pb.get_references(f"{alias} 1:1"):
                names[alias.lower()] = book.name
    alternatives = "|".join(sorted((re.escape(a) for a in names), key=len, reverse=True))
    pattern = re.compile(rf"(?<![\w])({alternatives})\.?(?=\s*\d)", re.IGNORECASE)
    return pattern, names


def _normalise(text: str) -> tuple[str, list[int]]:
    """``text`` made readable for pythonbible, and for each of its characters the original offset."""
    text = text.translate(_DASHES)
    pattern, names = _rewrites()
    out: list[str] = []
    offsets: list[int] = []
    pos = 0
    for m in pattern.finditer(text):
        alias = m.group(1)
        if alias.lower() in _ENGLISH_WORDS and not alias[0].isupper():
            continue
        out.append(text[pos : m.start()])
        offsets.extend(range(pos, m.start()))
        name = names[alias.lower()]
        out.append(name)
        # every character of the replacement maps into the abbreviation it replaced
        offsets.extend(min(m.start() + i, m.end() - 1) for i in range(len(name)))
        pos = m.end()
    out.append(text[pos:])
    offsets.extend(range(pos, len(text)))
    return "".join(out), offsets


def _split_by_chapter(book: Book, ref: pb.NormalizedReference, text: str) -> Iterator[PassageRef]:
    """One :class:`PassageRef` per chapter of a pythonbible reference (ranges may cross chapters)."""
    if ref.start_chapter is None:
        return  # a book name alone ("Romans nine") is not a reference
    end_chapter = ref.end_chapter or ref.start_chapter
    for chapter in range(ref.start_chapter, end_chapter + 1):
        whole = ref.start_verse is None
        start = None if whole else (ref.start_verse if chapter == ref.start_chapter else 1)
        if whole:
            end = None
        elif chapter == end_chapter:
            end = ref.end_verse if ref.end_verse is not None else start
        else:
            end = pb.get_number_of_verses(_pb_book(book), chapter)
        yield PassageRef(book.book_id, chapter, start, end, text)


def find_references(text: str) -> list[PassageRef]:
    """Every scripture reference in ``text``, in order, without duplicates.

    A range across chapters ("Romans 3:21-5:2") becomes one reference per chapter, as the contract's
    reference object names one chapter. ``text`` of each is the words the question used.
    """
    clean, offsets = _normalise(text)
    found: list[PassageRef] = []
    for m in re.finditer(SCRIPTURE_REFERENCE_REGULAR_EXPRESSION, clean):
        span = m[0].strip(" ,;.")
        start = clean.index(span, m.start()) if span else m.start()
        original = text[offsets[start] : offsets[start + len(span) - 1] + 1].strip() if span else ""
        for ref in normalize_reference(m[0]):
            book = _our_book(ref.book)
            if book is None or ref.end_book not in (None, ref.book):
                continue  # apocrypha, or a range across books: not a passage of one chapter
            for passage in _split_by_chapter(book, ref, original):
                if passage not in found:
                    found.append(passage)
    return found


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
    for ref in pb.get_references(f"{spaced} 1"):
        book = _our_book(ref.book)
        if book is not None and ref.start_chapter is not None:
            return book.book_id
    return resolve_book(spaced, frozenset(known))


_PASSAGE = re.compile(
    r"^\s*(?P<book>.*?[^\W\d_].*?)\s*(?:[\s:.]\s*)(?P<chapter>\d+)"
    r"(?:\s*[:.]\s*(?P<start>\d+)(?:\s*-\s*(?P<end>\d+))?)?\s*$"
)


def parse_passage(text: str, known: Collection[str] = (), *, check_bounds: bool = True) -> PassageRef:
    """The reference that ``text`` is, in full: ``"Rom 9"``, ``"romans:9"``, ``"John 3:16"``, ``"Jn 3:16-18"``.

    Raises :class:`PassageError` when it is not one. With ``check_bounds`` a chapter or verse past the
    end of a canonical book is an error too ("John 30": John has 21 chapters); without it (the
    command line's ``--chapter``, where an unknown chapter simply boosts nothing) only the form and
    the book are checked, and a book that is not recognised is kept as typed, lower-cased.
    """
    typed = (text or "").translate(_DASHES)
    m = _PASSAGE.match(typed)
    if not m:
        raise PassageError("form", f"{text.strip()!r} is not a reference such as 'Romans 9' or 'John 3:16'.")
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
        raise PassageError("form", f"{text.strip()!r} has a chapter or verse range that cannot be.", book_id)
    canon = BY_ID.get(book_id)
    if check_bounds and canon is not None:
        if chapter > canon.chapters:
            raise PassageError(
                "chapter", f"{canon.name} has {canon.chapters} chapter{'s' * (canon.chapters != 1)}.", book_id
            )
        if start is not None:
            verses = pb.get_number_of_verses(_pb_book(canon), chapter)
            if start > verses:
                raise PassageError("verse", f"{canon.name} {chapter} has {verses} verses.", book_id)
            end = min(end or start, verses)
    return PassageRef(book_id, chapter, start, end, text.strip())

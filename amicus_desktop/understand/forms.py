"""The forms readers type that pythonbible does not read, rewritten into forms it does.

pythonbible gets most references right; measured in ``tests/understand/test_references.py``, it
misses:

* en and em dashes in verse ranges ("John 3:16–18" gave only verse 16);
* two-letter and other short abbreviations ("Mt 5:3", "Mk 1", "Lk 2", "Is 53", "Ex 20", "Am 5:24"):
  the book table in :mod:`amicus_desktop.core.books` knows them, and they are rewritten to the
  book's name when a chapter number follows (an abbreviation that is also an English word, such as
  "Is" or "Am", only when written with a capital);
* a book glued to its chapter ("rom9", "jn3:16", "1Jn4"): a space is put between;
* a verse after a space instead of a colon ("John 3 16", "1Jn 4 8", "Acts 2 38-41"): right after a
  book and a chapter, a second number of at most three digits is the verse (pythonbible read
  "John 3 16" as John 3 and dropped the 16, and the go-to box opened John 16) — unless it begins
  the name of the next book ("Genesis 1 1 Thessalonians 1:1").

Numbers that follow no book ("the 3 wise men", "7 churches") are left alone. :func:`normalise`
returns the rewritten text and, for each of its characters, its offset in the original, so that a
reference can quote the words the question used.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

import pythonbible as pb
from pythonbible.books import Book as PbBook
from pythonbible.regular_expressions import SCRIPTURE_REFERENCE_REGULAR_EXPRESSION

from ..core.books import BOOKS

DASHES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2011": "-", "\u2012": "-", "\u2212": "-"})
#: Short abbreviations that are also English words: rewritten only when capitalised ("Is 53").
ENGLISH_WORDS = frozenset({"is", "am", "so", "he", "re", "ex", "ho", "la", "na", "mi", "ob", "es", "ne", "ga",
                           "ac", "ep", "co", "da", "be", "do", "no", "jam"})

#: Not preceded by a letter or digit (a book name starts a word).
_WORD_START = r"(?<![^\W_])"


def _known_to_pythonbible(alias: str) -> bool:
    try:
        return bool(pb.get_references(f"{alias} 1:1"))
    except Exception:
        return False


@functools.cache
def _abbreviations() -> tuple[re.Pattern[str], dict[str, str]]:
    """Abbreviations from our book table that pythonbible does not recognise, and the names to use.

    Computed once by asking pythonbible, so that a newer pythonbible that learns a form makes the
    rewrite unnecessary without a change here.
    """
    names: dict[str, str] = {}
    for book in BOOKS:
        for alias in (book.osis, *book.abbreviations):
            if not _known_to_pythonbible(alias):
                names[alias.lower()] = book.name
    alternatives = "|".join(sorted((re.escape(a) for a in names), key=len, reverse=True))
    pattern = re.compile(rf"(?<![\w])({alternatives})\.?(?=\s*\d)", re.IGNORECASE)
    return pattern, names


@functools.cache
def _book_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(a book glued to a digit, a book and chapter followed by a space and a verse)."""
    books = "|".join(f"(?:{b.regular_expression})" for b in PbBook)
    glued = re.compile(rf"{_WORD_START}(?:{books})\.?(?=\d)", re.IGNORECASE)
    spaced_verse = re.compile(
        rf"{_WORD_START}(?:{books})\.*\s*\d{{1,3}}(?P<gap>\s+)\d{{1,3}}(?:\s*-\s*\d{{1,3}})?(?!\d)(?!\s*[:.]\s*\d)",
        re.IGNORECASE,
    )
    return glued, spaced_verse


Rewrite = Callable[[re.Match[str]], str | None]


def _sub(text: str, offsets: list[int], pattern: re.Pattern[str], rewrite: Rewrite) -> tuple[str, list[int]]:
    """``text`` with each match of ``pattern`` replaced by ``rewrite(match)`` (``None`` keeps it), and
    the original offsets carried along (a replacement's characters map into the span it replaced)."""
    out: list[str] = []
    new_offsets: list[int] = []
    pos = 0
    for m in pattern.finditer(text):
        replacement = rewrite(m)
        if replacement is None:
            continue
        out.append(text[pos : m.start()])
        new_offsets.extend(offsets[pos : m.start()])
        out.append(replacement)
        new_offsets.extend(offsets[min(m.start() + i, m.end() - 1)] for i in range(len(replacement)))
        pos = m.end()
    out.append(text[pos:])
    new_offsets.extend(offsets[pos:])
    return "".join(out), new_offsets


def _abbreviation(m: re.Match[str]) -> str | None:
    alias = m.group(1)
    if alias.lower() in ENGLISH_WORDS and not alias[0].isupper():
        return None
    return _abbreviations()[1][alias.lower()]


def _spaced_verse(m: re.Match[str]) -> str | None:
    # the gap becomes ":" and spaces (pythonbible allows both around a colon), so offsets stay put
    gap_start, gap_end = m.span("gap")
    if m.group(0)[gap_end - m.start():].isdigit() and re.match(SCRIPTURE_REFERENCE_REGULAR_EXPRESSION,
                                                               m.string[gap_end:]):
        return None  # "Genesis 1 1 Thessalonians 1:1": the number begins the next book's name
    start = gap_start - m.start()
    whole = m.group(0)
    return whole[:start] + ":" + " " * (gap_end - gap_start - 1) + whole[gap_end - m.start():]


def normalise(text: str) -> tuple[str, list[int]]:
    """``text`` made readable for pythonbible, and for each of its characters the original offset."""
    text = text.translate(DASHES)
    offsets = list(range(len(text)))
    glued, spaced_verse = _book_patterns()
    text, offsets = _sub(text, offsets, _abbreviations()[0], _abbreviation)
    text, offsets = _sub(text, offsets, glued, lambda m: m.group(0) + " ")
    return _sub(text, offsets, spaced_verse, _spaced_verse)

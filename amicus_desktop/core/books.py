"""The 66 books of the Protestant canon: ids, names, OSIS codes, chapter counts and abbreviations.

``book_id`` is the contract's form: lower-case English name, digits and hyphens
(``genesis``, ``1-corinthians``, ``song-of-solomon``). :func:`resolve_book` turns what a person
types ("Rom", "1cor", "Song of Songs") into a ``book_id``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Book:
    book_id: str
    name: str
    osis: str
    ordinal: int
    chapters: int
    testament: str  # "OT" or "NT"
    #: short forms people write besides the name and the OSIS code ("ge", "song of songs")
    abbreviations: tuple[str, ...] = ()


# (name, OSIS, chapters, extra abbreviations)
_CANON: tuple[tuple[str, str, int, tuple[str, ...]], ...] = (
    ("Genesis", "Gen", 50, ("ge", "gn")),
    ("Exodus", "Exod", 40, ("ex", "exo")),
    ("Leviticus", "Lev", 27, ("le", "lv")),
    ("Numbers", "Num", 36, ("nu", "nm", "nb")),
    ("Deuteronomy", "Deut", 34, ("dt", "deu")),
    ("Joshua", "Josh", 24, ("jos", "jsh")),
    ("Judges", "Judg", 21, ("jdg", "jg", "jdgs")),
    ("Ruth", "Ruth", 4, ("rth", "ru")),
    ("1 Samuel", "1Sam", 31, ("1sa", "1sm", "1 sam")),
    ("2 Samuel", "2Sam", 24, ("2sa", "2sm", "2 sam")),
    ("1 Kings", "1Kgs", 22, ("1ki", "1kgs", "1 kgs")),
    ("2 Kings", "2Kgs", 25, ("2ki", "2kgs", "2 kgs")),
    ("1 Chronicles", "1Chr", 29, ("1ch", "1chr", "1 chron")),
    ("2 Chronicles", "2Chr", 36, ("2ch", "2chr", "2 chron")),
    ("Ezra", "Ezra", 10, ("ezr",)),
    ("Nehemiah", "Neh", 13, ("ne",)),
    ("Esther", "Esth", 10, ("est", "es")),
    ("Job", "Job", 42, ("jb",)),
    ("Psalms", "Ps", 150, ("psa", "psalm", "pss", "psm")),
    ("Proverbs", "Prov", 31, ("pr", "prv", "pro")),
    ("Ecclesiastes", "Eccl", 12, ("ec", "ecc", "qoh")),
    ("Song of Solomon", "Song", 8, ("so", "sos", "song of songs", "canticles", "sng")),
    ("Isaiah", "Isa", 66, ("is",)),
    ("Jeremiah", "Jer", 52, ("je", "jr")),
    ("Lamentations", "Lam", 5, ("la",)),
    ("Ezekiel", "Ezek", 48, ("eze", "ezk")),
    ("Daniel", "Dan", 12, ("da", "dn")),
    ("Hosea", "Hos", 14, ("ho",)),
    ("Joel", "Joel", 3, ("jl",)),
    ("Amos", "Amos", 9, ("am",)),
    ("Obadiah", "Obad", 1, ("ob", "oba")),
    ("Jonah", "Jonah", 4, ("jon", "jnh")),
    ("Micah", "Mic", 7, ("mi",)),
    ("Nahum", "Nah", 3, ("na",)),
    ("Habakkuk", "Hab", 3, ("hb",)),
    ("Zephaniah", "Zeph", 3, ("zep", "zp")),
    ("Haggai", "Hag", 2, ("hg",)),
    ("Zechariah", "Zech", 14, ("zec", "zc")),
    ("Malachi", "Mal", 4, ("ml",)),
    ("Matthew", "Matt", 28, ("mt", "mat")),
    ("Mark", "Mark", 16, ("mk", "mrk", "mr")),
    ("Luke", "Luke", 24, ("lk", "luk")),
    ("John", "John", 21, ("jn", "jhn", "joh")),
    ("Acts", "Acts", 28, ("ac", "act")),
    ("Romans", "Rom", 16, ("ro", "rm")),
    ("1 Corinthians", "1Cor", 16, ("1co", "1 cor")),
    ("2 Corinthians", "2Cor", 13, ("2co", "2 cor")),
    ("Galatians", "Gal", 6, ("ga",)),
    ("Ephesians", "Eph", 6, ("ep",)),
    ("Philippians", "Phil", 4, ("php", "pp")),
    ("Colossians", "Col", 4, ("co",)),
    ("1 Thessalonians", "1Thess", 5, ("1th", "1 thess", "1thes")),
    ("2 Thessalonians", "2Thess", 3, ("2th", "2 thess", "2thes")),
    ("1 Timothy", "1Tim", 6, ("1ti", "1 tim")),
    ("2 Timothy", "2Tim", 4, ("2ti", "2 tim")),
    ("Titus", "Titus", 3, ("tit",)),
    ("Philemon", "Phlm", 1, ("phm", "philem")),
    ("Hebrews", "Heb", 13, ("he",)),
    ("James", "Jas", 5, ("jm", "jam")),
    ("1 Peter", "1Pet", 5, ("1pe", "1pt", "1 pet")),
    ("2 Peter", "2Pet", 3, ("2pe", "2pt", "2 pet")),
    ("1 John", "1John", 5, ("1jn", "1jo", "1 jn")),
    ("2 John", "2John", 1, ("2jn", "2jo", "2 jn")),
    ("3 John", "3John", 1, ("3jn", "3jo", "3 jn")),
    ("Jude", "Jude", 1, ("jud", "jd")),
    ("Revelation", "Rev", 22, ("re", "rv", "apocalypse", "revelations")),
)


def book_id_for(name: str) -> str:
    """``"1 Corinthians"`` → ``"1-corinthians"``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def book_words(book_id: str) -> str:
    """A book's name for when nothing else names it: the canon's (``"song-of-solomon"`` → ``"Song of
    Solomon"``), or an unknown id read as words (``"1-maccabees"`` → ``"1 Maccabees"``). The one fallback every
    book name and reference uses."""
    known = BY_ID.get(book_id)
    return known.name if known is not None else book_id.replace("-", " ").title()


BOOKS: tuple[Book, ...] = tuple(
    Book(book_id_for(name), name, osis, i, chapters, "OT" if i <= 39 else "NT", abbr)
    for i, (name, osis, chapters, abbr) in enumerate(_CANON, start=1)
)
BY_ID: dict[str, Book] = {b.book_id: b for b in BOOKS}
BY_OSIS: dict[str, Book] = {b.osis: b for b in BOOKS}


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


_ALIASES: dict[str, str] = {}
for _book in BOOKS:
    for _alias in (_book.book_id, _book.name, _book.osis, *_book.abbreviations):
        _ALIASES.setdefault(_key(_alias), _book.book_id)


def resolve_book(text: str, known: set[str] | frozenset[str] | None = None) -> str | None:
    """The ``book_id`` a person meant by ``text``, or ``None``.

    Tries, case-insensitively and ignoring spaces and punctuation: an exact ``book_id`` among
    ``known`` (a DB may hold ids outside the canon), a canonical name, OSIS code or abbreviation,
    then a unique prefix of a canonical name ("phile" → philemon, but "jo" is ambiguous).
    """
    key = _key(text)
    if not key:
        return None
    if known:
        for book_id in known:
            if _key(book_id) == key:
                return book_id
    if key in _ALIASES:
        return _ALIASES[key]
    matches = {b.book_id for b in BOOKS if _key(b.name).startswith(key)}
    if known:
        matches |= {k for k in known if _key(k).startswith(key)}
    return matches.pop() if len(matches) == 1 else None

"""Which books of the Bible a question names or needs, for telling a reader what a partial library lacks.

A question *names* a book by a reference ("Genesis 6", found by :func:`~.references.find_references`) or by
the book's full name written with a capital ("What does Genesis say about …"). Names that are ordinary words
too ("Acts", "Numbers", "Judges", "Job", "Mark", "Kings", "Revelation", "Romans") count only in a reference.
A question *needs* a book when it asks about a person or an event told in one book alone: Noah's ark is in
Genesis, Goliath in 1 Samuel. The table is short on purpose: only names that belong to one book, so a
warning built on it is never wrong about where the story is. Pure functions of text (no I/O, no Qt).
"""

from __future__ import annotations

import re

from ..core.books import BOOKS, BY_ID
from ..core.references import PassageRef
from .query import fold, keywords

#: book names that are also common words or names of people: counted only when a chapter follows
_AMBIGUOUS = frozenset({"acts", "numbers", "judges", "job", "mark", "1-kings", "2-kings", "revelation",
                        "romans", "james", "john", "1-john", "2-john", "3-john", "jude", "titus", "luke",
                        "daniel", "ruth", "esther", "hebrews", "amos", "joel", "jonah", "micah",
                        "nahum", "song-of-solomon", "lamentations", "proverbs", "psalms", "matthew",
                        "1-samuel", "2-samuel", "ezra"})

#: people, places and events whose story one book alone tells (lower case, as written in English)
STORIES: dict[str, str] = {
    "noah": "genesis", "noah's ark": "genesis", "the flood": "genesis", "tower of babel": "genesis",
    "garden of eden": "genesis", "adam and eve": "genesis", "cain and abel": "genesis", "sodom": "genesis",
    "jacob's ladder": "genesis", "joseph and his brothers": "genesis", "isaac": "genesis",
    "burning bush": "exodus", "ten plagues": "exodus", "red sea": "exodus", "golden calf": "exodus",
    "passover lamb": "exodus", "day of atonement": "leviticus", "scapegoat": "leviticus",
    "balaam": "numbers", "bronze serpent": "numbers", "jericho": "joshua", "rahab": "joshua",
    "gideon": "judges", "samson": "judges", "deborah": "judges", "boaz": "ruth", "naomi": "ruth",
    "goliath": "1-samuel", "hannah": "1-samuel", "bathsheba": "2-samuel", "elijah": "1-kings",
    "queen of sheba": "1-kings", "elisha": "2-kings", "naaman": "2-kings", "nehemiah": "nehemiah",
    "mordecai": "esther", "haman": "esther", "queen esther": "esther", "jonah and the whale": "jonah",
    "lions' den": "daniel", "fiery furnace": "daniel", "nebuchadnezzar's dream": "daniel",
    "valley of dry bones": "ezekiel", "suffering servant": "isaiah", "nicodemus": "john",
    "lazarus": "john", "pentecost": "acts", "damascus road": "acts",
}

_FULL_NAMES = [(b.book_id, re.compile(rf"\b{re.escape(b.name)}\b")) for b in BOOKS if b.book_id not in _AMBIGUOUS]
_STORY = re.compile(r"(?<![\w'])(" + "|".join(sorted(map(re.escape, STORIES), key=len, reverse=True))
                    + r")(?![\w'])", re.IGNORECASE)


#: book names that are common words too ("Acts of kindness", "Numbers in the Bible"): not a book's name when they
#: open the question
_WORDS_AS_NAMES = frozenset({"acts", "numbers", "judges", "revelation", "lamentations", "proverbs", "psalms", "job"})
#: a book's full name, written with a capital, not followed by a chapter ("Hebrews", "1 John", "Song of Solomon";
#: not "Hebrews 7", which is a reference) nor by an epithet ("John the Baptist")
_BOOK_NAME = re.compile(r"(?<![\w])(" + "|".join(re.escape(b.name) for b in sorted(BOOKS, key=lambda b: -len(b.name)))
                        + r")(?!\w)(?!\s*\d)(?!\s+the\s)")
_BY_NAME = {b.name: b.book_id for b in BOOKS}
#: "the Hebrews", "the Romans", "the Judges" are people; "the Psalms" is still the book
_THE = re.compile(r"\bthe\s+$", re.IGNORECASE)
_BOOKS_AFTER_THE = frozenset({"psalms", "proverbs", "lamentations", "song-of-solomon"})


#: books named after a person who is also a subject of questions ("Why did Mark leave Paul?", "What did John teach
#: about love?", "Where was Jonah?"): the name is the book's only where the question is about the book
PEOPLE = frozenset({"joshua", "ruth", "ezra", "nehemiah", "esther", "job", "isaiah", "jeremiah", "ezekiel", "daniel",
                    "hosea", "joel", "amos", "obadiah", "jonah", "micah", "nahum", "habakkuk", "zephaniah", "haggai",
                    "zechariah", "malachi", "matthew", "mark", "luke", "john", "titus", "philemon", "james", "jude"})
#: "the book of Daniel", "the Gospel of John", "the Gospel according to Mark", "the letter to Philemon", "the epistle
#: of James", "the prophecy of Jonah": the name that follows is the book's
_BOOK_BEFORE = re.compile(r"\b(?:book|gospel|letter|epistle|prophecy)\s+(?:of|to|according\s+to)\s+$", re.IGNORECASE)
#: "John's Gospel", "Mark's account", "James's letter"
_BOOK_AFTER = re.compile(r"^['’]s?\s+(?:gospel|letter|epistle|book|account|prophecy)\b", re.IGNORECASE)
#: words of a question about a book rather than about its people ("Who wrote Luke?", "What is the theme of Jonah?",
#: "When was Daniel written?", "Summarize Ruth"): the question's other keywords (:func:`~.query.keywords`) are all
#: among them
BOOK_WORDS = frozenset("""
    wrote write written writer writers author authors authorship date dated theme themes purpose purposes message
    book books gospel gospels letter letters epistle epistles summary summarize summarise outline structure overview
    background introduction main point key central audience recipients occasion genre chapters composed composition
    canon canonical prophecy
    """.split())
#: "Who was Mark?", "Who is John?": a question of a name alone asks about the person
_WHO = re.compile(r"^\W*who\s+(?:was|is|were)\b", re.IGNORECASE)
_NAME_WORDS = frozenset(fold(w) for b in BOOKS for w in b.name.split() if not w.isdigit())


def about_the_book(question: str, start: int, end: int) -> bool:
    """Whether the book name at ``question[start:end]`` names the book, not a person who shares its name: a book
    phrase around it ("the Gospel of John", "John's Gospel") or a question whose other words are all
    :data:`BOOK_WORDS` ("Who wrote Mark?", "What is Jonah about?" — but not "Who was Mark?")."""
    if _BOOK_BEFORE.search(question[:start]) or _BOOK_AFTER.match(question[end:]):
        return True
    others = [w for w in keywords(question) if fold(w) not in _NAME_WORDS]
    if others:
        return all(fold(w) in BOOK_WORDS for w in others)
    return not _WHO.match(question)


def named_books(question: str) -> tuple[str, ...]:
    """The books ``question`` names by their full name alone, with a capital and no chapter ("Who wrote Hebrews?",
    "What is 1 John about?"), in the question's order: a question about the book, which its introductions answer.
    A name that is also a common word ("Acts", "Numbers") does not count as the question's first word, nor a name
    after "the" ("the Hebrews in Egypt" are a people; "the Psalms" are still the book), nor one before "the" ("John
    the Baptist" is a person), nor a person's name that a book bears (:data:`PEOPLE`) unless the question is about
    the book (:func:`about_the_book`: "Who wrote the Gospel of John?", not "What did John teach about love?")."""
    found: dict[str, None] = {}
    for m in _BOOK_NAME.finditer(question):
        book_id = _BY_NAME[m.group(1)]
        before = question[:m.start()]
        if book_id in _WORDS_AS_NAMES and not before.strip(" \"'“‘("):
            continue
        if _THE.search(before) and book_id not in _BOOKS_AFTER_THE:
            continue
        if book_id in PEOPLE and not about_the_book(question, m.start(), m.end()):
            continue
        found.setdefault(book_id, None)
    return tuple(found)


def books_needed(question: str, references: tuple[PassageRef, ...] = ()) -> tuple[str, ...]:
    """The book ids ``question`` names or needs, in canonical order (``references``: those found in it)."""
    found = {r.book_id for r in references}
    found |= {book_id for book_id, pattern in _FULL_NAMES if pattern.search(question)}
    found |= {STORIES[m.group(1).lower()] for m in _STORY.finditer(question.replace("\u2019", "'"))}
    return tuple(sorted((b for b in found if b in BY_ID), key=lambda b: BY_ID[b].ordinal))

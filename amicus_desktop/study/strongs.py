"""Strong's on tap: a number's lexicon entries, word studies and KJV concordance; a verse's tagged words.

Reads the library only: the ``lexicon_entry`` and ``word_study`` chunks of the number, and the
word-level table ``build-db`` writes (:mod:`amicus_desktop.store.word_strongs`). A library built
before that table still gives the entries and studies; its concordance is empty with a
:attr:`~.model.StrongsStudy.notice` saying why. No Qt; every function runs on the store's thread.
"""

from __future__ import annotations

import re
from collections import Counter

from ..core.books import BY_ID
from ..core.errors import AmicusError, ErrorCode
from ..core.references import PassageRef
from ..store import study as reads
from ..store.scripture import ScriptureStore
from ..store.verses import VerseIndex
from ..store.word_strongs import WORD, WORD_STRONGS, decode
from .model import ConcordanceLine, LexiconText, StrongsStudy, VerseWord

#: the translation whose words carry the numbers
TAGGED_TRANSLATION = "kjv"
_NUMBER = re.compile(r"\s*(?:strong:)?([GH])0*(\d{1,5})[a-z]?\s*", re.I)
_HEAD = re.compile(r"^(?P<lemma>[^(—]+?)\s*(?:\((?P<translit>[^,)]+)[^)]*\))?\s*—\s*Strong's")
OLD_LIBRARY = ("This library was built before Strong's numbers were stored word by word, so it has no "
               "concordance; rebuild it with 'amicus-desktop build-db' to get one.")


def parse_number(text: str) -> str:
    """``"G26"``, ``"g0026"``, ``"strong:H07225"`` → ``"G26"`` / ``"H7225"``; ``QUERY_INVALID`` otherwise."""
    m = _NUMBER.fullmatch(text or "")
    if not m or int(m.group(2)) == 0:
        raise AmicusError(ErrorCode.QUERY_INVALID,
                          f"{(text or '')[:40]!r} is not a Strong's number: a G (Greek) or H (Hebrew) and digits, "
                          "e.g. G26 or H7225.")
    return f"{m.group(1).upper()}{int(m.group(2))}"


def has_word_table(store: ScriptureStore) -> bool:
    return reads.has_table(store, WORD_STRONGS)


def _kjv_table(index: VerseIndex) -> str | None:
    translation = index.translations.get(TAGGED_TRANSLATION)
    return translation.verse_table if translation else None


def _char_spans(text: str, words: str) -> tuple[tuple[int, int], ...]:
    found = [(m.start(), m.end()) for m in WORD.finditer(text)]
    return tuple((found[a][0], found[b][1]) for a, b in decode(words) if b < len(found))


def verse_words(store: ScriptureStore, book_id: str, chapter: int, verse: int) -> tuple[str, list[VerseWord]]:
    """A verse's KJV text and its words carrying Strong's numbers, in order (``("", [])`` when the library
    has no KJV or no word table)."""
    index = VerseIndex.for_store(store)
    table = _kjv_table(index)
    rowid = index.rowid_of.get((book_id, chapter, verse))
    if table is None or rowid is None:
        return "", []
    text = reads.verse_text(store, table, book_id, chapter, verse)
    if text is None:
        return "", []
    if not has_word_table(store):
        return text, []
    spans: dict[tuple[int, int], list[str]] = {}
    for number, words in reads.verse_word_rows(store, TAGGED_TRANSLATION, rowid):
        for span in _char_spans(text, words):
            spans.setdefault(span, []).append(number)
    return text, [VerseWord(a, b, tuple(sorted(n))) for (a, b), n in sorted(spans.items())]


def _lexicon(store: ScriptureStore, number: str) -> tuple[list[LexiconText], list[LexiconText]]:
    base = re.escape(number)
    rows = reads.lexicon_rows(store, number)
    entries: list[LexiconText] = []
    studies: list[LexiconText] = []
    for chunk_id, source_type, source_id, text, book_id in rows:
        sid = source_id
        if sid.startswith("AbbottSmith:") and not re.fullmatch(rf"AbbottSmith:{base}(?:\.\d+)?", sid.split("#")[0]):
            continue  # G26 is not G260
        if source_type == "word_study":
            book = BY_ID.get(str(book_id or ""))
            studies.append(LexiconText(str(chunk_id), "word_study", f"Word study in {book.name if book else book_id}",
                                       str(text)))
        else:
            title = "Abbott-Smith" if sid.startswith("AbbottSmith:") else "Strong's dictionary"
            entries.append(LexiconText(str(chunk_id), "lexicon_entry", title, str(text)))
    studies.sort(key=lambda s: BY_ID[s.chunk_id.split(":")[2]].ordinal if s.chunk_id.count(":") == 2
                 and s.chunk_id.split(":")[2] in BY_ID else 999)
    return entries, studies


def strongs_study(store: ScriptureStore, number: str, book: str | None = None) -> StrongsStudy:
    """Everything the library holds on ``number`` (any form :func:`parse_number` reads); with ``book`` (a
    book id) the concordance holds that book's verses only (``total`` and ``books`` still count all)."""
    number = parse_number(number)
    entries, studies = _lexicon(store, number)
    lemma = translit = ""
    strong = next((e for e in entries if e.chunk_id == f"strongs:{number}"), None)
    if strong is not None and (m := _HEAD.match(strong.text)):
        lemma, translit = m.group("lemma").strip(), (m.group("translit") or "").strip()
    language = "Greek" if number.startswith("G") else "Hebrew"
    index = VerseIndex.for_store(store)
    table = _kjv_table(index)
    notice = ""
    lines: list[ConcordanceLine] = []
    books: Counter[str] = Counter()
    if table is None:
        notice = "This library holds no KJV text, so it has no concordance."
    elif not has_word_table(store):
        notice = OLD_LIBRARY
    else:
        rows = reads.concordance_rows(store, TAGGED_TRANSLATION, table, number)
        for b, c, v, text, words in rows:
            books[b] += 1
            if book is None or b == book:
                lines.append(ConcordanceLine(PassageRef(b, c, v, v), text, _char_spans(text, words)))
        if not rows:
            notice = f"The KJV of this library never uses {number}."
    total = sum(books.values())
    if total and book is not None and not lines:
        name = BY_ID[book].name if book in BY_ID else book
        notice = f"{number} is not used in {name} (it is in {total} verses elsewhere)."
    if not entries and not studies and not total:
        notice = notice or f"This library holds nothing on {number}."
    return StrongsStudy(number, language, lemma, translit, tuple(entries), tuple(studies), tuple(lines), total,
                        dict(books), book, notice)


def numbers_at(store: ScriptureStore, book_id: str, chapter: int, verse: int, word: int) -> tuple[str, tuple[str, ...]]:
    """The ``word``-th word (from 0, as :data:`~amicus_desktop.store.word_strongs.WORD` counts) of a KJV verse
    and the Strong's numbers of the word or phrase holding it (``()``: none, or no word table)."""
    text, words = verse_words(store, book_id, chapter, verse)
    found = list(WORD.finditer(text))
    if not 0 <= word < len(found):
        return "", ()
    at = found[word].start()
    for w in words:
        if w.start <= at < w.end:
            return text[w.start:w.end], w.numbers
    return found[word].group(0), ()

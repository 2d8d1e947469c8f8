"""Strong's dictionaries → ``lexicon_entry``; Strong's × the WEB's tagged words → ``word_study``.

Both are credited to James Strong (``james-strong``): the entries are his dictionaries, and a word
study is built on his number and his definition. Neither carries a tradition (a lexicon is not a
voice in the debates), and lexicon entries have no book. A scoped build keeps only the numbers the
WEB uses in the chosen books.

A word study is one chunk per (Strong's number, book) for numbers used in at least
``MIN_VERSES`` verses of that book: the lemma, the gist of Strong's definition, how the WEB renders
it there, and the verses with short quotes (at most ``MAX_QUOTES``; the rest listed by reference).
``book_id`` is set; ``chapter_num`` is the chapter holding at least half of the verses when there is
one (a study that concentrates in Romans 4 gets that chapter's boost), else NULL. Function words
(articles, particles, conjunctions, prepositions, pronouns) are skipped: the WEB's tagging spreads
them over neighbouring English words and a "study" of καί says nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ...core.books import BY_ID
from ...store.writer import ChunkRecord
from ..chunking import first_words
from ..library import Library
from ..sword import to_text
from .common import BibleText, Scope, meta, record

#: The author of the dictionaries (and so of the word studies built on them).
STRONG = "james-strong"
MIN_VERSES = 3
MAX_QUOTES = 6
#: English words the WEB's tagging attaches to neighbouring numbers; never shown as renderings.
_STOP = frozenset(
    "a an the of to in on at by for from with and or but not no is are was were be been being "
    "it its he him his she her they them their we us our you your i me my that this these those "
    "who whom which what as so if then than also even may might will would shall should can "
    "could do does did has have had there here all any".split()
)
_FUNCTION_WORD = re.compile(
    r"\b(particle|conjunction|preposition|definite article|pronoun|demonstrative|interjection)\b", re.I
)


@dataclass(frozen=True)
class LexEntry:
    number: str       # "G1344"
    lemma: str        # δικαιόω
    translit: str     # dikaióō
    pron: str         # dik-ah-yo'-o
    derivation: str   # from G1342
    definition: str   # to render (i.e. show or regard as) just or innocent
    renderings: str   # free, justify(-ier), be righteous  (the KJV's words)

    def gist(self, words: int = 28) -> str:
        return first_words(self.definition, words) if self.definition else ""

    @property
    def function_word(self) -> bool:
        return bool(_FUNCTION_WORD.search(f"{self.derivation} {self.definition}"[:160]))

    def text(self) -> str:
        lang = "Greek" if self.number.startswith("G") else "Hebrew"
        head = f"{self.lemma} ({self.translit}" if self.translit else self.lemma
        if self.pron:
            head += f", {self.pron}"
        head += ")" if self.translit else ""
        parts = [f"{head} — Strong's {lang} {self.number}."]
        if self.derivation:
            parts.append(self.derivation.rstrip(";,. ") + ".")
        if self.definition:
            parts.append(self.definition.rstrip(";,. ") + ".")
        if self.renderings:
            parts.append(f"KJV renders it: {self.renderings.rstrip('. ')}.")
        return " ".join(parts)


def _field(markup: str, pattern: str) -> str:
    m = re.search(pattern, markup, re.S)
    return " ".join(to_text(m.group(1)).split()) if m else ""


def parse_entry(number: str, markup: str) -> LexEntry:
    """One ``<entryFree>`` of the Strong's Greek or Hebrew module (TEI-like markup)."""
    lemma = _field(markup, r"<orth>(.*?)</orth>")
    translit = _field(markup, r"<orth[^>]*type=\"trans\"[^>]*>(.*?)</orth>")
    pron = _field(markup, r"<pron[^>]*>(.*?)</pron>")
    derivation = _field(markup, r"<orig>(.*?)</orig>")
    body = _field(markup, r"<def>(.*?)</def>")
    if derivation and body.startswith(derivation):
        body = body[len(derivation):].strip()
    # Greek: "definition:--renderings"; Hebrew: "derivation; definition: - renderings"
    renderings = ""
    m = re.search(r"(?::\s*-{1,2}|\s-\s)(.*)$", body)
    if m:
        renderings = m.group(1).strip()
        body = body[: m.start()].strip()
    if not derivation and number.startswith("H"):
        first, sep, rest = body.partition(";")
        if sep and re.search(r"\b(from|of|a primitive|corresponding|probably|perhaps|the same)\b", first, re.I):
            derivation, body = first.strip(), rest.strip()
    body = body.replace("{", "").replace("}", "")
    renderings = renderings.replace("{", "").replace("}", "")
    return LexEntry(number, lemma, translit, pron, derivation.rstrip(";,: "), body.strip(" ;:"),
                    renderings)


class Lexicon:
    """Both Strong's dictionaries, by normalised number (``G1344``, ``H430``)."""

    def __init__(self, library: Library) -> None:
        self._mods = {"G": library.dictionary("greek"), "H": library.dictionary("hebrew")}
        self._cache: dict[str, LexEntry | None] = {}

    def numbers(self, lang: str) -> list[str]:
        return [f"{lang}{int(k)}" for k in self._mods[lang].keys() if k.isdigit()]

    def get(self, number: str) -> LexEntry | None:
        if number not in self._cache:
            mod = self._mods[number[0]]
            key = f"{int(number[1:]):05d}"
            self._cache[number] = parse_entry(number, mod.raw(key)) if key in mod else None
        return self._cache[number]


def lexicon_chunks(lexicon: Lexicon, numbers: Iterable[str]) -> Iterator[ChunkRecord]:
    for number in sorted(set(numbers), key=lambda n: (n[0], int(n[1:]))):
        entry = lexicon.get(number)
        if entry is None:
            continue
        yield record(f"strongs:{number}", "lexicon_entry", number, entry.text(), meta(STRONG))


def used_numbers(bible: BibleText, scope: Scope) -> set[str]:
    out: set[str] = set()
    for (book_id, _c, _v), toks in bible.tokens.items():
        if book_id in scope.ids:
            for tok in toks:
                out.update(tok.strongs)
    return out


def word_study_chunks(bible: BibleText, lexicon: Lexicon, scope: Scope) -> Iterator[ChunkRecord]:
    for book in scope.books:
        # number → verse keys (in order) and the English words tagged with it
        verses: dict[str, list[tuple[int, int]]] = {}
        words: dict[str, Counter[str]] = {}
        for (book_id, chapter, verse), toks in bible.tokens.items():
            if book_id != book.book_id:
                continue
            for tok in toks:
                for number in tok.strongs:
                    lst = verses.setdefault(number, [])
                    if not lst or lst[-1] != (chapter, verse):
                        lst.append((chapter, verse))
                    words.setdefault(number, Counter())[tok.text.lower().strip("’'")] += 1
        for number, refs in sorted(verses.items(), key=lambda kv: (kv[0][0], int(kv[0][1:]))):
            refs = sorted(set(refs))
            if len(refs) < MIN_VERSES:
                continue
            entry = lexicon.get(number)
            if entry is None or entry.function_word:
                continue
            yield _word_study(bible, book.book_id, number, entry, refs, words[number])


def _quote(bible: BibleText, book_id: str, chapter: int, verse: int, number: str,
           width: int = 9) -> str:
    toks = bible.tokens[(book_id, chapter, verse)]
    text = bible.verses[(book_id, chapter, verse)]
    words = text.split()
    if len(words) <= 2 * width + 4:
        return text
    # centre on the first word tagged with the number (token order follows the text's words)
    idx = next((i for i, t in enumerate(toks) if number in t.strongs), 0)
    target = toks[idx].text if toks else ""
    pos = next((i for i, w in enumerate(words) if target and target in w), len(words) // 2)
    lo, hi = max(0, pos - width), min(len(words), pos + width + 1)
    return ("…" if lo else "") + " ".join(words[lo:hi]) + ("…" if hi < len(words) else "")


def _word_study(bible: BibleText, book_id: str, number: str, entry: LexEntry,
                refs: list[tuple[int, int]], words: Counter[str]) -> ChunkRecord:
    book = BY_ID[book_id]
    chapters = Counter(c for c, _ in refs)
    top_chapter, top_n = chapters.most_common(1)[0]
    chapter_num = top_chapter if (top_n * 2 >= len(refs) and len(chapters) > 1) or len(chapters) == 1 else None
    lang = "Greek" if number.startswith("G") else "Hebrew"
    name = f"{entry.lemma} ({entry.translit})" if entry.translit else entry.lemma
    rendered = ", ".join([f"“{w}”" for w, _ in words.most_common() if w not in _STOP][:3]) or "in various ways"
    lines = [f"Word study: {name}, Strong's {lang} {number}, in {book.name}."]
    if entry.gist():
        lines.append(f"Meaning (Strong): {entry.gist()}")
    lines.append(f"Used in {len(refs)} verses of {book.name}; the WEB renders it {rendered}.")
    # quotes: spread over the book (first, then evenly spaced)
    step = max(1, len(refs) // MAX_QUOTES)
    picked = refs[::step][:MAX_QUOTES]
    for chapter, verse in picked:
        lines.append(f"{chapter}:{verse} “{_quote(bible, book_id, chapter, verse, number)}”")
    rest = [r for r in refs if r not in picked]
    if rest:
        shown = rest[:40]
        more = f" and {len(rest) - len(shown)} more" if len(rest) > len(shown) else ""
        lines.append("Also: " + ", ".join(f"{c}:{v}" for c, v in shown) + more + ".")
    return record(
        f"wordstudy:{number}:{book_id}", "word_study", f"{number}:{book_id}", "\n".join(lines),
        meta(STRONG, book_id=book_id, chapter_num=chapter_num),
    )

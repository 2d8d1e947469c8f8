"""The word bridge: a question about a word reaches the commentary where the word's meaning is discussed.

"agape" asked alone finds ἀγάπη's lexicon entries and word studies by its letters, and then whatever else its
letters resemble (ἄξιος, διαταγή, ἀγαλλιάω …): no commentary note says "agape". The library knows where the word
is used — each word study lists the verses of its book where the World English Bible tags it — and what it means —
its lexicon entry's gloss. Those two are the bridge: when a question's word is a lexicon headword's
transliteration ("agape", "logos"), the question is read as the word's meaning — its vector averaged with the
gloss's, for the dense search and for measuring every candidate —, the word's own entries and word studies join
the pool, and so do the commentary notes covering the verses where the word is used, the :data:`BRIDGE_POOL`
nearest the gloss (origin ``word``). Re-ranking then decides where they go.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..core.references import PassageRef
from ..store.library import LibraryStore
from ..store.values import ChunkRow
from ..understand.spelling import same_word
from . import dense

#: commentary notes the bridge adds, nearest the word's gloss first
BRIDGE_POOL = 10
#: the verses of a word's studies the bridge reads, in the studies' order
MAX_VERSES = 80
#: the parts a long lexicon entry is split into, at most (``abbott-smith:G3056#4``)
_PARTS = 12
_COMMENTARY = frozenset({"section_panel", "chapter_panel"})
_NUMBER = re.compile(r"\b([GH]\d+)\b")
#: "ἀγάπη (agápē, ag-ah'-pay) — …": the transliteration after a Strong's headword
_TRANSLITERATION = re.compile(r"^\S+\s+\(([^,()]+),")
#: Hebrew has no capitals, so a Strong's entry of a name says so in English: "KJV renders it: Ruth." (a common
#: word's renderings start in lower case, or with Strong's "X" or "+")
NAME_RENDERING = re.compile(r"KJV renders it:\s+[A-Z][a-z]")
#: … or its gloss does, where the rendering is not capitalised ("son of kindness; Ben Chesed an Israelite. KJV renders
#: it: the son of Hesed."; "; Medeba a place"): a capitalised name after the gloss's semicolon, then what it names
NAME_GLOSS = re.compile(r";\s+(?:[A-Z][\w'’-]*\s+)+(?:an?|the)\s+"
                        r"(?:Israelite|Levite|place|city|son|daughter|name|king)\b")


def names_someone(entry: str) -> bool:
    """Whether the Strong's entry ``entry`` (its text) is a name's, by its rendering or its gloss."""
    return bool(NAME_RENDERING.search(entry) or NAME_GLOSS.search(entry.split("KJV renders it:", 1)[0]))
#: "5:42 “But I know you …”": a verse line of a word study
_VERSE_LINE = re.compile(r"^(\d+):(\d+)\s", re.MULTILINE)


def word_numbers(rows: Iterable[ChunkRow], keywords: Sequence[str]) -> list[str]:
    """The Strong's numbers a question's ``keywords`` name: the lexicon entries whose transliteration is one of
    them. Proper names (a capitalised headword, a capitalised KJV rendering: "'Abrâhâm") are never a word's
    meaning, and an English word is not a transliteration ("love", "flesh" ask about a topic; measured: reading
    them as the words the KJV renders with them cost topical questions 0.02–0.05). A transliteration is compared
    as spelt any way ("hesed" names Strong's "chêsêd": :func:`~amicus_desktop.understand.spelling.same_word`)."""
    named: set[str] = set()
    for chunk_id, source_type, _source, text, _meta in rows:
        number = _NUMBER.search(chunk_id)
        head = text.lstrip()
        if source_type != "lexicon_entry" or number is None or head[:1].isupper() or names_someone(head):
            continue
        translit = _TRANSLITERATION.match(head)
        # a Hebrew headword may give two spellings ("shâlôm shâlôm"): either names it
        if translit and any(same_word(t, k) for t in translit.group(1).replace("-", "").split() for k in keywords):
            named.add(number.group(1))
    return sorted(named)


@dataclass(frozen=True)
class WordBridge:
    """What the bridge found for a question about a word."""

    #: the Strong's numbers the question names
    numbers: tuple[str, ...]
    #: the mean of the word's own Strong's entries' vectors: what the word means
    gloss: np.ndarray
    #: the commentary notes on the verses where the word is used, nearest the gloss first
    notes: tuple[int, ...]
    #: the word's own entries and word studies (all of them, whichever its letters found)
    entries: tuple[int, ...] = ()

    def meaning(self, question: np.ndarray) -> np.ndarray:
        """The question read as the word's meaning: the question's vector and the gloss's, averaged (unit)."""
        v = question / (np.linalg.norm(question) or 1.0) + self.gloss / (np.linalg.norm(self.gloss) or 1.0)
        return (v / (np.linalg.norm(v) or 1.0)).astype(np.float32)


def bridge(store: LibraryStore, pooled: Sequence[int], keywords: Sequence[str], *,
           two_stage: str | None = None) -> WordBridge | None:
    """The bridge for a question whose ``keywords`` name a word (``None`` otherwise): ``pooled`` are the rowids
    the searches found (the word's own entries are among them when the library has any)."""
    if not keywords or len(keywords) > 3:
        return None
    numbers = word_numbers(store.fetch(pooled).values(), keywords)
    if not numbers:
        return None
    books = sorted(store.book_ids())
    own = store.rowids_for([f"strongs:{n}" for n in numbers])
    gloss = store.vectors(own.values())
    if not gloss:
        return None
    meaning = np.mean(np.stack(list(gloss.values())), axis=0)
    studies = store.rowids_for([f"wordstudy:{n}:{b}" for n in numbers for b in books])
    lexicons = store.rowids_for([f"abbott-smith:{n}{part}" for n in numbers
                                 for part in ("", *(f"#{i}" for i in range(1, _PARTS + 1)))])
    verses: list[PassageRef] = []
    for _chunk_id, _kind, _source, text, meta in store.fetch(studies.values()).values():
        if meta.book_id is not None:
            verses += [PassageRef(meta.book_id, int(c), int(v), int(v), f"{c}:{v}")
                       for c, v in _VERSE_LINE.findall(text)]
    notes: set[int] = set()
    for ref in verses[:MAX_VERSES]:
        notes.update(store.covering(ref))
    commentary = sorted(r for r, row in store.fetch(notes).items() if row[1] in _COMMENTARY)
    nearest = dense.nearest_among(store, meaning, commentary, BRIDGE_POOL, two_stage=two_stage) if commentary else []
    entries = (*own.values(), *lexicons.values(), *studies.values())
    return WordBridge(tuple(numbers), meaning, tuple(rowid for rowid, _ in nearest), tuple(entries))

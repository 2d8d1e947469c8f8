"""The study aids' answers as plain data, each with ``to_json``: cross-references and Strong's studies.

No Qt, no I/O: :mod:`.xrefs` and :mod:`.strongs` fill these from a library; the CLI prints them, the
app's panes show them and the MCP tools may hand them out as they are.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from ..core.references import PassageRef


class XrefSource(enum.StrEnum):
    """Where a cross-reference comes from (``--source``, the pane's filter)."""

    HENRY = "henry"          # a reference Matthew Henry's note on the verse cites
    SCOFIELD = "scofield"    # a reference Scofield's note on the verse cites
    CHAIN = "chain"          # Scofield's reference chain through the verse
    NAVE = "nave"            # a Nave's topic that lists the verse
    MEANING = "meaning"      # a verse nearest in meaning (verse vectors): similar, not cited by anyone

    @property
    def label(self) -> str:
        return _TITLES[self]


_TITLES = {
    XrefSource.HENRY: "Matthew Henry",
    XrefSource.SCOFIELD: "Scofield's note",
    XrefSource.CHAIN: "Scofield's chain",
    XrefSource.NAVE: "Nave's topic",
    XrefSource.MEANING: "Nearest in meaning",
}


def ref_json(ref: PassageRef) -> dict[str, Any]:
    return {"book_id": ref.book_id, "chapter_num": ref.chapter, "verse_start": ref.verse_start,
            "verse_end": ref.verse_end, "label": ref.label()}


@dataclass(frozen=True)
class XrefEvidence:
    """One source's reason for a cross-reference: its kind, what it says (a topic, a note's passage, a
    similarity) and the chunk it comes from (``None`` for meaning)."""

    source: XrefSource
    detail: str
    chunk_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source.value, "detail": self.detail, "chunk_id": self.chunk_id}


@dataclass(frozen=True)
class CrossReference:
    """A passage related to the verse, its text (the default translation's first verses), why, and
    its score: how many kinds of source agree, then how often, then how close in meaning."""

    ref: PassageRef
    text: str
    score: float
    evidence: tuple[XrefEvidence, ...]

    @property
    def sources(self) -> tuple[XrefSource, ...]:
        return tuple(dict.fromkeys(e.source for e in self.evidence))

    def to_json(self) -> dict[str, Any]:
        return {"ref": ref_json(self.ref), "text": self.text, "score": round(self.score, 4),
                "sources": [s.value for s in self.sources], "evidence": [e.to_json() for e in self.evidence]}


@dataclass(frozen=True)
class CrossReferences:
    """The cross-references of one verse, best first; ``available`` lists the sources this library
    can give at all, and ``notice`` says what is missing (no verse vectors, no thread notes)."""

    verse: PassageRef
    items: tuple[CrossReference, ...]
    available: tuple[XrefSource, ...]
    sources: tuple[XrefSource, ...]
    notice: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"verse": ref_json(self.verse), "sources": [s.value for s in self.sources],
                "available": [s.value for s in self.available], "notice": self.notice,
                "count": len(self.items), "cross_references": [x.to_json() for x in self.items]}


@dataclass(frozen=True)
class LexiconText:
    """A lexicon entry or word study of the number: the chunk, whose it is, and its text."""

    chunk_id: str
    source_type: str
    title: str
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"chunk_id": self.chunk_id, "source_type": self.source_type, "title": self.title, "text": self.text}


@dataclass(frozen=True)
class ConcordanceLine:
    """A verse holding the number: the KJV text and the character spans of the words carrying it."""

    ref: PassageRef
    text: str
    spans: tuple[tuple[int, int], ...]

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(self.text[a:b] for a, b in self.spans)

    def to_json(self) -> dict[str, Any]:
        return {"ref": ref_json(self.ref), "text": self.text, "highlight": [list(s) for s in self.spans],
                "words": list(self.words)}


@dataclass(frozen=True)
class StrongsStudy:
    """A Strong's number: its lemma, the lexicon entries and word studies, and its concordance in the
    KJV (every verse, or a book's; ``total`` before the book filter). ``notice`` explains an empty
    concordance (a library built before the word table, a number the KJV never uses)."""

    number: str
    language: str
    lemma: str
    translit: str
    entries: tuple[LexiconText, ...]
    studies: tuple[LexiconText, ...]
    concordance: tuple[ConcordanceLine, ...]
    total: int
    books: dict[str, int] = field(default_factory=dict)
    book: str | None = None
    notice: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "language": self.language, "lemma": self.lemma, "translit": self.translit,
                "entries": [e.to_json() for e in self.entries], "word_studies": [s.to_json() for s in self.studies],
                "book": self.book, "total": self.total, "books": dict(self.books), "notice": self.notice,
                "count": len(self.concordance), "concordance": [c.to_json() for c in self.concordance]}


@dataclass(frozen=True)
class VerseWord:
    """A word (or phrase) of a verse's KJV text that carries Strong's numbers: its character span."""

    start: int
    end: int
    numbers: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "numbers": list(self.numbers)}

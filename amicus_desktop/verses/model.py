"""What a verse search is asked and what it answers: plain, frozen data (no Qt, no I/O).

A verse's score (CONTRACT section 14, docs/RELEVANCE.md "Verse search") is a weighted sum of what the
library says about it — its own words and meaning, the commentary notes covering it, the Strong's
words it holds — plus a share of its best neighbour's sum, times the reference boost::

    base  = similarity·w_s + keyword·w_k + phrase·w_p + commentary·w_c + commentary_keyword·w_ck
          + lexicon·w_l + lexicon_keyword·w_lk
    final = (base + w_n · max(base of the verse before, base of the verse after)) × reference_boost

The weights per mode are :meth:`VerseWeights.for_mode`: ``semantic`` uses the meaning signals only,
``keyword`` the word signals only (no proxy needed), ``hybrid`` both.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from ..core.query import SearchMode
from ..core.references import PassageRef, reference_text
from ..core.results import ModelInfo, RetrievalWarning

DEFAULT_K = 10
MAX_K = 50


@dataclass(frozen=True)
class VerseWeights:
    """How much each signal counts. Chosen on the train half of the verse golden set (docs/RELEVANCE.md)."""

    similarity: float = 1.0
    keyword: float = 0.1
    #: the question's consecutive word pairs found as phrases in the verse: a remembered quotation
    phrase: float = 0.2
    commentary: float = 0.5
    commentary_keyword: float = 0.2
    #: 0.5 until issue 33: 0.75 lifts full questions and paraphrases on both halves (docs/RELEVANCE.md)
    lexicon: float = 0.75
    lexicon_keyword: float = 0.1
    neighbour: float = 0.3
    reference: float = 1.25
    #: a note on n verses counts 1/n^span_power for each: a note on one verse says more about it
    span_power: float = 0.25

    @classmethod
    def for_mode(cls, mode: SearchMode) -> VerseWeights:
        if mode is SearchMode.SEMANTIC:
            return cls(keyword=0.0, phrase=0.0, commentary_keyword=0.0, lexicon_keyword=0.0)
        if mode is SearchMode.KEYWORD:
            return cls(similarity=0.0, keyword=1.0, commentary=0.0, commentary_keyword=0.5, lexicon=0.0,
                       lexicon_keyword=0.2)
        return cls()

    def to_json(self) -> dict[str, float]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class VerseQuery:
    """One verse search: the question, the mode, the books allowed (none = all), how many results,
    and the translation to search and show (``None``: the database's default)."""

    text: str
    mode: SearchMode = SearchMode.HYBRID
    books: tuple[str, ...] = ()
    k: int = DEFAULT_K
    translation: str | None = None
    weights: VerseWeights | None = None

    @property
    def effective_weights(self) -> VerseWeights:
        return self.weights or VerseWeights.for_mode(self.mode)


@dataclass(frozen=True)
class VerseBreakdown:
    """Why a verse ranks where it does: each signal (``None`` when not computed in this mode), the
    note or Strong's word it came from, the fused ``base``, the neighbour's share and the boost."""

    mode: SearchMode
    similarity: float | None
    keyword: float | None
    phrase: float | None
    commentary: float | None
    commentary_keyword: float | None
    lexicon: float | None
    lexicon_keyword: float | None
    base: float
    neighbour: float
    reference_boost: float
    final: float
    #: the commentary note (chunk id) behind ``commentary`` / ``commentary_keyword``
    commentary_source: str | None = None
    commentary_keyword_source: str | None = None
    #: the Strong's number behind ``lexicon`` / ``lexicon_keyword``
    lexicon_source: str | None = None
    lexicon_keyword_source: str | None = None
    #: the neighbouring verse (``book:chapter:verse``) whose base gave ``neighbour``
    neighbour_source: str | None = None

    def to_json(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["mode"] = self.mode.value
        return out


@dataclass(frozen=True)
class VerseHit:
    """One ranked verse (``verse_start == verse_end``) or a few adjacent ones, with the text shown."""

    rank: int
    book_id: str
    book_name: str
    chapter_num: int
    verse_start: int
    verse_end: int
    text: str
    score: float
    breakdown: VerseBreakdown
    #: each verse of the result: ``(verse_num, text, final score)``, in order
    verses: tuple[tuple[int, str, float], ...] = ()
    #: the result's verse ids (``book:chapter:verse``) in the order they ranked, best first
    ranked: tuple[str, ...] = ()

    @property
    def reference(self) -> str:
        return reference_text(self.book_name, self.chapter_num, self.verse_start, self.verse_end)

    def verse_ids(self) -> list[str]:
        return [f"{self.book_id}:{self.chapter_num}:{v}" for v in range(self.verse_start, self.verse_end + 1)]

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank, "reference": self.reference, "book_id": self.book_id,
            "chapter_num": self.chapter_num, "verse_start": self.verse_start, "verse_end": self.verse_end,
            "text": self.text, "score": self.score, "breakdown": self.breakdown.to_json(),
            "verses": [{"verse_num": v, "text": t, "score": s} for v, t, s in self.verses],
        }


@dataclass(frozen=True)
class VerseTrace:
    """How the question was understood and searched."""

    references: tuple[PassageRef, ...] = ()
    keywords: tuple[str, ...] = ()
    books: tuple[str, ...] = ()
    #: verses scored (the pool and its neighbours) and where the pool came from
    candidates: int = 0
    by_origin: dict[str, int] = field(default_factory=dict)
    keyword_index: str | None = None
    weights: VerseWeights = VerseWeights()
    #: the parts of ``timing_ms.search``: ``verses``, ``commentary``, ``lexicon``, ``score``
    search_ms: dict[str, float] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"references": [r.to_json() for r in self.references], "keywords": list(self.keywords),
                "books": list(self.books), "candidates": self.candidates, "by_origin": dict(self.by_origin),
                "keyword_index": self.keyword_index, "weights": self.weights.to_json(),
                "search_ms": {k: round(v, 3) for k, v in self.search_ms.items()}}


@dataclass(frozen=True)
class VerseSearchResult:
    """A verse search's answer (``verses --json``, CONTRACT section 14)."""

    query: str
    mode: SearchMode
    translation: str
    translation_name: str
    translation_abbreviation: str
    model: ModelInfo | None
    results: tuple[VerseHit, ...]
    warnings: tuple[RetrievalWarning, ...]
    timing_ms: dict[str, float]
    trace: VerseTrace

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query, "mode": self.mode.value,
            "translation": {"id": self.translation, "name": self.translation_name,
                            "abbreviation": self.translation_abbreviation},
            "model": None if self.model is None else {"id": self.model.id, "dims": self.model.dims},
            "results": [r.to_json() for r in self.results],
            "warnings": [w.to_json() for w in self.warnings],
            "timing_ms": {k: round(v, 3) for k, v in self.timing_ms.items()},
            "query_trace": self.trace.to_json(),
        }

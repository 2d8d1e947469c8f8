"""What one retrieval produces: candidates, scores, results, warnings — plain data, no Qt, no I/O.

The pipeline (``amicus_desktop.retrieval``) produces a :class:`RetrievalResult`; the UI renders it
and never recomputes a score. Every class is a frozen dataclass except :class:`Timings`, which the
pipeline fills stage by stage.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .books import book_words
from .breakdown import Factor, FactorPart, ScoreBreakdown
from .bundle import Diagnostics, QueryTrace, RetrievalWarning, SourceCount, WarningCode
from .governance import ForbiddenRule
from .query import RetrievalContext, SearchMode
from .references import ChapterRef, reference_text

# The bundle's parts live in .bundle, the breakdown's in .breakdown; they are named here too, beside the results
# they describe.
__all__ = [
    "Candidate", "ChunkMetadata", "Diagnostics", "Factor", "FactorPart", "ModelInfo", "Origin", "QueryTrace",
    "RejectReason", "RejectedChunk", "RetrievalResult", "RetrievalWarning", "RetrievedChunk", "ScoreBreakdown",
    "ScoredCandidate", "SourceCount", "Timings", "WarningCode",
]


@dataclass(frozen=True)
class ChunkMetadata:
    """A row of ``chunk_metadata``; ``None`` means absent (never the vec0 ``''``/``0`` placeholders)."""

    scholar_id: str | None = None
    tradition: str | None = None
    book_id: str | None = None
    chapter_num: int | None = None
    verse_start: int | None = None
    verse_end: int | None = None
    panel_type: str | None = None

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def reference(self, book_name: str | None = None) -> str:
        """A human reference such as ``"Romans 9:1-5"``; empty when the chunk has no book."""
        if not self.book_id:
            return ""
        return reference_text(book_name or book_words(self.book_id), self.chapter_num, self.verse_start,
                              self.verse_end)


class Origin(enum.StrEnum):
    """What put a candidate in the pool (a chunk can have several origins)."""

    DENSE = "dense"
    KEYWORD = "keyword"
    REFERENCE = "reference"
    PIN = "pin"
    #: the word bridge of the app's ranking policy (:mod:`amicus_desktop.candidates.bridge`)
    WORD = "word"
    #: a verse the question quotes, under the app's ranking policy (:mod:`amicus_desktop.candidates.quoted`)
    QUOTE = "quote"


@dataclass(frozen=True)
class Candidate:
    """A chunk in the candidate pool with what was measured of it: the input of re-ranking.

    ``distance`` is the exact cosine distance to the question's vector (``None`` when no vector was
    made, in ``keyword`` mode); ``lexical`` the normalised keyword score in [0, 1] (``None`` when not
    computed, in ``semantic`` mode). Scores are measured once; re-ranking only combines them.
    """

    rowid: int
    chunk_id: str
    source_type: str
    source_id: str
    text: str
    metadata: ChunkMetadata
    distance: float | None
    lexical: float | None = None
    origins: frozenset[Origin] = frozenset({Origin.DENSE})

    @property
    def similarity(self) -> float | None:
        """``1 - distance`` (cosine similarity; the DB declares ``distance_metric=cosine``)."""
        return None if self.distance is None else 1.0 - self.distance


@dataclass(frozen=True)
class ScoredCandidate:
    """A candidate with its breakdown, before the diversity cap and cutoff."""

    candidate: Candidate
    breakdown: ScoreBreakdown


@dataclass(frozen=True)
class RetrievedChunk:
    """A result the reader sees. ``score`` is ``breakdown.final``, unrounded."""

    rank: int
    candidate: Candidate
    breakdown: ScoreBreakdown
    pinned: bool = False

    @property
    def score(self) -> float:
        return self.breakdown.final

    @property
    def chunk_id(self) -> str:
        return self.candidate.chunk_id

    # The chunk's own fields, so a result is named (title, snippet, citation) as its chunk is.
    @property
    def source_type(self) -> str:
        return self.candidate.source_type

    @property
    def source_id(self) -> str:
        return self.candidate.source_id

    @property
    def text(self) -> str:
        return self.candidate.text

    @property
    def metadata(self) -> ChunkMetadata:
        return self.candidate.metadata

    def to_json(self, *, with_pinned: bool = True) -> dict[str, Any]:
        """The contract's result object. ``with_pinned=False`` leaves out ``pinned`` (a question without
        pins keeps section 4's exact keys)."""
        c = self.candidate
        out: dict[str, Any] = {
            "rank": self.rank,
            "chunk_id": c.chunk_id,
            "source_type": c.source_type,
            "source_id": c.source_id,
            "text": c.text,
            "score": self.score,
            "metadata": c.metadata.to_json(),
            "breakdown": self.breakdown.to_json(),
        }
        if with_pinned:
            out["pinned"] = self.pinned
        return out


class RejectReason(enum.StrEnum):
    """Why a KNN candidate is not among the results (CONTRACT section 3)."""

    BELOW_THRESHOLD = "below_threshold"
    SCHOLAR_CAP = "scholar_cap"
    BELOW_CUTOFF = "below_cutoff"
    #: the overlay forbids its scholar or source type (CONTRACT section 12)
    FORBIDDEN_SOURCE = "forbidden_source"


@dataclass(frozen=True)
class RejectedChunk:
    """A candidate that was dropped, and why.

    ``score`` is the final score, or the similarity for ``below_threshold`` (no boost applied).
    ``similarity`` is ``None`` in ``keyword`` mode, where no vector is made.
    ``candidate`` and ``breakdown`` let a curator see the whole row; ``breakdown`` is ``None`` for
    ``below_threshold``. ``nth_by_scholar`` is, for ``scholar_cap``, which chunk of that scholar
    this was in ranking order (3 = the third). ``rule`` is, for ``forbidden_source``, the overlay's list
    that forbids it (its JSON pointer, the bundle's ``rule``).
    """

    chunk_id: str
    reason: RejectReason
    similarity: float | None
    score: float
    candidate: Candidate
    breakdown: ScoreBreakdown | None = None
    nth_by_scholar: int | None = None
    rule: ForbiddenRule | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "chunk_id": self.chunk_id,
            "reason": self.reason.value,
            "similarity": self.similarity,
            "score": self.score,
        }
        if self.rule is not None:
            out["rule"] = self.rule.value
        return out


@dataclass(frozen=True)
class ModelInfo:
    """The embedding model as the proxy and the DB name it."""

    id: str
    dims: int


@dataclass
class Timings:
    """Milliseconds spent per stage of one retrieval.

    ``search`` is all candidate generation on the database thread (CONTRACT section 4); ``dense``,
    ``keyword`` and ``references`` are its parts.
    """

    embed: float = 0.0
    search: float = 0.0
    rerank: float = 0.0
    total: float = 0.0
    dense: float = 0.0
    keyword: float = 0.0
    references: float = 0.0
    #: the workspace's notes (every search of them), when the question is scoped to a workspace
    notes: float | None = None

    def to_json(self) -> dict[str, float]:
        """CONTRACT section 4's ``timing_ms`` (exactly its four keys)."""
        return {k: round(getattr(self, k), 3) for k in ("embed", "search", "rerank", "total")}

    def stages_json(self) -> dict[str, float]:
        """The parts of ``search``, for the diagnostics (``notes`` only for a question scoped to a workspace)."""
        stages = {k: round(getattr(self, k), 3) for k in ("dense", "keyword", "references")}
        if self.notes is not None:
            stages["notes"] = round(self.notes, 3)
        return stages


@dataclass(frozen=True)
class RetrievalResult:
    """The outcome of one retrieval: the retrieval bundle (CONTRACT sections 4 and 7).

    ``candidates`` keeps the pool (and ``pinned`` the pinned chunks, scored) so that a new chapter,
    profile or weight can be re-ranked without embedding or searching again (see
    :func:`amicus_desktop.retrieval.rerank_result`). ``lasting_warnings`` are the warnings that do not
    depend on the ranking (unknown pins, references not in the corpus); re-ranking keeps them.
    """

    query: str
    model: ModelInfo
    results: tuple[RetrievedChunk, ...]
    rejected: tuple[RejectedChunk, ...]
    timings: Timings
    candidates: tuple[Candidate, ...] = field(default=(), repr=False)
    context: RetrievalContext | None = field(default=None, repr=False)
    trace: QueryTrace = field(default_factory=lambda: QueryTrace(SearchMode.SEMANTIC))
    warnings: tuple[RetrievalWarning, ...] = ()
    diagnostics: Diagnostics = field(default_factory=lambda: Diagnostics(0, {}, {}))
    pinned: tuple[Candidate, ...] = field(default=(), repr=False)
    lasting_warnings: tuple[RetrievalWarning, ...] = field(default=(), repr=False)
    #: an index word close to each query word the index does not know (for the spelling suggestion).
    spelling: Mapping[str, str] = field(default_factory=dict, repr=False)
    #: the authors of the results, most results first (CONTRACT section 12)
    provenance: tuple[SourceCount, ...] = ()
    #: the display name of each scholar in the pool, so a re-rank can name the authors again
    scholar_names: Mapping[str, str] = field(default_factory=dict, repr=False)
    #: the chapters whose verses the question quotes (the app's policy; :mod:`amicus_desktop.candidates.quoted`),
    #: which a re-rank for another open chapter reads again
    quoted: tuple[ChapterRef, ...] = field(default=(), repr=False)

    @property
    def mode(self) -> SearchMode:
        return self.trace.mode

    @property
    def ranked(self) -> tuple[RetrievedChunk, ...]:
        """The results without the pinned ones."""
        return tuple(r for r in self.results if not r.pinned)

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "model": {"id": self.model.id, "dims": self.model.dims},
            "results": [r.to_json(with_pinned=bool(self.trace.pins)) for r in self.results],
            "rejected": [r.to_json() for r in self.rejected],
            "timing_ms": self.timings.to_json(),
            "mode": self.trace.mode.value,
            "query_trace": self.trace.to_json(),
            "warnings": [w.to_json() for w in self.warnings],
            "diagnostics": {**self.diagnostics.to_json(), "search_ms": self.timings.stages_json()},
            "provenance": [p.to_json() for p in self.provenance],
        }


"""Plain data of the retrieval engine. No Qt, no I/O: everything here is a frozen dataclass.

The pipeline (``amicus_desktop.retrieval``) produces a :class:`RetrievalResult`; the UI renders it
and never recomputes a score.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import Any

SOURCE_TYPES: tuple[str, ...] = (
    "section_panel",
    "chapter_panel",
    "word_study",
    "lexicon_entry",
    "debate_topic",
    "cross_ref_thread_note",
    "journey_stop",
    "meta_faq",
)

#: CONTRACT section 3/4 limits.
DEFAULT_K = 10
DEFAULT_CANDIDATES = 40
MAX_K = 50
MAX_CANDIDATES = 4096
MAX_QUERY_CHARS = 2000


@dataclass(frozen=True)
class ChapterRef:
    """A chapter of a book, e.g. ``ChapterRef("romans", 9)``."""

    book_id: str
    chapter: int

    def __str__(self) -> str:
        return f"{self.book_id}:{self.chapter}"


@dataclass(frozen=True)
class Profile:
    """A reader's preferences: boosted scholars and traditions (ids as stored in the DB)."""

    preferred_scholars: frozenset[str] = frozenset()
    preferred_traditions: frozenset[str] = frozenset()

    @classmethod
    def of(cls, scholars: Any = (), traditions: Any = ()) -> Profile:
        return cls(frozenset(scholars), frozenset(traditions))


@dataclass(frozen=True)
class BoostWeights:
    """Multipliers of CONTRACT section 3 step 4, and the per-scholar cap of step 6."""

    chapter: float = 1.5
    scholar: float = 1.1
    tradition: float = 1.05
    per_scholar_cap: int = 2


@dataclass(frozen=True)
class RetrievalContext:
    """Everything one retrieval depends on besides the database and the proxy."""

    query: str
    profile: Profile = Profile()
    chapter: ChapterRef | None = None
    k: int = DEFAULT_K
    candidates: int = DEFAULT_CANDIDATES
    min_similarity: float | None = None
    weights: BoostWeights = BoostWeights()

    def replace(self, **changes: Any) -> RetrievalContext:
        return dataclasses.replace(self, **changes)


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
        name = book_name or self.book_id.replace("-", " ").title()
        if self.chapter_num is None:
            return name
        ref = f"{name} {self.chapter_num}"
        if self.verse_start is not None:
            ref += f":{self.verse_start}"
            if self.verse_end is not None and self.verse_end != self.verse_start:
                ref += f"-{self.verse_end}"
        return ref


@dataclass(frozen=True)
class Candidate:
    """One KNN row joined with its text and metadata: the input of re-ranking."""

    rowid: int
    chunk_id: str
    source_type: str
    source_id: str
    text: str
    metadata: ChunkMetadata
    distance: float


@dataclass(frozen=True)
class ScoreBreakdown:
    """How a candidate's final score was made: data, not a string."""

    distance: float
    similarity: float
    chapter_boost: float
    scholar_boost: float
    tradition_boost: float
    final: float

    def to_json(self) -> dict[str, float]:
        return dataclasses.asdict(self)


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

    @property
    def score(self) -> float:
        return self.breakdown.final

    @property
    def chunk_id(self) -> str:
        return self.candidate.chunk_id

    def to_json(self) -> dict[str, Any]:
        c = self.candidate
        return {
            "rank": self.rank,
            "chunk_id": c.chunk_id,
            "source_type": c.source_type,
            "source_id": c.source_id,
            "text": c.text,
            "score": self.score,
            "metadata": c.metadata.to_json(),
            "breakdown": self.breakdown.to_json(),
        }


class RejectReason(str, enum.Enum):
    """Why a KNN candidate is not among the results (CONTRACT section 3)."""

    BELOW_THRESHOLD = "below_threshold"
    SCHOLAR_CAP = "scholar_cap"
    BELOW_CUTOFF = "below_cutoff"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class RejectedChunk:
    """A candidate that was dropped, and why.

    ``score`` is the final score, or the similarity for ``below_threshold`` (no boost applied).
    ``candidate`` and ``breakdown`` let a curator see the whole row; ``breakdown`` is ``None`` for
    ``below_threshold``. ``nth_by_scholar`` is, for ``scholar_cap``, which chunk of that scholar
    this was in ranking order (3 = the third).
    """

    chunk_id: str
    reason: RejectReason
    similarity: float
    score: float
    candidate: Candidate
    breakdown: ScoreBreakdown | None = None
    nth_by_scholar: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "chunk_id": self.chunk_id,
            "reason": self.reason.value,
            "similarity": self.similarity,
            "score": self.score,
        }


@dataclass(frozen=True)
class ModelInfo:
    """The embedding model as the proxy and the DB name it."""

    id: str
    dims: int


@dataclass
class Timings:
    """Milliseconds spent per stage of one retrieval."""

    embed: float = 0.0
    search: float = 0.0
    rerank: float = 0.0
    total: float = 0.0

    def to_json(self) -> dict[str, float]:
        return {k: round(v, 3) for k, v in dataclasses.asdict(self).items()}


@dataclass(frozen=True)
class RetrievalResult:
    """The outcome of one retrieval.

    ``candidates`` keeps the KNN rows so that a new chapter or profile can be re-ranked without
    embedding or searching again (see :func:`amicus_desktop.rerank.rerank`).
    """

    query: str
    model: ModelInfo
    results: tuple[RetrievedChunk, ...]
    rejected: tuple[RejectedChunk, ...]
    timings: Timings
    candidates: tuple[Candidate, ...] = field(default=(), repr=False)
    context: RetrievalContext | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "model": {"id": self.model.id, "dims": self.model.dims},
            "results": [r.to_json() for r in self.results],
            "rejected": [r.to_json() for r in self.rejected],
            "timing_ms": self.timings.to_json(),
        }

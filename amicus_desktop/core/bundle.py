"""The bundle's parts beside the ranked results (CONTRACT sections 7 and 12): warnings, how the question was
understood, counts over the pool, and where the results come from. Plain data, no Qt, no I/O.

:mod:`amicus_desktop.bundle` computes them; :class:`~amicus_desktop.core.results.RetrievalResult` carries them.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .query import DEFAULT_CANDIDATES, Filters, SearchMode
from .references import PassageRef


class WarningCode(enum.StrEnum):
    """Warnings of the retrieval bundle (CONTRACT section 7): the answer stands, but read it with care."""

    NO_STRONG_MATCH = "no_strong_match"
    FEW_RESULTS = "few_results"
    REFERENCE_NOT_IN_CORPUS = "reference_not_in_corpus"
    PIN_NOT_FOUND = "pin_not_found"
    SINGLE_SOURCE_TYPE = "single_source_type"
    #: the overlay's forbidden sources removed candidates (CONTRACT section 12)
    FORBIDDEN_HIT = "forbidden_hit"
    #: notes of the question's workspace are not embedded yet: searched by words only (CONTRACT section 11)
    NOTES_PENDING = "notes_pending"
    #: the question names or needs a book the library holds no study material for (yet)
    BOOKS_NOT_SEARCHABLE = "books_not_searchable"


@dataclass(frozen=True)
class RetrievalWarning:
    """One warning: a code, a sentence for a person (what happened and what to do), and optional data.

    ``suggestion`` is a re-spelt question for ``no_strong_match`` when a word is unknown to the index.
    """

    code: WarningCode
    message: str
    suggestion: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code.value, "message": self.message}
        if self.suggestion is not None:
            out["suggestion"] = self.suggestion
        return out


@dataclass(frozen=True)
class QueryTrace:
    """How the question was understood (CONTRACT section 7 ``query_trace``)."""

    mode: SearchMode
    references: tuple[PassageRef, ...] = ()
    filters: Filters = Filters()
    pins: tuple[str, ...] = ()
    candidates_requested: int = DEFAULT_CANDIDATES
    #: the words the keyword search looked for, after stop-words (empty in semantic mode).
    keywords: tuple[str, ...] = ()
    #: whether the question's vector came from the session cache (no new embed).
    embedding_cached: bool = False
    #: where the keyword index lives: ``database``, ``cache`` or ``memory`` (``None``: not used).
    keyword_index: str | None = None
    #: the ``role_id`` of the overlay the retrieval ran under (CONTRACT section 12); ``None``: no overlay
    overlay: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode.value,
            "references": [r.to_json() for r in self.references],
            "filters": self.filters.to_json(),
            "pins": list(self.pins),
            "candidates_requested": self.candidates_requested,
            "keywords": list(self.keywords),
            "embedding_cached": self.embedding_cached,
            "keyword_index": self.keyword_index,
            "overlay": self.overlay,
        }


@dataclass(frozen=True)
class Coverage:
    """Which of the 66 books the library holds study material for (``diagnostics.coverage``).

    ``books``: their ids in canonical order; ``growing``: a build is still adding books to this library
    (``build-db --resume`` has not finished). The text of all 66 books is read and searched by words either way.
    """

    books: tuple[str, ...]
    total: int = 66
    growing: bool = False

    @property
    def complete(self) -> bool:
        return len(self.books) >= self.total

    def to_json(self) -> dict[str, Any]:
        return {"study_books": list(self.books), "count": len(self.books), "of": self.total,
                "growing": self.growing}


@dataclass(frozen=True)
class Diagnostics:
    """Counts over the candidate pool and the rejected list (CONTRACT section 7 ``diagnostics``).

    Pins are not counted. ``by_origin`` says which search found the pool's chunks (a chunk found by
    two counts in both).
    """

    candidates: int
    by_source_type: Mapping[str, int]
    rejected_by_reason: Mapping[str, int]
    by_origin: Mapping[str, int] = field(default_factory=dict)
    #: the library's books with study material (``None``: not known, e.g. a bundle read from an older file)
    coverage: Coverage | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "candidates": self.candidates,
            "by_source_type": dict(self.by_source_type),
            "rejected_by_reason": dict(self.rejected_by_reason),
            "by_origin": dict(self.by_origin),
        }
        if self.coverage is not None:
            out["coverage"] = self.coverage.to_json()
        return out


@dataclass(frozen=True)
class SourceCount:
    """One author among the results: ``provenance`` in the bundle (CONTRACT section 12)."""

    scholar_id: str
    name: str
    count: int

    def to_json(self) -> dict[str, Any]:
        return {"scholar_id": self.scholar_id, "name": self.name, "count": self.count}

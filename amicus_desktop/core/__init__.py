"""Types and errors shared by every part of the engine (no Qt, no I/O)."""

from .errors import AmicusError, ErrorCode
from .types import (
    SOURCE_TYPES,
    BoostWeights,
    Candidate,
    ChapterRef,
    ChunkMetadata,
    ModelInfo,
    Profile,
    RejectedChunk,
    RejectReason,
    RetrievalContext,
    RetrievalResult,
    RetrievedChunk,
    ScoreBreakdown,
    ScoredCandidate,
    Timings,
)

__all__ = [
    "SOURCE_TYPES",
    "AmicusError",
    "BoostWeights",
    "Candidate",
    "ChapterRef",
    "ChunkMetadata",
    "ErrorCode",
    "ModelInfo",
    "Profile",
    "RejectReason",
    "RejectedChunk",
    "RetrievalContext",
    "RetrievalResult",
    "RetrievedChunk",
    "ScoreBreakdown",
    "ScoredCandidate",
    "Timings",
]

"""Types and errors shared by every part of the engine (no Qt, no I/O)."""

from .errors import AmicusError, ErrorCode
from .query import SOURCE_TYPES, BoostWeights, Profile, RetrievalContext, SourceType
from .references import ChapterRef
from .results import (
    Candidate,
    ChunkMetadata,
    ModelInfo,
    RejectedChunk,
    RejectReason,
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
    "SourceType",
    "Timings",
]

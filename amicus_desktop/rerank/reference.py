"""The reference boost (CONTRACT section 6): a chunk covering a passage the question names."""

from __future__ import annotations

from collections.abc import Sequence

from ..core.references import PassageRef
from ..core.results import ChunkMetadata


def reference_boost(meta: ChunkMetadata, references: Sequence[PassageRef], weight: float) -> float:
    """``weight`` when the chunk covers any of the question's references, else 1.0."""
    return weight if any(ref.covers(meta) for ref in references) else 1.0

"""Step 4c: the preferred-tradition boost."""

from __future__ import annotations

from ..core.query import Profile
from ..core.results import ChunkMetadata


def tradition_boost(meta: ChunkMetadata, profile: Profile, weight: float) -> float:
    """``weight`` when the chunk's ``tradition`` is one of the profile's preferred traditions."""
    if meta.tradition is not None and meta.tradition in profile.preferred_traditions:
        return weight
    return 1.0

"""Step 4b: the preferred-scholar boost."""

from __future__ import annotations

from ..core.query import Profile
from ..core.results import ChunkMetadata


def scholar_boost(meta: ChunkMetadata, profile: Profile, weight: float) -> float:
    """``weight`` when the chunk's ``scholar_id`` is one of the profile's preferred scholars."""
    if meta.scholar_id is not None and meta.scholar_id in profile.preferred_scholars:
        return weight
    return 1.0

"""Step 3 of CONTRACT section 3: cosine similarity from sqlite-vec's cosine distance."""

from __future__ import annotations


def similarity(distance: float) -> float:
    """``1 - distance``; only cosine similarity because the DB declares ``distance_metric=cosine``."""
    return 1.0 - distance

"""A stand-in embedder for builds whose vectors do not matter (ids, text, metadata, indexes)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np


class StandInEmbedder:
    """A tiny deterministic embedder for tests: a unit vector seeded by each text's SHA-256."""

    model_id = "stand-in-hash-16"
    dims = 16

    def __init__(self) -> None:
        self.calls = 0

    def load(self) -> None:
        """Nothing to load (the Embedder protocol's start-up)."""

    def close(self) -> None:
        """Nothing to release."""

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        rows = []
        for text in texts:
            seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
            v = np.random.default_rng(seed).standard_normal(self.dims)
            rows.append(v / np.linalg.norm(v))
        return np.asarray(rows, dtype=np.float32).reshape(len(texts), self.dims)

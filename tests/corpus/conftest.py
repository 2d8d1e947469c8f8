"""Fixtures of the corpus tests: the installed SWORD modules, read once per session."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import pytest

from amicus_desktop.corpus.library import Library
from amicus_desktop.corpus.sources import Scope


class StandInEmbedder:
    """A tiny deterministic embedder for tests: a unit vector seeded by each text's SHA-256."""

    model_id = "stand-in-hash-16"
    dims = 16

    def __init__(self) -> None:
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        rows = []
        for text in texts:
            seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
            v = np.random.default_rng(seed).standard_normal(self.dims)
            rows.append(v / np.linalg.norm(v))
        return np.asarray(rows, dtype=np.float32).reshape(len(texts), self.dims)


@pytest.fixture(scope="session")
def library() -> Library:
    return Library()


@pytest.fixture(scope="session")
def demo_chunks(library: Library):
    from amicus_desktop.corpus.build import collect_chunks

    return collect_chunks(Scope.of(["romans", "john"]), library)


@pytest.fixture()
def stand_in() -> StandInEmbedder:
    return StandInEmbedder()

"""A database with its two-stage file, shared by the tests of the file (store/) and of the index (candidates/).

Import the fixtures under their own names (``from tests.support.coded import coded_db as coded_db``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.support.dbs import Chunk, build_db, clustered_vectors

N, DIMS = 3000, 64


def chunks_for(vectors: np.ndarray) -> list[Chunk]:
    return [Chunk(f"c{i:05d}", v) for i, v in enumerate(vectors)]


@pytest.fixture(scope="module")
def vectors() -> np.ndarray:
    """3,000 clustered 64-dim unit vectors (rowid i + 1 is row i)."""
    return clustered_vectors(N, DIMS, seed=3)


@pytest.fixture(scope="module")
def coded_db(tmp_path_factory: pytest.TempPathFactory, vectors: np.ndarray) -> Path:
    """:func:`vectors` in a full-schema database with its two-stage file."""
    return build_db(tmp_path_factory.mktemp("ts") / "coded.db", chunks_for(vectors), two_stage=True)


def questions(count: int = 12) -> np.ndarray:
    """Vectors near the corpus's clusters (same centres), a little further out than its rows."""
    return clustered_vectors(count, DIMS, seed=3, noise=1.2)

"""Building real sqlite-vec scripture.db files for tests, with vectors the test chooses."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from amicus_desktop.core.types import ChunkMetadata
from amicus_desktop.store.writer import ChunkRecord, ScriptureWriter


@dataclass
class Chunk:
    """A chunk for a test DB; ``vector`` is normalised on write."""

    chunk_id: str
    vector: Sequence[float]
    text: str = ""
    source_type: str = "section_panel"
    source_id: str = ""
    meta: ChunkMetadata = field(default_factory=ChunkMetadata)


def unit(v: Sequence[float]) -> np.ndarray:
    a = np.asarray(v, dtype=np.float64)
    return a / np.linalg.norm(a)


def build_db(
    path: Path,
    chunks: Sequence[Chunk],
    *,
    dims: int | None = None,
    model: str = "test-model",
    full_schema: bool = True,
    books: Sequence[tuple[str, str, int, int]] = (),
    verses: Sequence[tuple[str, int, int, str]] = (),
    two_stage: bool = False,
) -> Path:
    dims = dims or len(chunks[0].vector)
    records = [
        ChunkRecord(c.chunk_id, c.source_type, c.source_id or c.chunk_id, c.text or f"text of {c.chunk_id}", c.meta)
        for c in chunks
    ]
    vectors = np.stack([unit(c.vector) for c in chunks]) if chunks else np.zeros((0, dims))
    with ScriptureWriter(
        path, model_id=model, dims=dims, full_schema=full_schema, corpus_name="test", two_stage=two_stage
    ) as w:
        if full_schema:
            w.add_books(books)
            w.add_verses(verses)
        if chunks:
            w.add_chunks(records, vectors)
    return path


def random_chunks(n: int, dims: int, seed: int = 0, scholars: Sequence[str | None] = ("a", "b", "c", None)) -> list[Chunk]:
    """``n`` chunks with random unit vectors and metadata cycling through a few values."""
    rng = np.random.default_rng(seed)
    vecs = rng.standard_normal((n, dims))
    out = []
    for i in range(n):
        scholar = scholars[i % len(scholars)]
        out.append(
            Chunk(
                f"c{i:05d}",
                vecs[i],
                meta=ChunkMetadata(
                    scholar_id=scholar,
                    tradition=None if scholar is None else f"t-{scholar}",
                    book_id=("romans", "john", None)[i % 3],
                    chapter_num=(i % 5) + 1 if i % 3 != 2 else None,
                    verse_start=1,
                    verse_end=3,
                ),
            )
        )
    return out


def clustered_vectors(n: int, dims: int, seed: int = 0, clusters: int = 24, noise: float = 0.6) -> np.ndarray:
    """``n`` unit vectors around ``clusters`` random centres: rows have real near neighbours.

    Independent random vectors have none (every row is about as far as any other), which makes
    any approximate search look bad and tests of one meaningless.
    """
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((clusters, dims))
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    v = centres[rng.integers(0, clusters, n)] + noise / np.sqrt(dims) * rng.standard_normal((n, dims))
    return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)

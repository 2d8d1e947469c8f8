"""Building real sqlite-vec scripture.db files for tests, with vectors the test chooses."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from amicus_desktop.candidates.dense import nearest
from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.core.query import Filters
from amicus_desktop.core.results import Candidate, ChunkMetadata
from amicus_desktop.core.scholars import Scholar
from amicus_desktop.store.scripture import ScriptureStore
from amicus_desktop.store.sqlite import connect
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
    scholars: Sequence[Scholar] = (),
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
            w.add_scholars(scholars)
        if chunks:
            w.add_chunks(records, vectors)
    return path


def random_chunks(
    n: int, dims: int, seed: int = 0, scholars: Sequence[str | None] = ("a", "b", "c", None)
) -> list[Chunk]:
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


# -- a small corpus shaped like the demo (Romans and John, three scholars) -----------------------
SCHOLARS = {"matthew-henry": "reformed", "scofield": "dispensational", "spurgeon": "baptist"}

TOPICS = [
    "God's sovereign choice of Jacob over Esau and the purpose of election",
    "the potter and the clay: God's freedom to show mercy",
    "Israel's unbelief and the remnant chosen by grace",
    "justification by faith apart from the works of the law",
    "the new birth: being born of water and the Spirit",
    "God so loved the world that he gave his only Son",
    "the bread of life and the feeding of the five thousand",
    "the good shepherd who lays down his life for the sheep",
    "the righteousness of God revealed from faith to faith",
    "all have sinned and fall short of the glory of God",
    "no condemnation for those who are in Christ Jesus",
    "the Spirit helps us in our weakness and intercedes",
    "love is the fulfilling of the law",
    "welcome one another as Christ welcomed you",
    "the Word became flesh and dwelt among us",
    "the woman at the well and the living water",
]


def demo_like_chunks(vectors: Callable[[list[str]], Any] | None = None, dims: int = 8) -> list[Chunk]:
    """112 chunks on Romans and John by three scholars (plus unattributed ones), with real-ish text.

    ``vectors(texts)`` embeds the texts (e.g. through the real proxy); without it random vectors.
    """
    rows: list[tuple[str, str, ChunkMetadata, str]] = []
    scholars = [*SCHOLARS, None]
    for t, topic in enumerate(TOPICS):
        book, chapter = ("romans", 9 if t < 3 else 3 + t % 6) if t % 2 == 0 or t < 3 else ("john", 1 + t % 10)
        for s in scholars:
            for variant in range(2 if s else 1):
                meta = ChunkMetadata(
                    scholar_id=s, tradition=SCHOLARS.get(s) if s else None, book_id=book,
                    chapter_num=chapter, verse_start=1 + variant * 5, verse_end=5 + variant * 5,
                    panel_type="notes",
                )
                who = s.replace("-", " ").title() if s else "A study note"
                text = f"{who} on {book.title()} {chapter}: {topic}. " + (
                    "The apostle presses the point carefully." if variant == 0
                    else "Consider how this comforts the believer."
                )
                stype = "section_panel" if variant == 0 else "chapter_panel"
                rows.append((f"{book}-{chapter}-{s or 'note'}-{t}-{variant}", stype, meta, text))
    texts = [r[3] for r in rows]
    if vectors is not None:
        vecs = np.asarray(vectors(texts))
    else:
        vecs = np.random.default_rng(3).standard_normal((len(rows), dims))
    return [Chunk(cid, vecs[n], text=text, source_type=stype, meta=meta)
            for n, (cid, stype, meta, text) in enumerate(rows)]


BOOKS = [("john", "John", 43, 21), ("romans", "Romans", 45, 16)]


def verses() -> list[tuple[str, int, int, str]]:
    """12 verses of placeholder text for every chapter of :data:`BOOKS`."""
    out = []
    for book, _name, _ord, chapters in BOOKS:
        for c in range(1, chapters + 1):
            for v in range(1, 13):
                text = f"This is verse {v} of {book.title()} {c}, a line of scripture for the reader."
                out.append((book, c, v, text))
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


def edit_db(path: Path, *sql: str) -> None:
    """Run ``sql`` on a test's own database file (to damage or reshape it)."""
    con = connect(path, readonly=False)
    try:
        for statement in sql:
            con.execute(statement)
    finally:
        con.close()


def read_rows(path: Path, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """The rows of one query on the file at ``path``, opened read-only (what a test checks was written)."""
    con = connect(path, readonly=True)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


def candidates(store: ScriptureStore, vector: np.ndarray, k: int, filters: Filters = Filters()) -> list[Candidate]:
    """The dense search's nearest rows with their text and metadata from the store, nearest first."""
    hits = nearest(store, vector, k, filters)
    rows = store.fetch(r for r, _ in hits)
    return [Candidate(r, *rows[r][:4], metadata=rows[r][4], distance=d) for r, d in hits]


def expect_refused(code: ErrorCode, path: Path, *fragments: str) -> AmicusError:
    """Opening ``path`` raises ``code`` with each of ``fragments`` in its message; the error."""
    with pytest.raises(AmicusError) as ei:
        ScriptureStore(path)
    assert ei.value.code is code, ei.value
    for f in fragments:
        assert f in ei.value.message
    return ei.value

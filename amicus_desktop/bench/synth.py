"""A synthetic scripture.db for the benchmark: realistic metadata, clustered unit vectors.

Everything is a pure function of ``(n, dims, seed)``, so the numpy brute force of a measuring
process regenerates exactly the vectors the database holds (reading 200k×1536 vectors back out
through vec0 takes ~50 s) and a database built by an earlier run can be reused.

* Vectors: clustered like real text embeddings, so that recall of the two-stage search means
  something (independent random vectors have no near neighbours: every row is about as far as any
  other). Each row is ``COMMON·m + TOPIC·t + SUBTOPIC·s + NOISE·g/√dims``, L2-normalised, float32:
  one direction ``m`` shared by all (embeddings are anisotropic), one of :data:`TOPICS` topic
  directions ``t``, one of :data:`SUBTOPICS` sub-topic directions ``s`` under it, and Gaussian
  noise ``g``. Questions are drawn the same way with their own noise and less of ``m``
  (:data:`QUERY_NOISE`, :data:`QUERY_SHIFT`): a question is worded unlike the passages, which
  share a style. The weights were fitted to the full-Bible corpus embedded by the local model, so
  that the cosines of a question's 1st, 10th, 40th and 400th nearest passages, the median one, and
  passages' nearest neighbours come out close to the real ones (docs/PERFORMANCE.md compares
  them). Rows come in fixed batches of :data:`BATCH` (batch ``b`` from
  ``default_rng([seed, dims, 0, b])``).
* Metadata: the 8 source types in a corpus-like mix; ``book_id`` weighted by each book's chapter
  count, a chapter and verse span inside it; 24 scholars with Zipf-like weights, each with a
  tradition, so a 40-row candidate list has several chunks of the same scholar and the
  per-scholar cap rejects some; lexicon entries and FAQs have no book or scholar (NULL).
* Text: ~90 words from a small vocabulary (about 600 bytes), enough for realistic row sizes and an
  FTS5 index that is not trivial.
"""

from __future__ import annotations

import functools
import hashlib
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..core.books import BOOKS
from ..core.query import SourceType
from ..core.results import ChunkMetadata
from ..store.writer import ChunkRecord, ScriptureWriter

#: Rows per generated batch (also the batch handed to the writer): bounds the builder's memory.
BATCH = 8192
#: Bumped whenever the generated content changes, so a cached database is not reused wrongly.
FORMAT_VERSION = "4"
MODEL_PREFIX = "bench-synthetic"

#: The cluster structure of the vectors (see the module docstring).
TOPICS = 64
SUBTOPICS = 64
COMMON, TOPIC, SUBTOPIC, NOISE = 1.5, 1.0, 1.1, 0.7
#: Questions: their own noise, and less of the shared direction than passages have.
QUERY_NOISE, QUERY_SHIFT = 0.8, 0.25

SOURCE_TYPE_WEIGHTS: dict[str, float] = {
    SourceType.SECTION_PANEL: 0.34,
    SourceType.CHAPTER_PANEL: 0.14,
    SourceType.WORD_STUDY: 0.12,
    SourceType.LEXICON_ENTRY: 0.10,
    SourceType.DEBATE_TOPIC: 0.05,
    SourceType.CROSS_REF_THREAD_NOTE: 0.13,
    SourceType.JOURNEY_STOP: 0.06,
    SourceType.META_FAQ: 0.06,
}
#: Types that carry no book, chapter or scholar (their metadata is NULL).
UNANCHORED = frozenset({SourceType.LEXICON_ENTRY, SourceType.META_FAQ})

SCHOLARS: tuple[tuple[str, str], ...] = (
    ("matthew-henry", "reformed"), ("spurgeon", "baptist"), ("calvin", "reformed"),
    ("wesley", "methodist"), ("scofield", "dispensational"), ("luther", "lutheran"),
    ("chrysostom", "orthodox"), ("augustine", "catholic"), ("aquinas", "catholic"),
    ("gill", "baptist"), ("clarke", "methodist"), ("barnes", "reformed"),
    ("jfb", "reformed"), ("keil-delitzsch", "lutheran"), ("lightfoot", "anglican"),
    ("westcott", "anglican"), ("bengel", "lutheran"), ("poole", "reformed"),
    ("origen", "orthodox"), ("jerome", "catholic"), ("bede", "catholic"),
    ("edwards", "reformed"), ("ryle", "anglican"), ("moule", "anglican"),
)
PANEL_TYPES = ("exposition", "context", "application", "language", None)

WORDS = (
    "grace faith law covenant spirit flesh righteousness sin death life promise israel gentiles "
    "mercy judgment kingdom heaven earth father son lord christ god people temple sacrifice blood "
    "priest prophet king david moses abraham word truth light darkness love hope peace joy "
    "salvation redemption creation glory power wisdom fear obedience commandment servant nations "
    "church body bread wine water baptism resurrection cross suffering patience election calling "
    "adoption inheritance worship prayer psalm wilderness exile return city jerusalem zion mountain "
    "shepherd sheep vine branch fruit seed harvest field house altar tabernacle ark land rest "
    "the of and to in that he is for it with as his was on be this by which not they are from"
).split()


@dataclass(frozen=True)
class BuildStats:
    path: Path
    rows: int
    dims: int
    seconds: float
    bytes: int
    peak_rss_mb: float
    codes_seconds: float


def model_id(dims: int) -> str:
    return f"{MODEL_PREFIX}-{dims}"


def db_name(n: int, dims: int, seed: int) -> str:
    return f"bench-{n}x{dims}-seed{seed}-v{FORMAT_VERSION}.db"


def sidecar(path: Path) -> Path:
    """The JSON file beside a built database that remembers its build time and builder RSS."""
    return path.with_name(path.name + ".build.json")


def peak_rss_mb() -> float:
    """This process's peak resident set size so far, in MiB."""
    try:
        import resource  # not on Windows
    except ImportError:
        return 0.0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024  # bytes vs KiB


def _unit(v: np.ndarray) -> np.ndarray:
    v /= np.linalg.norm(v, axis=-1, keepdims=True)
    return v


@functools.lru_cache(maxsize=2)
def cluster_centres(dims: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The shared direction and the ``TOPICS × SUBTOPICS`` cluster centres (unit rows, float32).

    Built in place (25 MB at 1,536 dims), so that generating questions does not inflate the
    measuring process's peak RSS.
    """
    rng = np.random.default_rng([seed, dims, 3])
    common = _unit(rng.standard_normal(dims, dtype=np.float32))
    topics = _unit(rng.standard_normal((TOPICS, 1, dims), dtype=np.float32))
    centres = _unit(rng.standard_normal((TOPICS, SUBTOPICS, dims), dtype=np.float32))
    centres *= SUBTOPIC
    centres += COMMON * common + TOPIC * topics
    return common, _unit(centres.reshape(TOPICS * SUBTOPICS, dims))


def _clustered_rows(
    rng: np.random.Generator, rows: int, dims: int, seed: int, noise: float, shift: float = 0.0
) -> np.ndarray:
    common, centres = cluster_centres(dims, seed)
    picks = rng.integers(0, len(centres), size=rows)
    v = centres[picks] + (noise / np.sqrt(dims)) * rng.standard_normal((rows, dims), dtype=np.float32)
    if shift:
        v -= shift * common
    return _unit(v.astype(np.float32, copy=False))


def vector_batches(n: int, dims: int, seed: int) -> Iterator[np.ndarray]:
    """The database's vectors, ``BATCH`` rows at a time, rowid order (row 0 is rowid 1)."""
    for b, start in enumerate(range(0, n, BATCH)):
        rows = min(BATCH, n - start)
        yield _clustered_rows(np.random.default_rng([seed, dims, 0, b]), rows, dims, seed, NOISE)


def vector_matrix(n: int, dims: int, seed: int) -> np.ndarray:
    """All ``n`` vectors as one C-contiguous float32 matrix (``n × dims × 4`` bytes)."""
    mat = np.empty((n, dims), dtype=np.float32)
    for b, batch in enumerate(vector_batches(n, dims, seed)):
        mat[b * BATCH : b * BATCH + len(batch)] = batch
    return mat


def query_vector(text: str, dims: int, seed: int) -> np.ndarray:
    """A question's unit vector determined by ``text`` (what the bench proxy answers for it)."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    rng = np.random.default_rng(int.from_bytes(digest[:16], "little"))
    return _clustered_rows(rng, 1, dims, seed, QUERY_NOISE, QUERY_SHIFT).reshape(dims)


def query_vectors(count: int, dims: int, seed: int) -> np.ndarray:
    """``count`` distinct question vectors, independent of the database's rows."""
    return _clustered_rows(np.random.default_rng([seed, dims, 1]), count, dims, seed, QUERY_NOISE, QUERY_SHIFT)


_BOOK_IDS = np.array([b.book_id for b in BOOKS])
_BOOK_CHAPTERS = np.array([b.chapters for b in BOOKS])
_BOOK_P = _BOOK_CHAPTERS / _BOOK_CHAPTERS.sum()
_TYPES = np.array(list(SOURCE_TYPE_WEIGHTS))
_TYPE_P = np.array(list(SOURCE_TYPE_WEIGHTS.values()))
_TYPE_P = _TYPE_P / _TYPE_P.sum()
_SCHOLAR_P = 1.0 / np.arange(1, len(SCHOLARS) + 1) ** 0.9
_SCHOLAR_P = _SCHOLAR_P / _SCHOLAR_P.sum()
_WORD_ARR = np.array(WORDS)


def record_batch(start: int, rows: int, seed: int) -> list[ChunkRecord]:
    """Chunk records for rows ``start .. start+rows-1`` (0-based), deterministic per batch."""
    rng = np.random.default_rng([seed, 0, 2, start])
    types = rng.choice(_TYPES, size=rows, p=_TYPE_P)
    books = rng.choice(len(BOOKS), size=rows, p=_BOOK_P)
    chapter_u = rng.random(rows)
    verse_start = rng.integers(1, 30, size=rows)
    verse_len = rng.integers(0, 8, size=rows)
    scholars = rng.choice(len(SCHOLARS), size=rows, p=_SCHOLAR_P)
    no_scholar = rng.random(rows) < 0.08  # some anchored chunks are editorial (no scholar)
    panels = rng.integers(0, len(PANEL_TYPES), size=rows)
    lengths = rng.integers(60, 120, size=rows)
    words = rng.integers(0, len(_WORD_ARR), size=int(lengths.sum()))
    out: list[ChunkRecord] = []
    pos = 0
    for i in range(rows):
        st = str(types[i])
        text = " ".join(_WORD_ARR[words[pos : pos + lengths[i]]])
        pos += lengths[i]
        rowno = start + i
        if st in UNANCHORED:
            meta = ChunkMetadata()
            source_id = f"{st}-{rowno}"
        else:
            b = int(books[i])
            book = str(_BOOK_IDS[b])
            chapter = 1 + int(chapter_u[i] * int(_BOOK_CHAPTERS[b]))
            vs = int(verse_start[i])
            scholar, tradition = (None, None) if no_scholar[i] else SCHOLARS[int(scholars[i])]
            panel = PANEL_TYPES[int(panels[i])] if st in (SourceType.SECTION_PANEL, SourceType.CHAPTER_PANEL) else None
            meta = ChunkMetadata(
                scholar_id=scholar, tradition=tradition, book_id=book, chapter_num=chapter,
                verse_start=vs, verse_end=vs + int(verse_len[i]), panel_type=panel,
            )
            source_id = f"{book}-{chapter}"
        out.append(ChunkRecord(f"{st}:{rowno:07d}", st, source_id, text, meta))
    return out


def build(path: Path, n: int, dims: int, seed: int, *, progress: bool = False) -> BuildStats:
    """Write the synthetic database for ``(n, dims, seed)`` to ``path`` (atomically).

    With the two-stage tables, always: the benchmark measures the exact path and the two-stage
    path on the same file.
    """
    t0 = time.perf_counter()
    with ScriptureWriter(
        path,
        model_id=model_id(dims),
        dims=dims,
        full_schema=True,
        corpus_name=f"amicus-bench synthetic {n}x{dims}",
        extra_meta={"bench_format": FORMAT_VERSION, "bench_seed": str(seed), "bench_rows": str(n)},
        two_stage=True,
    ) as writer:
        writer.add_books((b.book_id, b.name, b.ordinal, b.chapters) for b in BOOKS)
        done = 0
        live = progress and sys.stderr.isatty()  # rewrite one line on a terminal only
        for vecs in vector_batches(n, dims, seed):
            writer.add_chunks(record_batch(done, len(vecs), seed), vecs)
            done += len(vecs)
            if live:
                print(f"\r  building {path.name}: {done:,}/{n:,} rows", end="", file=sys.stderr, flush=True)
        if progress:
            print(("" if live else f"  building {path.name}: {done:,}/{n:,} rows")
                  + " — indexing text…", end="", file=sys.stderr, flush=True)
    if progress:
        print(" done", file=sys.stderr, flush=True)
    return BuildStats(path, n, dims, time.perf_counter() - t0, path.stat().st_size, peak_rss_mb(),
                      writer.codes_seconds)

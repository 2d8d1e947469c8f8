"""Building scripture.db from the installed public-domain SWORD modules. No Qt.

:func:`build_database` is what ``amicus-desktop build-db`` runs and what the desktop app's "build
the demo database" action calls on a worker thread. It reads every source for the chosen books,
embeds the chunks in batches and writes them through :class:`~amicus_desktop.store.writer.ScriptureWriter`,
which writes a temporary file and renames it into place only at the end: a cancelled, failed or
interrupted (Ctrl-C) build leaves nothing at ``out`` (and an existing file there untouched).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .. import __version__
from ..core.books import BOOKS, BY_ID
from ..core.query import SOURCE_TYPES
from ..embedding.base import Embedder
from ..present.titles import title
from ..store.codes import prefer_two_stage
from ..store.writer import ChunkRecord, ScriptureWriter
from .lanes import embed_in_lanes, lanes_for
from .library import Library, describe_sources
from .sources.abbott_smith import abbott_smith_chunks
from .sources.commentaries import ScofieldData, read_scofield, scofield_chunks, tdavid_chunks
from .sources.common import DEMO_BOOKS, BibleText, Scope, scholars_of
from .sources.faq import faq_chunks
from .sources.henry import mhcc_chunks
from .sources.lexicon import Lexicon, lexicon_chunks, used_numbers, word_study_chunks
from .sources.threads import nave_chunks, scofield_thread_chunks
from .verse_index import Cancelled, load_translations, write_verse_search

log = logging.getLogger("amicus.corpus")

DEFAULT_BATCH = 64


class BuildCancelled(Exception):
    """The build was cancelled through its ``cancel`` event; nothing was written at ``out``."""


@dataclass(frozen=True)
class BuildProgress:
    """Where a build is. ``rate`` is items per second in this stage; ``eta`` seconds left (None
    while unknown); ``books_done`` the books whose study material is in (a build book by book only)."""

    stage: str
    done: int
    total: int
    rate: float = 0.0
    eta: float | None = None
    books_done: int | None = None

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 0.0


@dataclass(frozen=True)
class BuildReport:
    """What a finished build wrote."""

    path: Path
    counts: dict[str, int]
    seconds: float
    size_bytes: int
    model_id: str
    dims: int
    books: tuple[str, ...]
    verses: int  # of the books built: embedded for verse search by meaning
    stage_seconds: dict[str, float] = field(default_factory=dict)
    text_verses: int = 0  # of all 66 books: the reader's text and the verse search by words

    @property
    def chunk_count(self) -> int:
        return sum(self.counts.values())

    @property
    def size_mb(self) -> float:
        return self.size_bytes / 1_000_000

    def summary(self) -> str:
        lines = [f"Built {self.path} in {self.seconds:.1f} s ({self.size_mb:.1f} MB), "
                 f"{self.chunk_count} chunks and {self.verses} verse vectors for {len(self.books)} of 66 books, "
                 f"the text of {self.text_verses} verses, model {self.model_id} ({self.dims} dims)."]
        width = max(len(t) for t in SOURCE_TYPES)
        for source_type in SOURCE_TYPES:
            lines.append(f"  {source_type:<{width}}  {self.counts.get(source_type, 0):>7}")
        return "\n".join(lines)


def scope_books(books: Sequence[str] | None = None, *, demo: bool = False) -> list[str] | None:
    """The ``books`` argument of :func:`build_database` for the CLI's scopes
    (``None`` = all 66 books)."""
    if demo:
        return list(DEMO_BOOKS)
    return list(books) if books is not None else None


def collect_chunks(scope: Scope, library: Library | None = None, *,
                   cancel: threading.Event | None = None,
                   progress: Callable[[BuildProgress], None] | None = None,
                   whole: BibleText | None = None,
                   ) -> tuple[BibleText, list[ChunkRecord]]:
    """Read every source for ``scope``: the WEB's verses of its books and all chunk records (validated).

    ``whole`` is the WEB of all 66 books when the caller has read it already (the builder does: every
    library carries the whole Bible's text); the scope's verses are taken out of it."""
    library = library or Library()
    missing = library.check()
    if missing:
        raise FileNotFoundError("\n".join(missing))

    records: list[ChunkRecord] = []
    bible: BibleText | None = None
    lexicon: Lexicon | None = None
    scofield: ScofieldData | None = None

    def load_bible() -> None:
        nonlocal bible
        bible = whole.only(scope.ids) if whole is not None else BibleText.load(library, scope.books)

    def lexicon_entries() -> Iterable[ChunkRecord]:
        nonlocal lexicon
        lexicon = Lexicon(library)
        assert bible is not None
        numbers = (
            set(lexicon.numbers("G")) | set(lexicon.numbers("H")) if scope.full
            else used_numbers(bible, scope)
        )
        return lexicon_chunks(lexicon, numbers)

    def abbott_smith_entries() -> Iterable[ChunkRecord]:
        assert bible is not None
        return abbott_smith_chunks(library, None if scope.full else used_numbers(bible, scope))

    def scofield_notes() -> Iterable[ChunkRecord]:
        nonlocal scofield
        scofield = read_scofield(library, scope)
        return scofield_chunks(scofield)

    def word_studies() -> Iterable[ChunkRecord]:
        assert bible is not None and lexicon is not None  # loaded by the steps before this one
        return word_study_chunks(bible, lexicon, scope)

    def scofield_chains() -> Iterable[ChunkRecord]:
        assert scofield is not None  # read by the Scofield step
        return scofield_thread_chunks(scofield, scope)

    steps: list[tuple[str, Callable[[], Iterable[ChunkRecord] | None]]] = [
        ("World English Bible", load_bible),
        ("Matthew Henry", lambda: mhcc_chunks(library, scope)),
        ("Scofield", scofield_notes),
        ("Treasury of David", lambda: tdavid_chunks(library, scope)),
        ("Strong's", lexicon_entries),
        ("Abbott-Smith", abbott_smith_entries),
        ("word studies", word_studies),
        ("Scofield chains", scofield_chains),
        ("Nave's", lambda: nave_chunks(library, scope)),
        ("help texts", faq_chunks),
    ]
    started = time.monotonic()
    for i, (name, step) in enumerate(steps):
        if cancel is not None and cancel.is_set():
            raise BuildCancelled("the build was cancelled")
        if progress:
            elapsed = time.monotonic() - started
            progress(BuildProgress(f"reading {name}", i, len(steps),
                                   rate=i / elapsed if elapsed > 0 else 0.0))
        produced = step()
        if produced is not None:
            records.extend(produced)
    if progress:
        elapsed = time.monotonic() - started
        progress(BuildProgress("reading sources", len(steps), len(steps),
                               rate=len(steps) / elapsed if elapsed else 0.0, eta=0.0))
    validate(records)
    assert bible is not None
    return bible, records


def validate(records: Sequence[ChunkRecord]) -> None:
    """Unique chunk ids, known source types, non-empty text: else ``ValueError``."""
    seen: set[str] = set()
    for rec in records:
        if rec.chunk_id in seen:
            raise ValueError(f"duplicate chunk id {rec.chunk_id}")
        seen.add(rec.chunk_id)
        if rec.source_type not in SOURCE_TYPES:
            raise ValueError(f"{rec.chunk_id}: unknown source_type {rec.source_type}")
        if not rec.text.strip():
            raise ValueError(f"{rec.chunk_id}: empty text")


#: how many words of the verses a commentary note covers are embedded with it
CONTEXT_WORDS = 60


def embedding_text(rec: ChunkRecord, verses: Mapping[tuple[str, int, int], str] | None = None) -> str:
    """What is embedded for a chunk. A commentary note rarely names the passage it comments on, and a part
    of a longer note starts mid-thought ("Again; what idea had the apostle…"), so a note is embedded with its
    title (author, passage, part) and the first words of the verses it covers in front; a question about a
    topic then meets the passage's own words ("Christ died for the ungodly" for "why did Jesus have to die").
    Measured in docs/RELEVANCE.md ("Contextual vectors"). The stored text stays as it is."""
    m = rec.metadata
    if rec.source_type not in ("section_panel", "chapter_panel") or m.book_id not in BY_ID:
        return rec.text
    head = title(rec)
    words: list[str] = []
    if verses is not None and m.chapter_num is not None and m.verse_start is not None:
        for verse in range(m.verse_start, (m.verse_end or m.verse_start) + 1):
            words += verses.get((m.book_id, m.chapter_num, verse), "").split()
            if len(words) >= CONTEXT_WORDS:
                break
    passage = " ".join(words[:CONTEXT_WORDS])
    return f"{head}. {passage}\n{rec.text}" if passage else f"{head}.\n{rec.text}"


def embed_batches(
    embedder: Embedder,
    records: Sequence[ChunkRecord],
    *,
    batch: int = DEFAULT_BATCH,
    progress: Callable[[BuildProgress], None] | None = None,
    cancel: threading.Event | None = None,
    verses: Mapping[tuple[str, int, int], str] | None = None,
    lanes: Sequence[Embedder] | None = None,
) -> Iterator[tuple[Sequence[ChunkRecord], np.ndarray]]:
    """Embed ``records`` (:func:`embedding_text` of each, with ``verses`` for a commentary note's passage)
    ``batch`` at a time: yields each batch with its
    ``(n, dims)`` float32 vectors, reporting the ``embedding`` stage (done, total, rate, ETA) after each.

    The one embedding loop of ``build-db`` and ``ingest``. ``lanes`` (:func:`~.lanes.lanes_for`) embed
    alternate batches side by side, in order; without them ``embedder`` embeds every batch. Setting ``cancel``
    stops it before the next batch with :class:`BuildCancelled`; vectors of the wrong shape are a ``ValueError``.
    """
    batch = max(1, int(batch))
    dims = int(embedder.dims)
    total = len(records)
    done = 0
    started = time.monotonic()
    if progress:
        progress(BuildProgress("embedding", 0, total))

    def check() -> None:
        if cancel is not None and cancel.is_set():
            raise BuildCancelled("the build was cancelled")

    batches = ((records[start: start + batch], [embedding_text(r, verses) for r in records[start: start + batch]])
               for start in range(0, total, batch))
    for chunk, vectors in embed_in_lanes(lanes or [embedder], batches, before=check):
        if vectors.shape != (len(chunk), dims):
            raise ValueError(
                f"the embedder returned vectors shaped {vectors.shape}, expected ({len(chunk)}, {dims})"
            )
        yield chunk, vectors
        done += len(chunk)
        if progress:
            elapsed = time.monotonic() - started
            rate = done / elapsed if elapsed > 0 else 0.0
            eta = (total - done) / rate if rate > 0 else None
            progress(BuildProgress("embedding", done, total, rate, eta))


def build_database(
    out: Path,
    books: Sequence[str] | None,
    embedder: Embedder,
    *,
    progress: Callable[[BuildProgress], None] | None = None,
    cancel: threading.Event | None = None,
    batch: int = DEFAULT_BATCH,
    library: Library | None = None,
) -> BuildReport:
    """Build ``out`` for ``books`` (book ids or names; ``None`` = all 66) with ``embedder``.

    ``progress`` is called from this thread (stage, done, total, rate, ETA). Setting ``cancel``
    stops the build at the next batch with :class:`BuildCancelled`; nothing is left at ``out``.
    """
    t0 = time.monotonic()
    out = Path(out)
    scope = Scope.of(books)
    stage_seconds: dict[str, float] = {}
    library = library or Library()
    # The reader's text is the whole Bible in every library (a few seconds to read); the study material and
    # the verse vectors are the scope's.
    whole = BibleText.whole(library)
    bible, records = collect_chunks(scope, library, cancel=cancel, progress=progress, whole=whole)
    stage_seconds["read"] = time.monotonic() - t0
    log.info("read %d chunks and %d verses for %s in %.1f s", len(records), len(bible.verses),
             scope.describe(), stage_seconds["read"])

    model_id = str(embedder.model_id)
    dims = int(embedder.dims)
    counts = Counter(r.source_type for r in records)
    extra = {
        "corpus_books": ",".join(b.book_id for b in scope.books),
        "corpus_sources": describe_sources(),
        "chunk_counts": json.dumps({t: counts.get(t, 0) for t in SOURCE_TYPES}),
        "builder": f"amicus-desktop build-db {__version__}",
    }
    corpus_name = (
        "Amicus public-domain corpus (all 66 books)" if scope.full
        else f"Amicus public-domain corpus ({scope.describe()})"
    )
    batch = max(1, int(batch))
    lanes = lanes_for(embedder)  # both cores: one single-threaded session per core (lanes.py)
    t_embed = time.monotonic()
    # The two-stage search tables only where the app would use them (same rule, store/codes.py).
    with ScriptureWriter(out, model_id=model_id, dims=dims, corpus_name=corpus_name, extra_meta=extra,
                         two_stage=prefer_two_stage(len(records), dims)) as writer:
        writer.add_books((b.book_id, b.name, b.ordinal, b.chapters) for b in BOOKS)
        writer.add_verses(whole.rows())
        writer.add_scholars(scholars_of(records))
        for chunk, vectors in embed_batches(embedder, records, batch=batch, progress=progress, cancel=cancel,
                                            verses=whole.verses, lanes=lanes):
            writer.add_chunks(chunk, vectors)
        if cancel is not None and cancel.is_set():
            raise BuildCancelled("the build was cancelled")
        stage_seconds["embed"] = time.monotonic() - t_embed
        t_verses = time.monotonic()

        def verse_progress(stage: str, done: int, total: int, rate: float, eta: float | None) -> None:
            if progress:
                progress(BuildProgress(stage, done, total, rate, eta))

        try:
            write_verse_search(writer, load_translations(library, whole), embedder, library, batch=batch,
                               progress=verse_progress, cancel=cancel, embed_books=scope.ids, lanes=lanes)
        except Cancelled:
            raise BuildCancelled("the build was cancelled") from None
        stage_seconds["verses"] = time.monotonic() - t_verses
        if progress:
            progress(BuildProgress("finishing", 0, 1))
        t_finish = time.monotonic()
    stage_seconds["finish"] = time.monotonic() - t_finish
    seconds = time.monotonic() - t0
    if progress:
        progress(BuildProgress("done", 1, 1, eta=0.0))
    return BuildReport(
        path=out, counts={t: counts.get(t, 0) for t in SOURCE_TYPES}, seconds=seconds,
        size_bytes=out.stat().st_size, model_id=model_id, dims=dims,
        books=tuple(b.book_id for b in scope.books), verses=len(bible.verses),
        stage_seconds=stage_seconds, text_verses=len(whole.verses),
    )


__all__ = [
    "DEMO_BOOKS",
    "BuildCancelled",
    "BuildProgress",
    "BuildReport",
    "build_database",
    "collect_chunks",
    "embed_batches",
    "embedding_text",
    "scope_books",
    "validate",
]

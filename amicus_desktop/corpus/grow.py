"""Building a library book by book, resumable: ``build-db --resume``. No Qt.

The library appears at once, holding the text of all 66 books (WEB and KJV, their word indexes and
Strong's tags) and the app's help texts, marked ``db_meta.build_state = growing``; then each book's study
material and verse vectors are embedded and written **in one transaction per book**, so a reader (the
window, ``query``, ``serve``) only ever sees whole books, and a crash, SIGKILL or full disk loses at most
the book in progress. ``--resume`` starts again after the last book written: nothing is embedded twice.

While it grows (:mod:`amicus_desktop.store.growing` writes it) the library is in WAL mode with a marker
file beside it (``scripture.db-growing``): readers
open it with SQLite's own locking and see the last committed book (:func:`~amicus_desktop.store.sqlite.
connect_readonly`). When the last book is in, the marker and ``build_state`` go, the file returns to a
rollback journal and gets the two-stage search file if it is big enough (the same rule as ``build-db``).

Books go in a useful order: the demo's two first (the first answers within minutes), then the New Testament,
then the Old. A lexicon entry goes with the first book that uses its number; what belongs to no book (the
entries no verse uses) comes last.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import __version__
from ..core.books import BOOKS, BY_ID, Book
from ..core.query import SOURCE_TYPES
from ..embedding.base import Embedder
from ..store.growing import GrowingLibrary, NotGrowing
from ..store.schema import BUILD_STATE, GROWING
from ..store.writer import ChunkRecord, ScriptureWriter
from ..study.xref_index import index_library
from .build import BuildCancelled, BuildProgress, collect_chunks, embed_batches
from .lanes import embed_in_lanes, lanes_for
from .library import Library, describe_sources
from .sources.common import DEMO_BOOKS, BibleText, Scope, scholars_of
from .sources.faq import faq_chunks
from .verse_index import Cancelled, load_translations, write_verse_search

_NUMBER = re.compile(r"\b([GH]\d+)")
REST = "the rest"  # the unit of what belongs to no book


@dataclass(frozen=True)
class GrowReport:
    path: Path
    books_written: tuple[str, ...]
    books_done: int
    chunks_written: int
    seconds: float
    complete: bool

    def summary(self) -> str:
        state = "complete" if self.complete else "not complete yet (run again with --resume)"
        return (f"{self.path}: wrote {len(self.books_written)} books ({self.chunks_written} chunks) in "
                f"{self.seconds:.1f} s; {self.books_done} of 66 books have study material; the library is {state}.")


def build_order(books: Sequence[Book]) -> list[Book]:
    """The demo's books first, then the New Testament, then the Old (canonical order within each)."""
    return sorted(books, key=lambda b: (b.book_id not in DEMO_BOOKS, b.testament != "NT", b.ordinal))


def units(records: Sequence[ChunkRecord], order: Sequence[Book],
          whole: BibleText) -> list[tuple[str, list[ChunkRecord]]]:
    """``records`` split into what each book's transaction writes (in ``order``), then :data:`REST`."""
    first_user: dict[str, str] = {}
    for book in order:
        for (book_id, _c, _v), tokens in whole.tokens.items():
            if book_id == book.book_id:
                for token in tokens:
                    for number in token.strongs:
                        first_user.setdefault(number, book.book_id)
    out: dict[str, list[ChunkRecord]] = {b.book_id: [] for b in order}
    rest: list[ChunkRecord] = []
    for rec in records:
        owner = rec.metadata.book_id
        if owner is None:  # a lexicon entry goes with the first book that uses its number
            m = _NUMBER.search(rec.source_id)
            owner = first_user.get(m.group(1)) if m else None
        (out[owner] if owner is not None and owner in out else rest).append(rec)
    return [*((b.book_id, out[b.book_id]) for b in order), (REST, rest)]


def grow_database(
    out: Path,
    books: Sequence[str] | None,
    embedder: Embedder,
    *,
    progress: Callable[[BuildProgress], None] | None = None,
    cancel: threading.Event | None = None,
    batch: int = 64,
    library: Library | None = None,
    stop_after: int | None = None,
) -> GrowReport:
    """Build ``out`` for ``books`` (``None``: all 66) book by book, or continue the build that started it.

    ``stop_after``: write at most that many books in this run, then stop, leaving the library growing (the first
    launch: the text of all 66 books and the demo's two, the rest continued in the background). The progress
    says each book as it starts (``book i/n: Name``) and again once it is in (``wrote Name``, with
    ``books_done``): a reader re-reads the library's coverage then."""
    t0 = time.monotonic()
    out = Path(out)
    scope = Scope.of(books)
    library = library or Library()
    whole = BibleText.whole(library)
    if not out.exists():
        _start(out, embedder, library, whole, batch=batch)
    lanes = lanes_for(embedder)  # both cores: one single-threaded session per core (lanes.py)
    with GrowingLibrary(out, str(embedder.model_id), int(embedder.dims)) as grown:
        have = grown.chunk_ids()
        done = grown.books_done()
        order = [b for b in build_order(scope.books) if b.book_id not in done]
        _, records = collect_chunks(scope, library, cancel=cancel, progress=progress, whole=whole)
        todo = [(name, [r for r in recs if r.chunk_id not in have]) for name, recs in units(records, order, whole)]
        total = sum(len(recs) for _, recs in todo)
        written: list[str] = []
        chunks = 0
        started = time.monotonic()
        for i, (name, recs) in enumerate(todo):
            if cancel is not None and cancel.is_set():
                raise BuildCancelled("the build was cancelled")
            if stop_after is not None and len(written) >= stop_after:
                break
            title = BY_ID[name].name if name in BY_ID else name
            if progress:
                progress(_progress(f"book {i + 1}/{len(todo)}: {title}", chunks, total, started, len(done)))
            _write_unit(grown, name, recs, lanes, whole, done, batch=batch, cancel=cancel)
            if i + 1 < len(todo):  # the book's notes in the cross-reference index (about a second); the last
                index_library(out)  # book's after finishing, so a library with every book is never left growing
            chunks += len(recs)
            if name in BY_ID:
                done.add(name)
                written.append(name)
            if progress:
                progress(_progress(f"wrote {title}", chunks, total, started, len(done)))
        complete = scope.ids <= done
        if complete:
            grown.finish("Amicus public-domain corpus "
                         f"({'all 66 books' if len(done) == len(BOOKS) else scope.describe()})")
    index_library(out)
    if progress:
        progress(BuildProgress("done", 1, 1, eta=0.0, books_done=len(done)))
    return GrowReport(out, tuple(written), len(done), chunks, time.monotonic() - t0, complete)


def _progress(stage: str, chunks: int, total: int, started: float, books_done: int) -> BuildProgress:
    elapsed = time.monotonic() - started
    rate = chunks / elapsed if elapsed > 0 and chunks else 0.0
    return BuildProgress(stage, chunks, total, rate, (total - chunks) / rate if rate else None, books_done)


def _start(out: Path, embedder: Embedder, library: Library, whole: BibleText, *, batch: int) -> None:
    """The library with no book's study material yet: all the text, the help texts, ``growing``."""
    faq = list(faq_chunks())
    extra = {"corpus_books": "", "corpus_sources": describe_sources(), BUILD_STATE: GROWING,
             "chunk_counts": json.dumps(dict(Counter(r.source_type for r in faq))),
             "builder": f"amicus-desktop build-db --resume {__version__}"}
    with ScriptureWriter(out, model_id=str(embedder.model_id), dims=int(embedder.dims),
                         corpus_name="Amicus public-domain corpus (growing)", extra_meta=extra) as writer:
        writer.add_books((b.book_id, b.name, b.ordinal, b.chapters) for b in BOOKS)
        writer.add_verses(whole.rows())
        for chunk, vectors in embed_batches(embedder, faq, batch=batch):
            writer.add_chunks(chunk, vectors)
        try:
            write_verse_search(writer, load_translations(library, whole), embedder, library, batch=batch,
                               embed_books=())
        except Cancelled:  # pragma: no cover - no cancel event is passed
            raise BuildCancelled("the build was cancelled") from None


def _write_unit(grown: GrowingLibrary, name: str, recs: list[ChunkRecord], lanes: Sequence[Embedder],
                whole: BibleText, done: set[str], *, batch: int, cancel: threading.Event | None) -> None:
    """Embed one book (its chunks and verses) on ``lanes``, then write it all in one transaction."""
    embedder = lanes[0]
    parts = list(embed_batches(embedder, recs, batch=batch, cancel=cancel, verses=whole.verses, lanes=lanes))
    keys = [k for k in whole.verses if k[0] == name]
    dims = int(embedder.dims)
    vectors = [v for _, v in embed_in_lanes(lanes, ((i, [whole.verses[k] for k in keys[i: i + batch]])
                                                     for i in range(0, len(keys), batch)))]
    if cancel is not None and cancel.is_set():
        raise BuildCancelled("the build was cancelled")
    grown.write_book(name, parts, keys, np.concatenate(vectors) if vectors else np.zeros((0, dims), np.float32),
                     scholars_of(recs), done, SOURCE_TYPES)


__all__ = ["GrowReport", "NotGrowing", "build_order", "grow_database", "units"]

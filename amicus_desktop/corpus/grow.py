"""Building a library book by book, resumable: ``build-db --resume``. No Qt.

The library appears at once, holding the text of all 66 books (WEB and KJV, their word indexes and
Strong's tags) and the app's help texts, marked ``db_meta.build_state = growing``; then each book's study
material and verse vectors are embedded and written **in one transaction per book**, so a reader (the
window, ``query``, ``serve``) only ever sees whole books, and a crash, SIGKILL or full disk loses at most
the book in progress. ``--resume`` starts again after the last book written: nothing is embedded twice.

While it grows the library is in WAL mode with a marker file beside it (``scripture.db-growing``): readers
open it with SQLite's own locking and see the last committed book (:func:`~amicus_desktop.store.sqlite.
connect_readonly`). When the last book is in, the marker and ``build_state`` go, the file returns to a
rollback journal and gets the two-stage search file if it is big enough (the same rule as ``build-db``).

Books go in a useful order: the demo's two first (the first answers within minutes), then the New Testament,
then the Old. A lexicon entry goes with the first book that uses its number; what belongs to no book (the
entries no verse uses) comes last.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import re
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import apsw
import numpy as np

from .. import __version__
from ..core.books import BOOKS, BY_ID, Book
from ..core.query import SOURCE_TYPES
from ..embedding.base import Embedder, embed_documents
from ..store import codes
from ..store.fts import FTS_TABLE
from ..store.schema import BUILD_STATE, GROWING, VEC_FILTER_COLUMNS
from ..store.sqlite import connect, growing_marker
from ..store.verse_tables import VERSE_EMBEDDINGS, VERSE_KEYS
from ..store.writer import ChunkRecord, ScriptureWriter, add_two_stage, insert_chunks
from .build import BuildCancelled, BuildProgress, collect_chunks, embed_batches
from .library import Library, describe_sources
from .sources.common import DEMO_BOOKS, BibleText, Scope, scholars_of
from .sources.faq import faq_chunks
from .verse_index import Cancelled, load_translations, write_verse_search

_NUMBER = re.compile(r"\b([GH]\d+)")
REST = "the rest"  # the unit of what belongs to no book


class NotGrowing(ValueError):
    """``--resume`` was pointed at a library it did not start (a finished one, or someone else's)."""


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
) -> GrowReport:
    """Build ``out`` for ``books`` (``None``: all 66) book by book, or continue the build that started it."""
    t0 = time.monotonic()
    out = Path(out)
    scope = Scope.of(books)
    library = library or Library()
    whole = BibleText.whole(library)
    if not out.exists():
        _start(out, embedder, library, whole, batch=batch)
    con = _open(out, str(embedder.model_id), int(embedder.dims))
    try:
        have = {str(r[0]) for r in con.execute("SELECT chunk_id FROM chunk_text")}
        done = set(_meta(con).get("corpus_books", "").split(",")) - {""}
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
            if progress:
                elapsed = time.monotonic() - started
                rate = chunks / elapsed if elapsed > 0 and chunks else 0.0
                progress(BuildProgress(f"book {i + 1}/{len(todo)}: {BY_ID[name].name if name in BY_ID else name}",
                                       chunks, total, rate, (total - chunks) / rate if rate else None))
            _write_unit(con, name, recs, embedder, whole, done, batch=batch, cancel=cancel)
            chunks += len(recs)
            if name in BY_ID:
                done.add(name)
                written.append(name)
        complete = scope.ids <= done
        _finish(con, out, complete, "all 66 books" if len(done) == len(BOOKS) else scope.describe())
    finally:
        con.close()
    if progress:
        progress(BuildProgress("done", 1, 1, eta=0.0))
    return GrowReport(out, tuple(written), len(done), chunks, time.monotonic() - t0, complete)


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


def _open(out: Path, model_id: str, dims: int) -> apsw.Connection:
    """The growing library, for writing (marker first: a reader then never takes it for a finished file)."""
    con = connect(out, readonly=False)
    meta = _meta(con)
    if meta.get(BUILD_STATE) != GROWING:
        con.close()
        raise NotGrowing(f"{out} is a finished library, not one 'build-db --resume' is growing: choose "
                         "another --out, or delete it to build it again")
    if meta.get("embedding_model") != model_id or meta.get("embedding_dims") != str(dims):
        con.close()
        raise NotGrowing(f"{out} is being built with {meta.get('embedding_model')} ({meta.get('embedding_dims')} "
                         f"dims), not {model_id} ({dims}): resume it with the same model")
    growing_marker(out).touch()
    con.setbusytimeout(60_000)  # readers hold their locks for one read at a time
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=NORMAL")
    return con


def _meta(con: apsw.Connection) -> dict[str, str]:
    return {str(k): str(v) for k, v in con.execute("SELECT key, value FROM db_meta")}


def _write_unit(con: apsw.Connection, name: str, recs: list[ChunkRecord], embedder: Embedder, whole: BibleText,
                done: set[str], *, batch: int, cancel: threading.Event | None) -> None:
    """Embed one book (its chunks and verses), then write it all in one transaction."""
    parts = [(chunk, vectors) for chunk, vectors in embed_batches(embedder, recs, batch=batch, cancel=cancel,
                                                                   verses=whole.verses)]
    keys = [k for k in whole.verses if k[0] == name]
    verse_vectors = [np.asarray(embed_documents(embedder, [whole.verses[k] for k in keys[i: i + batch]]),
                                dtype=np.float32) for i in range(0, len(keys), batch)]
    if cancel is not None and cancel.is_set():
        raise BuildCancelled("the build was cancelled")
    with con:  # one transaction: the whole book, or nothing of it
        rowid = int(next(iter(con.execute("SELECT coalesce(max(rowid), 0) FROM chunk_text")))[0]) + 1
        for chunk, vectors in parts:
            rowids = list(range(rowid, rowid + len(chunk)))
            insert_chunks(con, rowids, chunk, vectors, dims=vectors.shape[1], filter_columns=VEC_FILTER_COLUMNS)
            con.executemany(f"INSERT INTO {FTS_TABLE}(rowid, text) VALUES (?, ?)",
                            ((r, c.text) for r, c in zip(rowids, chunk, strict=True)))
            rowid += len(chunk)
        if keys:
            position = {(str(b), int(c), int(v)): int(r) for r, b, c, v in con.execute(
                f"SELECT rowid, book_id, chapter_num, verse_num FROM {VERSE_KEYS} WHERE book_id = ?", (name,))}
            vecs = np.concatenate(verse_vectors)
            con.executemany(f"INSERT INTO {VERSE_EMBEDDINGS}(rowid, embedding, book_id) VALUES (?, ?, ?)",
                            ((position[k], v.tobytes(), name) for k, v in zip(keys, vecs, strict=True)
                             if k in position))
        con.executemany("INSERT OR REPLACE INTO scholars VALUES (?, ?, ?, ?)",
                        ((s.scholar_id, s.name, s.tradition, s.work) for s in scholars_of(recs)))
        books = sorted(done | ({name} if name in BY_ID else set()), key=lambda b: BY_ID[b].ordinal)
        counts = dict(con.execute("SELECT source_type, count(*) FROM chunk_text GROUP BY 1"))
        meta = {"corpus_books": ",".join(books),
                "chunk_count": str(sum(counts.values())),
                "chunk_counts": json.dumps({t: int(counts.get(t, 0)) for t in SOURCE_TYPES}),
                "built_at": _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
                "build_id": uuid.uuid4().hex}
        con.executemany("INSERT OR REPLACE INTO db_meta VALUES (?, ?)", meta.items())
    # Into the file itself, so a reader that watches it (the app, serve) reopens and sees the new book.
    con.execute("PRAGMA wal_checkpoint(PASSIVE)")


def _finish(con: apsw.Connection, out: Path, complete: bool, described: str) -> None:
    """The last book in: an ordinary library again (rollback journal, no marker, two-stage file if big)."""
    if not complete:
        return
    with con:
        con.execute(f"DELETE FROM db_meta WHERE key = '{BUILD_STATE}'")
        con.execute("INSERT OR REPLACE INTO db_meta VALUES ('corpus_name', ?)",
                    (f"Amicus public-domain corpus ({described})",))
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with contextlib.suppress(apsw.BusyError):  # a reader still open keeps WAL mode: harmless, the WAL is empty
        con.execute("PRAGMA journal_mode=DELETE")
    growing_marker(out).unlink(missing_ok=True)
    meta = _meta(con)
    if codes.prefer_two_stage(int(meta["chunk_count"]), int(meta["embedding_dims"])):
        con.close()
        add_two_stage(out)


__all__ = ["GrowReport", "NotGrowing", "build_order", "grow_database", "units"]

"""Writing a library one book at a time, each book in one transaction: what ``build-db --resume`` writes with.

:mod:`amicus_desktop.corpus.grow` decides what goes into each book and embeds it; this module owns the file:
it opens a library the builder started (``db_meta.build_state = growing``, made by
:class:`~.writer.ScriptureWriter`), puts it in WAL mode with the marker readers honour
(:func:`~.sqlite.growing_marker`), writes a book's chunks, keyword-index rows, verse vectors, scholars and
counts in one transaction, and makes it an ordinary library again when the last book is in.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import uuid
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

import apsw
import numpy as np

from ..core.books import BY_ID
from ..core.scholars import Scholar
from . import codes, content_id
from .fts import FTS_TABLE
from .schema import BUILD_STATE, GROWING, VEC_FILTER_COLUMNS
from .sqlite import connect, growing_marker
from .verse_tables import VERSE_EMBEDDINGS, VERSE_KEYS
from .writer import ChunkRecord, add_two_stage, insert_chunks


class NotGrowing(ValueError):
    """``--resume`` was pointed at a library it did not start (a finished one, or another model's)."""


class GrowingLibrary:
    """A library being grown book by book; use as a context manager (the connection closes on exit)."""

    def __init__(self, path: Path, model_id: str, dims: int) -> None:
        self.path = Path(path)
        con = connect(self.path, readonly=False)
        meta = _meta(con)
        if meta.get(BUILD_STATE) != GROWING:
            con.close()
            raise NotGrowing(f"{self.path} is a finished library, not one 'build-db --resume' is growing: choose "
                             "another --out, or delete it to build it again")
        if meta.get("embedding_model") != model_id or meta.get("embedding_dims") != str(dims):
            con.close()
            raise NotGrowing(f"{self.path} is being built with {meta.get('embedding_model')} "
                             f"({meta.get('embedding_dims')} dims), not {model_id} ({dims}): "
                             "resume it with the same model")
        growing_marker(self.path).touch()  # before WAL: a reader never takes the file for a finished one
        con.setbusytimeout(60_000)  # readers hold their locks for one read at a time
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=NORMAL")
        self._con: apsw.Connection | None = con

    def __enter__(self) -> GrowingLibrary:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        con, self._con = self._con, None
        if con is not None:
            con.close()

    @property
    def con(self) -> apsw.Connection:
        assert self._con is not None, "the library is closed"
        return self._con

    def books_done(self) -> set[str]:
        """The books whose study material is in (``corpus_books``)."""
        return set(_meta(self.con).get("corpus_books", "").split(",")) - {""}

    def chunk_ids(self) -> set[str]:
        return {str(r[0]) for r in self.con.execute("SELECT chunk_id FROM chunk_text")}

    def write_book(self, name: str, parts: Sequence[tuple[Sequence[ChunkRecord], np.ndarray]],
                   verses: Sequence[tuple[str, int, int]], verse_vectors: np.ndarray, scholars: Sequence[Scholar],
                   books_done: set[str], source_types: Sequence[str]) -> None:
        """One book in one transaction: its chunks (``parts``: records with their vectors), its verses' vectors,
        the scholars it names, and the counts; ``books_done`` with ``name`` becomes ``corpus_books``."""
        con = self.con
        with con:  # the whole book, or nothing of it
            rowid = int(next(iter(con.execute("SELECT coalesce(max(rowid), 0) FROM chunk_text")))[0]) + 1
            for chunk, vectors in parts:
                rowids = list(range(rowid, rowid + len(chunk)))
                insert_chunks(con, rowids, chunk, vectors, dims=vectors.shape[1], filter_columns=VEC_FILTER_COLUMNS)
                con.executemany(f"INSERT INTO {FTS_TABLE}(rowid, text) VALUES (?, ?)",
                                ((r, c.text) for r, c in zip(rowids, chunk, strict=True)))
                rowid += len(chunk)
            if len(verses):
                position = {(str(b), int(c), int(v)): int(r) for r, b, c, v in con.execute(
                    f"SELECT rowid, book_id, chapter_num, verse_num FROM {VERSE_KEYS} WHERE book_id = ?", (name,))}
                con.executemany(f"INSERT INTO {VERSE_EMBEDDINGS}(rowid, embedding, book_id) VALUES (?, ?, ?)",
                                ((position[k], np.asarray(v, dtype=np.float32).tobytes(), name)
                                 for k, v in zip(verses, verse_vectors, strict=True) if k in position))
            con.executemany("INSERT OR REPLACE INTO scholars VALUES (?, ?, ?, ?)",
                            ((s.scholar_id, s.name, s.tradition, s.work) for s in scholars))
            books = sorted(books_done | ({name} if name in BY_ID else set()), key=lambda b: BY_ID[b].ordinal)
            counts = {str(t): int(n) for t, n in con.execute("SELECT source_type, count(*) FROM chunk_text GROUP BY 1")}
            meta = {"corpus_books": ",".join(books),
                    "chunk_count": str(sum(counts.values())),
                    "chunk_counts": json.dumps({t: counts.get(t, 0) for t in source_types}),
                    "built_at": _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
                    "build_id": uuid.uuid4().hex}
            con.executemany("INSERT OR REPLACE INTO db_meta VALUES (?, ?)", meta.items())
            content_id.forget_in(con)  # the content changed: readers compute it until the last book is in
        # Into the file itself, so a reader that watches it (the app, serve) reopens and sees the new book.
        con.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def finish(self, corpus_name: str) -> None:
        """The last book is in: an ordinary library again (rollback journal, no marker, two-stage file if big)."""
        con = self.con
        with con:
            con.execute(f"DELETE FROM db_meta WHERE key = '{BUILD_STATE}'")
            con.execute("INSERT OR REPLACE INTO db_meta VALUES ('corpus_name', ?)", (corpus_name,))
            content_id.store_in(con, self.path)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        with contextlib.suppress(apsw.BusyError):  # a reader still open keeps WAL mode: harmless, the WAL is empty
            con.execute("PRAGMA journal_mode=DELETE")
        growing_marker(self.path).unlink(missing_ok=True)
        meta = _meta(con)
        self.close()
        if codes.prefer_two_stage(int(meta["chunk_count"]), int(meta["embedding_dims"])):
            add_two_stage(self.path)


def _meta(con: apsw.Connection) -> dict[str, str]:
    return {str(k): str(v) for k, v in con.execute("SELECT key, value FROM db_meta")}


__all__ = ["GrowingLibrary", "NotGrowing"]

"""Writing a contract-shaped scripture.db: used by ``build-db``, the benchmark and the tests.

The app itself never writes a scripture.db; this module is for the tools that make one. A build
writes to a temporary file beside the target and renames it into place only when it finished, so an
interrupted build leaves nothing at the target path.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import itertools
import os
import time
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

import apsw
import numpy as np

from ..core.query import NOTE_ID_PREFIX, is_note_id
from ..core.results import ChunkMetadata
from ..core.scholars import Scholar
from ..core.text import echo
from . import codes, content_id, schema
from .fts import FTS_TABLE, create_sql
from .schema import PASSAGE_INDEX_SQL, SCHEMA_VERSION
from .sqlite import connect
from .verse_tables import VerseTablesWriter

__all__ = ["PASSAGE_INDEX_SQL", "SCHEMA_VERSION", "ChunkRecord", "ScriptureWriter", "add_two_stage", "insert_chunks",
           "set_meta"]


@dataclass(frozen=True)
class ChunkRecord:
    """One chunk to store: its text, identity and metadata."""

    chunk_id: str
    source_type: str
    source_id: str
    text: str
    metadata: ChunkMetadata = ChunkMetadata()


class ScriptureWriter:
    """Build a scripture.db atomically.

    ``full_schema=True`` adds what the project's own builder writes: vec0 metadata columns for
    filtered KNN, ``books``/``verses`` for the reader, ``scholars`` (display names, traditions and
    works of the scholar ids the chunks name), the FTS5 index ``chunk_fts`` over chunk text
    (declared by :mod:`amicus_desktop.store.fts`) and an index of ``chunk_metadata`` by book and chapter
    (:data:`PASSAGE_INDEX_SQL`). ``full_schema=False`` writes exactly the contract's minimal schema.
    ``two_stage=True`` also writes the two-stage search file beside it (:mod:`amicus_desktop.store.codes`):
    each vector as it is added, the codes when the build finishes; ``two_stage=False`` removes a stale one.

    Use as a context manager: on a clean exit the file is finished and renamed to ``path``; on an
    exception the temporary file is deleted and ``path`` is left as it was.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        model_id: str,
        dims: int,
        full_schema: bool = True,
        corpus_name: str | None = None,
        page_size: int = 65536,
        extra_meta: dict[str, str] | None = None,
        two_stage: bool = False,
    ) -> None:
        self.path = Path(path)
        self.tmp_path = self.path.with_name(f".{self.path.name}.tmp-{os.getpid()}")
        self.model_id = model_id
        self.dims = int(dims)
        self.full_schema = full_schema
        self.corpus_name = corpus_name
        self.page_size = page_size
        self.extra_meta = dict(extra_meta or {})
        self.two_stage = two_stage
        #: Seconds spent encoding the two-stage codes when the build finished (0 without them).
        self.codes_seconds = 0.0
        self._codes: codes.CodesWriter | None = None
        self.chunk_count = 0
        self._next_rowid = 1
        self._con: apsw.Connection | None = None

    # -- lifecycle -------------------------------------------------------------------------
    def __enter__(self) -> ScriptureWriter:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            self.tmp_path.unlink()
        con = connect(self.tmp_path, readonly=False)
        try:
            # Page size must be set before the first table; 64 KiB pages build and filter faster.
            con.execute(f"PRAGMA page_size={int(self.page_size)}")
            con.execute("PRAGMA journal_mode=OFF")  # a temporary file: a crash discards it anyway
            con.execute("PRAGMA synchronous=OFF")
            con.execute("PRAGMA cache_size=-262144")  # 256 MiB while building
            self._con = con
            self._create_schema()
            con.execute("BEGIN")
            if self.two_stage:
                self._codes = codes.CodesWriter(codes.path_for(self.path), self.dims)
        except BaseException:  # __exit__ is not called when __enter__ fails (a file-size limit left the file)
            self._con = None
            con.close()
            with contextlib.suppress(FileNotFoundError):
                self.tmp_path.unlink()
            raise
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        con = self._con
        self._con = None
        if con is None:
            return
        if exc_type is not None:
            with contextlib.suppress(Exception):
                con.execute("ROLLBACK")
            con.close()
            with contextlib.suppress(FileNotFoundError):
                self.tmp_path.unlink()
            if self._codes is not None:
                self._codes.discard()
            return
        try:
            self._finish(con)
        except BaseException:
            con.close()
            with contextlib.suppress(FileNotFoundError):
                self.tmp_path.unlink()
            if self._codes is not None:
                self._codes.discard()
            raise
        con.close()
        with open(self.tmp_path, "rb") as fh:
            os.fsync(fh.fileno())
        # The two-stage file first: a database never appears without the file made for it. One
        # left from an earlier build would not match the new database: it goes.
        if self._codes is not None:
            self._codes.claim(_header(self.tmp_path))  # the finished file's change counter and size
            self._codes.commit()
        else:
            with contextlib.suppress(FileNotFoundError):
                codes.path_for(self.path).unlink()
        os.replace(self.tmp_path, self.path)

    # -- schema ----------------------------------------------------------------------------
    def _create_schema(self) -> None:
        con = self._con
        assert con is not None
        con.execute(schema.embeddings_sql(self.dims, filter_columns=self.full_schema))
        con.execute(schema.CREATE_CHUNK_TEXT)
        con.execute(schema.CREATE_CHUNK_METADATA)
        con.execute(schema.CREATE_DB_META)
        if self.full_schema:
            con.execute(schema.CREATE_BOOKS)
            con.execute(schema.CREATE_VERSES)
            con.execute(schema.CREATE_SCHOLARS)
            con.execute(create_sql())

    # -- content ---------------------------------------------------------------------------
    def add_books(self, books: Iterable[tuple[str, str, int, int]]) -> None:
        """``(book_id, name, ordinal, chapters)`` rows for the reader."""
        assert self._con is not None and self.full_schema
        self._con.executemany("INSERT OR REPLACE INTO books VALUES (?, ?, ?, ?)", books)

    def add_verses(self, verses: Iterable[tuple[str, int, int, str]]) -> None:
        """``(book_id, chapter_num, verse_num, text)`` rows for the reader."""
        assert self._con is not None and self.full_schema
        self._con.executemany("INSERT OR REPLACE INTO verses VALUES (?, ?, ?, ?)", verses)

    def add_scholars(self, scholars: Iterable[Scholar]) -> None:
        """Rows of the optional ``scholars`` table: who each ``scholar_id`` is."""
        assert self._con is not None and self.full_schema
        self._con.executemany(
            "INSERT OR REPLACE INTO scholars VALUES (?, ?, ?, ?)",
            ((s.scholar_id, s.name, s.tradition, s.work) for s in scholars),
        )

    def verse_tables(self) -> VerseTablesWriter:
        """The optional verse-search tables (:mod:`.verse_tables`), written in this build's transaction."""
        assert self._con is not None and self.full_schema
        return VerseTablesWriter(self._con, self.dims)

    def add_chunks(self, records: Sequence[ChunkRecord], vectors: np.ndarray) -> None:
        """Store chunks with their vectors (one row of ``vectors`` per record, any float dtype)."""
        con = self._con
        assert con is not None
        rowids = list(range(self._next_rowid, self._next_rowid + len(records)))
        vecs = insert_chunks(con, rowids, records, vectors, dims=self.dims,
                             filter_columns=schema.VEC_FILTER_COLUMNS if self.full_schema else ())
        self._next_rowid += len(records)
        if self._codes is not None:
            self._codes.add(np.asarray(rowids, dtype=np.int64), vecs)
        self.chunk_count += len(records)

    def _finish(self, con: apsw.Connection) -> None:
        meta = {
            "schema_version": SCHEMA_VERSION,
            "embedding_model": self.model_id,
            "embedding_dims": str(self.dims),
            "distance_metric": "cosine",
            "built_at": _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
            "chunk_count": str(self.chunk_count),
            "build_id": uuid.uuid4().hex,  # tells two builds apart when all else is equal (store/codes.py)
        }
        if self.corpus_name:
            meta["corpus_name"] = self.corpus_name
        meta.update(self.extra_meta)
        con.executemany("INSERT OR REPLACE INTO db_meta VALUES (?, ?)", meta.items())
        content_id.store_in(con, self.tmp_path)  # once, here: readers take it instead of hashing every chunk
        if self._codes is not None:
            self.codes_seconds = self._codes.finish(meta)
        if self.full_schema:
            con.execute(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('rebuild')")
            con.execute(PASSAGE_INDEX_SQL)
        con.execute("COMMIT")
        con.execute("PRAGMA journal_mode=DELETE")


def insert_chunks(con: apsw.Connection, rowids: Sequence[int], records: Sequence[ChunkRecord],
                  vectors: np.ndarray, *, dims: int, filter_columns: Sequence[str]) -> np.ndarray:
    """Insert chunks as rows ``rowids`` of ``chunk_text``, ``chunk_metadata`` and ``embeddings``.

    ``filter_columns`` are the vec0 metadata columns the ``embeddings`` table declares (a subset of
    :data:`~.schema.VEC_FILTER_COLUMNS`; empty for the contract's minimal schema). Returns the vectors as float32.
    The one place chunk rows are written: the builder and ``ingest`` (:mod:`.update`) both call it.
    """
    reserved = next((r.chunk_id for r in records if is_note_id(r.chunk_id)), None)
    if reserved is not None:
        raise ValueError(f"the chunk id {echo(reserved, 60)!r} is in the notes' id space ('{NOTE_ID_PREFIX}…'): "
                         "a library chunk cannot take a reader's note's identity")
    vecs = np.ascontiguousarray(vectors, dtype=np.float32)
    if vecs.ndim != 2 or vecs.shape != (len(records), dims) or len(rowids) != len(records):
        raise ValueError(f"vectors must be shaped ({len(records)}, {dims}), got {vecs.shape}")
    unknown = set(filter_columns) - set(schema.VEC_FILTER_COLUMNS)
    if unknown:
        raise ValueError(f"unknown embeddings metadata column(s): {', '.join(sorted(unknown))}")
    text_rows = []
    meta_rows = []
    vec_rows: list[tuple[object, ...]] = []
    for rowid, rec, vec in zip(rowids, records, vecs, strict=True):
        m = rec.metadata
        text_rows.append((rowid, rec.chunk_id, rec.source_type, rec.source_id, rec.text))
        meta_rows.append(
            (rowid, m.scholar_id, m.tradition, m.book_id, m.chapter_num,
             m.verse_start, m.verse_end, m.panel_type)
        )
        # vec0 metadata columns cannot hold NULL: absent values are '' / 0.
        values = {"source_type": rec.source_type, "scholar_id": m.scholar_id or "", "tradition": m.tradition or "",
                  "book_id": m.book_id or "", "chapter_num": m.chapter_num or 0}
        vec_rows.append((rowid, vec.tobytes(), *(values[c] for c in filter_columns)))
    con.executemany("INSERT INTO chunk_text VALUES (?, ?, ?, ?, ?)", text_rows)
    con.executemany("INSERT INTO chunk_metadata VALUES (?, ?, ?, ?, ?, ?, ?, ?)", meta_rows)
    columns = ", ".join(("rowid", "embedding", *filter_columns))
    marks = ", ".join("?" * (2 + len(filter_columns)))
    con.executemany(f"INSERT INTO embeddings({columns}) VALUES ({marks})", vec_rows)
    return vecs


def add_two_stage(db: str | Path) -> float:
    """Write the two-stage search file beside the finished database ``db``, which is only read.

    For a database built without it: the vectors are read back out of ``embeddings`` (slow for
    big corpora, but no re-embedding). The file appears only when complete. Returns the seconds.
    """
    t0 = time.perf_counter()
    db = Path(db)
    con = connect(db, readonly=True)
    try:
        meta = {str(k): str(v) for k, v in con.execute("SELECT key, value FROM db_meta")}
        dims = int(meta["embedding_dims"])
        writer = codes.CodesWriter(codes.path_for(db), dims)
        try:
            # No ORDER BY: on vec0 it would sort every vector; the file keeps each row's rowid.
            cursor = con.execute("SELECT rowid, embedding FROM embeddings")
            while batch := list(itertools.islice(cursor, codes.BLOCK_ROWS)):
                bad = [r for r, v in batch if not isinstance(v, bytes) or len(v) != dims * 4]
                if bad:
                    raise ValueError(f"{db.name}: row {bad[0]} does not hold {dims} float32 values")
                rowids = np.fromiter((r for r, _ in batch), dtype=np.int64, count=len(batch))
                writer.add(rowids, np.frombuffer(b"".join(v for _, v in batch), dtype="<f4").reshape(-1, dims))
            if writer.rows != int(meta.get("chunk_count", writer.rows)):
                raise ValueError(f"{db.name}: {writer.rows} vectors, but db_meta says {meta['chunk_count']} chunks")
            writer.finish(meta)
            writer.claim(_header(db))
            writer.commit()
        except BaseException:
            writer.discard()
            raise
    finally:
        con.close()
    return time.perf_counter() - t0


def set_meta(db: str | Path, key: str, value: str) -> str | None:
    """Set ``db_meta[key]`` of a database a tool owns (the benchmark's own copies); returns the old value.

    The vectors stay as they are, so a two-stage file made for the database is carried over
    (:func:`~.codes.carry_claim`). Never for a user's scripture.db: the app does not write to it.
    """
    db = Path(db)
    before = _header(db)
    con = connect(db, readonly=False)
    try:
        old = con.execute("SELECT value FROM db_meta WHERE key = ?", (key,)).fetchone()
        con.execute("INSERT OR REPLACE INTO db_meta VALUES (?, ?)", (key, value))
    finally:
        con.close()
    codes.carry_claim(codes.path_for(db), before, _header(db))
    return None if old is None else str(old[0])


def _header(db: Path) -> bytes:
    with open(db, "rb") as fh:
        return fh.read(100)

"""Adding and replacing chunks of a library a tool owns, atomically: what ``ingest`` writes with.

The app never writes a scripture.db; ``ingest`` (:mod:`amicus_desktop.corpus.ingest`) does, to a library
it was pointed at. :class:`LibraryUpdate` never changes that file in place: it copies it to a temporary
file beside it (or, for a new library, has :class:`~.writer.ScriptureWriter` make an empty one there),
changes the copy, and only when everything is written renames it over the original — after writing the
two-stage search file for the changed copy, when the library has one or is now big enough to want one.
Any failure before that (an exception, a full disk, Ctrl-C or a signal turned into an exception) deletes
the temporary files and leaves the library byte-identical, with every table it had, known or not.

Chunks are rewritten with :func:`~.writer.insert_chunks`, the builder's own insert. A replaced chunk is
deleted and inserted again under a new rowid; the external-content keyword index is rebuilt from
``chunk_text`` at the end. Each chunk ``ingest`` wrote keeps two hashes in the optional table
``chunk_hashes``: of everything stored (is the chunk unchanged?) and of the text its vector was made
from (can the vector be kept?).
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import errno
import json
import os
import shutil
import time
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

import apsw
import numpy as np

from ..core.books import BY_ID
from ..core.results import ChunkMetadata
from ..core.scholars import Scholar
from . import codes, content_id, schema
from .fts import FTS_TABLE
from .sqlite import connect
from .writer import ChunkRecord, ScriptureWriter, add_two_stage, insert_chunks

#: The temporary copy's name beside ``scripture.db``: ``.scripture.db.ingest-<pid>``.
TMP_INFIX = ".ingest-"
HASHES_SQL = """CREATE TABLE IF NOT EXISTS chunk_hashes (
    chunk_id TEXT PRIMARY KEY, content TEXT NOT NULL, embedded TEXT NOT NULL) WITHOUT ROWID"""


class LibraryChanged(RuntimeError):
    """The library was changed by something else while the update was being written; nothing was replaced."""


@dataclass(frozen=True)
class Hashes:
    """What ``chunk_hashes`` keeps of a chunk: the hash of all it stores and of the text embedded."""

    content: str
    embedded: str


@dataclass(frozen=True)
class StoredChunk:
    """A chunk the library already holds, as stored, with its hashes when ``ingest`` wrote it."""

    rowid: int
    record: ChunkRecord
    hashes: Hashes | None


@dataclass(frozen=True)
class NewLibrary:
    """What a library made from nothing records: its model and name."""

    model_id: str
    dims: int
    corpus_name: str | None = None
    extra_meta: Mapping[str, str] | None = None


def peek(path: str | Path, chunk_ids: Sequence[str]) -> tuple[dict[str, StoredChunk], dict[str, Scholar]]:
    """What an existing library holds of ``chunk_ids``, and its ``scholars`` rows, read without a copy:
    ``ingest`` asks first, so that a run with nothing to change copies and writes nothing."""
    con = connect(path, readonly=True)
    try:
        tables = {str(r[0]) for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        return (stored_chunks(con, chunk_ids, hashes="chunk_hashes" in tables),
                scholar_rows(con) if "scholars" in tables else {})
    finally:
        con.close()


def stored_chunks(con: apsw.Connection, chunk_ids: Sequence[str], *, hashes: bool) -> dict[str, StoredChunk]:
    """The chunks among ``chunk_ids`` that ``con``'s library holds, by id (with ``chunk_hashes`` when asked)."""
    extra, join = ("h.content, h.embedded", "LEFT JOIN chunk_hashes h ON h.chunk_id = t.chunk_id") if hashes \
        else ("NULL, NULL", "")
    rows = con.execute(
        f"SELECT {schema.CHUNK_SELECT}, {extra} FROM {schema.CHUNK_FROM} {join} "
        "WHERE t.chunk_id IN (SELECT value FROM json_each(?))", (json.dumps(list(chunk_ids)),))
    out = {}
    for rowid, cid, stype, sid, text, *meta, content, embedded in rows:
        values = [_opt(v) for v in meta]
        metadata = ChunkMetadata(values[0], values[1], values[2], _int(meta[3]), _int(meta[4]), _int(meta[5]),
                                 values[6])
        record = ChunkRecord(str(cid), str(stype), str(sid), str(text), metadata)
        pair = Hashes(str(content), str(embedded)) if content is not None and embedded is not None else None
        out[str(cid)] = StoredChunk(int(rowid), record, pair)
    return out


def scholar_rows(con: apsw.Connection) -> dict[str, Scholar]:
    """The rows of ``con``'s ``scholars`` table, by id (the table must exist)."""
    return {str(sid): Scholar(str(sid), str(name), _opt(trad), _opt(work))
            for sid, name, trad, work in con.execute("SELECT scholar_id, name, tradition, work FROM scholars")
            if sid and name}


def tmp_path_for(path: Path) -> Path:
    return path.with_name(f".{path.name}{TMP_INFIX}{os.getpid()}")


def sweep_stale(path: Path) -> list[Path]:
    """Delete temporary copies beside ``path`` left by an update whose process is gone (SIGKILL, power
    loss): nothing else can clean them. Returns what was removed."""
    removed = []
    prefix = f".{path.name}{TMP_INFIX}"
    with contextlib.suppress(OSError):
        for p in path.parent.iterdir():
            pid = p.name[len(prefix):].split(".", 1)[0] if p.name.startswith(prefix) else ""
            if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
                with contextlib.suppress(OSError):
                    p.unlink()
                    removed.append(p)
    return removed


@contextlib.contextmanager
def _os_errors() -> Iterator[None]:
    """SQLite's own write failures (a full disk, a write refused) as the ``OSError`` a file write raises."""
    try:
        yield
    except apsw.FullError as exc:
        raise OSError(errno.ENOSPC, f"the disk is full ({exc})") from exc
    except (apsw.IOError, apsw.CantOpenError, apsw.ReadOnlyError) as exc:
        raise OSError(errno.EIO, f"a write failed ({exc})") from exc


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class LibraryUpdate:
    """Change the library at ``path`` (``new``: make it, when absent) as one atomic replacement.

    Use as a context manager; read with :meth:`stored` and :meth:`vectors`, write with :meth:`put`,
    :meth:`add_scholars` and :meth:`add_books`. A clean exit finishes the copy and renames it into place.
    """

    def __init__(self, path: str | Path, new: NewLibrary | None = None) -> None:
        self.path = Path(path)
        self.tmp_path = tmp_path_for(self.path)
        self.new = new
        self.model_id = ""
        self.dims = 0
        self.filter_columns: tuple[str, ...] = ()
        self.changed = False
        self._con: apsw.Connection | None = None
        self._next_rowid = 1
        self._stat: tuple[int, int, int] | None = None
        self._meta: dict[str, str] = {}
        self._tables: set[str] = set()
        #: seconds spent copying the library, rebuilding its keyword index and making its two-stage file
        self.seconds: dict[str, float] = {}

    # -- lifecycle -------------------------------------------------------------------------
    def __enter__(self) -> LibraryUpdate:
        try:
            with _os_errors():
                self._open()
        except BaseException:
            self._discard()
            raise
        return self

    def _open(self) -> None:
        t0 = time.perf_counter()
        if self.path.exists():
            self._stat = _stat(self.path)
            shutil.copyfile(self.path, self.tmp_path)
        else:
            if self.new is None:
                raise FileNotFoundError(f"no library at {self.path}")
            n = self.new
            with ScriptureWriter(self.tmp_path, model_id=n.model_id, dims=n.dims, corpus_name=n.corpus_name,
                                 extra_meta=dict(n.extra_meta or {})):
                pass
        con = connect(self.tmp_path, readonly=False)
        self._con = con
        con.execute("PRAGMA journal_mode=DELETE")  # out of WAL, if the library was in it
        con.execute("PRAGMA journal_mode=OFF")     # a temporary copy: a crash discards it anyway
        con.execute("PRAGMA synchronous=OFF")
        self._read_shape(con)
        con.execute("BEGIN")
        con.execute(HASHES_SQL)
        self.seconds["copy"] = time.perf_counter() - t0

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if exc_type is not None:
            self._discard()
            return
        try:
            with _os_errors():
                self._finish()
        except BaseException:
            self._discard()
            raise

    def _discard(self) -> None:
        con, self._con = self._con, None
        if con is not None:
            with contextlib.suppress(Exception):
                con.execute("ROLLBACK")
            con.close()
        for p in (self.tmp_path, codes.path_for(self.tmp_path)):
            with contextlib.suppress(FileNotFoundError):
                p.unlink()

    def _read_shape(self, con: apsw.Connection) -> None:
        self._meta = {str(k): str(v) for k, v in con.execute("SELECT key, value FROM db_meta")}
        self.model_id = self._meta["embedding_model"]
        self.dims = int(self._meta["embedding_dims"])
        columns = [str(r[1]) for r in con.execute("PRAGMA table_info(embeddings)")]
        other = [c for c in columns if c not in ("rowid", schema.VECTOR_COLUMN, *schema.VEC_FILTER_COLUMNS)]
        if other:
            raise ValueError(f"{self.path.name}: its embeddings table declares column(s) {', '.join(other)}, "
                             "which ingest does not know how to fill")
        self.filter_columns = tuple(c for c in schema.VEC_FILTER_COLUMNS if c in columns)
        self._next_rowid = int(con.execute("SELECT coalesce(max(rowid), 0) FROM chunk_text").get or 0) + 1
        self._tables = {str(r[0]) for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    # -- reading ---------------------------------------------------------------------------
    @property
    def con(self) -> apsw.Connection:
        assert self._con is not None, "use LibraryUpdate as a context manager"
        return self._con

    def stored(self, chunk_ids: Sequence[str]) -> dict[str, StoredChunk]:
        """The chunks among ``chunk_ids`` the library holds, by id."""
        return stored_chunks(self.con, chunk_ids, hashes=True)

    def vectors(self, rowids: Sequence[int]) -> np.ndarray:
        """The stored vectors of ``rowids``, in order (``(n, dims)`` float32)."""
        out = np.empty((len(rowids), self.dims), dtype=np.float32)
        for i, rowid in enumerate(rowids):
            blob = self.con.execute("SELECT embedding FROM embeddings WHERE rowid = ?", (int(rowid),)).get
            if not isinstance(blob, bytes) or len(blob) != self.dims * 4:
                raise ValueError(f"{self.path.name}: row {rowid} does not hold {self.dims} float32 values")
            out[i] = np.frombuffer(blob, dtype="<f4")
        return out

    # -- writing ---------------------------------------------------------------------------
    def put(self, records: Sequence[ChunkRecord], vectors: np.ndarray, hashes: Sequence[Hashes],
            replacing: Iterable[int] = ()) -> None:
        """Store ``records`` with their vectors and hashes, after deleting the rows ``replacing``."""
        with _os_errors():
            self._put(records, vectors, hashes, [int(r) for r in replacing])

    def _put(self, records: Sequence[ChunkRecord], vectors: np.ndarray, hashes: Sequence[Hashes],
             replacing: Sequence[int]) -> None:
        con = self.con
        gone = [(r,) for r in replacing]
        if gone:
            con.executemany("DELETE FROM embeddings WHERE rowid = ?", gone)
            con.executemany("DELETE FROM chunk_metadata WHERE rowid = ?", gone)
            con.executemany("DELETE FROM chunk_text WHERE rowid = ?", gone)
        rowids = list(range(self._next_rowid, self._next_rowid + len(records)))
        insert_chunks(con, rowids, records, vectors, dims=self.dims, filter_columns=self.filter_columns)
        self._next_rowid += len(records)
        con.executemany("INSERT OR REPLACE INTO chunk_hashes VALUES (?, ?, ?)",
                        [(r.chunk_id, h.content, h.embedded) for r, h in zip(records, hashes, strict=True)])
        self.changed = self.changed or bool(records or gone)

    def verse_texts(self, chapters: Iterable[tuple[str, int]]) -> dict[tuple[str, int, int], str]:
        """The library's Bible text of ``chapters`` (``(book_id, chapter)``): what a commentary chunk is embedded
        with (:func:`amicus_desktop.corpus.build.embedding_text`); empty when the library holds no verses."""
        if "verses" not in self._tables:
            return {}
        out: dict[tuple[str, int, int], str] = {}
        for book, chapter in sorted(set(chapters)):
            for verse, text in self.con.execute(
                "SELECT verse_num, text FROM verses WHERE book_id = ? AND chapter_num = ?", (book, chapter)
            ):
                out[(book, chapter, int(verse))] = str(text)
        return out

    def scholar_rows(self) -> dict[str, Scholar]:
        """The library's own ``scholars`` rows (empty without the table)."""
        return scholar_rows(self.con) if "scholars" in self._tables else {}

    def add_scholars(self, scholars: Iterable[Scholar]) -> None:
        """Insert or replace rows of the ``scholars`` table (created when the library has none)."""
        rows = [(s.scholar_id, s.name, s.tradition, s.work) for s in scholars]
        if not rows:
            return
        with _os_errors():
            if "scholars" not in self._tables:
                self.con.execute(schema.CREATE_SCHOLARS)
            self.con.executemany(
                "INSERT OR REPLACE INTO scholars (scholar_id, name, tradition, work) VALUES (?, ?, ?, ?)", rows)
        self._tables.add("scholars")
        self.changed = True

    def add_books(self, book_ids: Iterable[str]) -> None:
        """Rows of the ``books`` table for books it lacks (only when the library has the table)."""
        if "books" not in self._tables:
            return
        rows = [(b.book_id, b.name, b.ordinal, b.chapters) for b in (BY_ID[i] for i in sorted(set(book_ids)))]
        with _os_errors():
            self.con.executemany(
                "INSERT OR IGNORE INTO books (book_id, name, ordinal, chapters) VALUES (?, ?, ?, ?)", rows)

    # -- finishing -------------------------------------------------------------------------
    def _finish(self) -> None:
        con = self.con
        if not self.changed:  # nothing to write: the library stays exactly as it was
            self._discard()
            return
        counts = {str(t): int(n) for t, n in con.execute(
            "SELECT source_type, count(*) FROM chunk_text GROUP BY source_type")}
        meta = {
            "chunk_count": str(sum(counts.values())),
            # built_at and build_id tie a two-stage file to this version of the library (store/codes.py)
            "built_at": _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
            "build_id": uuid.uuid4().hex,
        }
        if "chunk_counts" in self._meta:
            meta["chunk_counts"] = json.dumps(dict(sorted(counts.items())))
        con.executemany("INSERT OR REPLACE INTO db_meta VALUES (?, ?)", meta.items())
        content_id.store_in(con, self.tmp_path)  # the copy's own (the old library's would be wrong)
        t0 = time.perf_counter()
        # An external-content index is not updated when chunk_text changes: it is rebuilt from it (the
        # builder's, or any other index over chunk_text a library carries).
        for (name,) in con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND lower(sql) LIKE '%using fts5%' "
                "AND (name = ? OR lower(sql) LIKE '%content%chunk_text%')", (FTS_TABLE,)).fetchall():
            con.execute(f'INSERT INTO "{name}"("{name}") VALUES (\'rebuild\')')
        con.execute("COMMIT")
        con.close()
        self._con = None
        with open(self.tmp_path, "rb") as fh:
            os.fsync(fh.fileno())
        self.seconds["index"] = time.perf_counter() - t0
        target_codes = codes.path_for(self.path)
        rows = int(meta["chunk_count"])
        if codes.prefer_two_stage(rows, self.dims) or target_codes.exists():
            # one made for the old library would not match the new one: the file is made again
            self.seconds["two_stage"] = add_two_stage(self.tmp_path)
        if _stat(self.path) != self._stat:
            raise LibraryChanged(f"{self.path.name} was changed by another program during the update; "
                                 "nothing was replaced. Run ingest again.")
        # The two-stage file first, as the builder does: the library never appears without the file made
        # for it (a crash between the two renames leaves a file the old library's search does not trust).
        made = codes.path_for(self.tmp_path)
        if made.exists():
            os.replace(made, target_codes)
        else:
            with contextlib.suppress(FileNotFoundError):
                target_codes.unlink()
        os.replace(self.tmp_path, self.path)


def _stat(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return st.st_ino, st.st_mtime_ns, st.st_size


def _opt(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None

"""Verse search's vectors kept in a file of the app's cache, mapped a block at a time for each product.

Verse search scores every verse, commentary note and lexicon entry by meaning for each question
(:mod:`amicus_desktop.verses.memory`). Holding those vectors in memory cost the app 95 MB at the whole Bible
(62k × 384 float32), the most of what its start-up memory grew by over the demo's. They are written once per
library state to one file in the cache folder (float32: the library's own values) and each product maps the file
a block of 2,048 rows (3 MB) at a time and multiplies the mapped rows in place: the operating system's page cache
keeps the file (as it keeps the library's own vectors for chunk search), the process holds one block at once, and
a product costs what it cost in memory (a copy into a buffer doubled it; float16 rows cost 7× in their
conversion: docs/PERFORMANCE.md, "Verse search's vectors out of memory").

The file is named after the library's path and state (size, time) and the rows it holds, written to a temporary
file and renamed into place (a reader never sees half of one); the files of the library's earlier states are
removed. Layout: a header of six little-endian int64 (magic, version, dims and the three row counts), the
verse, note and entry matrices (float32, row-major), then the verses' rowids (int64). No Qt.
"""

from __future__ import annotations

import contextlib
import hashlib
import mmap
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np
import numpy.typing as npt

from .. import paths
from ..core.query import Filters
from ..core.vectors import Hits, MatrixVectors

FOLDER = "verse-vectors"
_MAGIC = 0x414D564543463332  # "AMVECF32"
_VERSION = 2
_HEADER = 6 * 8
_ITEM = 4  # float32
#: rows mapped at once: 2,048 × 384 float32 = 3 MB
BLOCK_ROWS = 2048

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class FileMatrix:
    """``rows × dims`` float32 values at ``offset`` in ``file`` (held open: the file removed or replaced by
    another instance of the app meanwhile is still read whole)."""

    file: BinaryIO
    offset: int
    rows: int
    dims: int

    def products(self, vector: np.ndarray, block: int = BLOCK_ROWS) -> npt.NDArray[np.float32]:
        """``matrix @ vector`` in float32, ``block`` rows mapped at a time."""
        q = np.ascontiguousarray(vector, dtype=np.float32)
        out = np.empty(self.rows, dtype=np.float32)
        self._each_block(block, lambda start, rows: out.__setitem__(slice(start, start + len(rows)), rows @ q))
        return out

    def take(self, rows: npt.NDArray[np.intp]) -> np.ndarray:
        """The rows ``rows`` (in that order), copied out of the file."""
        out = np.empty((len(rows), self.dims), dtype=np.float32)
        wanted = np.asarray(rows, dtype=np.intp)

        def pick(start: int, block: np.ndarray) -> None:
            inside = (wanted >= start) & (wanted < start + len(block))
            out[inside] = block[wanted[inside] - start]

        self._each_block(BLOCK_ROWS, pick)
        return out

    def _each_block(self, block: int, use: Callable[[int, np.ndarray], None]) -> None:
        """``use(first row, rows)`` for each block, the rows a read-only view of the mapped file (valid only
        during the call: the block is unmapped after it)."""
        row = _ITEM * self.dims
        fd = self.file.fileno()
        if os.fstat(fd).st_size < self.offset + row * self.rows:  # never map past the end (SIGBUS)
            raise OSError(f"{self.file.name} ends early")
        for start in range(0, self.rows, block):
            count = min(block, self.rows - start)
            at = self.offset + start * row
            base = at - at % mmap.ALLOCATIONGRANULARITY
            mapped = _map(fd, at - base + count * row, base)
            try:
                view = np.frombuffer(mapped, dtype="<f4", count=count * self.dims, offset=at - base)
                use(start, view.reshape(count, self.dims))
                del view
            finally:
                mapped.close()


def _map(fd: int, length: int, offset: int) -> mmap.mmap:
    """``length`` bytes of ``fd`` from ``offset``, read-only (its pages read in at once where Linux can)."""
    populate = getattr(mmap, "MAP_POPULATE", 0)
    if populate:
        return mmap.mmap(fd, length, flags=mmap.MAP_SHARED | populate, prot=mmap.PROT_READ, offset=offset)
    return mmap.mmap(fd, length, access=mmap.ACCESS_READ, offset=offset)


class FileVectors:
    """A :class:`~amicus_desktop.core.vectors.VectorIndex` over a :class:`FileMatrix` (row ``i`` is id
    ``ids[i]``): :meth:`similarities` reads every row a block at a time; the other questions read the rows
    they name into a :class:`~amicus_desktop.core.vectors.MatrixVectors`."""

    filter_kinds: frozenset[str] = frozenset()

    def __init__(self, ids: Ints, matrix: FileMatrix) -> None:
        self.ids = np.asarray(ids, dtype=np.int64)
        self.matrix = matrix

    def __len__(self) -> int:
        return len(self.ids)

    def similarities(self, vector: np.ndarray) -> npt.NDArray[np.float32]:
        return self.matrix.products(vector)

    def _in_memory(self, ids: Sequence[int] | None = None) -> MatrixVectors:
        if ids is None:
            rows = np.arange(len(self.ids), dtype=np.intp)
        else:
            rows = np.flatnonzero(np.isin(self.ids, np.asarray(list(ids), dtype=np.int64))).astype(np.intp)
        return MatrixVectors(self.ids[rows], self.matrix.take(rows))

    def nearest(self, vector: np.ndarray, n: int, filters: Filters = Filters()) -> Hits:
        return self._in_memory().nearest(vector, n, filters)

    def nearest_among(self, vector: np.ndarray, ids: Sequence[int], n: int) -> Hits:
        return self._in_memory(ids).nearest_among(vector, ids, n)

    def distances(self, vector: np.ndarray, ids: Sequence[int]) -> dict[int, float]:
        return self._in_memory(ids).distances(vector, ids)


@dataclass(frozen=True)
class VectorFile:
    """One library's file: the verses' rowids and the three matrices."""

    verse_rowids: Ints
    verses: FileMatrix
    notes: FileMatrix
    entries: FileMatrix


#: the verses that have a vector, a block at a time: ``(rowids, float32 rows)``
VerseBlocks = Callable[[], Iterable[tuple[Ints, np.ndarray]]]
#: the chunk vectors of the given rowids, in that order (zeros for a missing one)
ChunkRows = Callable[[Ints], np.ndarray]


def vector_file(db: Path, dims: int, note_rowids: Ints, entry_rowids: Ints, verses: VerseBlocks,
                chunks: ChunkRows) -> VectorFile:
    """The file of ``db``'s vectors in the cache, written now when there is none for this state of ``db``.
    ``OSError`` when the cache cannot be written or read."""
    st = os.stat(db)
    path_key = hashlib.sha256(str(db.resolve()).encode("utf-8")).hexdigest()[:16]
    rows_key = hashlib.sha256(note_rowids.tobytes() + b"|" + entry_rowids.tobytes()).hexdigest()
    state = f"{st.st_size}|{st.st_mtime_ns}|{dims}|{rows_key}|{_VERSION}"
    where = paths.cache_dir() / FOLDER
    target = where / f"{path_key}-{hashlib.sha256(state.encode()).hexdigest()[:16]}.f32"
    if target.exists():
        try:
            return _open(target, dims, len(note_rowids), len(entry_rowids))
        except OSError:  # damaged (or not ours): written again below
            pass
    _write(target, dims, note_rowids, entry_rowids, verses, chunks)
    for old in where.glob(f"{path_key}-*.f32"):  # the files of the library's earlier states
        if old != target:
            with contextlib.suppress(OSError):
                old.unlink()
    return _open(target, dims, len(note_rowids), len(entry_rowids))


def _write(target: Path, dims: int, note_rowids: Ints, entry_rowids: Ints, verses: VerseBlocks,
           chunks: ChunkRows) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.parent / f".{target.name}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as fh:
            fh.write(bytes(_HEADER))
            rowids: list[Ints] = []
            for ids, rows in verses():
                fh.write(np.ascontiguousarray(rows, dtype="<f4").tobytes())
                rowids.append(np.asarray(ids, dtype="<i8"))
            for wanted in (note_rowids, entry_rowids):
                for start in range(0, len(wanted), BLOCK_ROWS):
                    fh.write(np.ascontiguousarray(chunks(wanted[start: start + BLOCK_ROWS]), dtype="<f4").tobytes())
            verse_rowids = np.concatenate(rowids) if rowids else np.zeros(0, dtype="<i8")
            fh.write(verse_rowids.astype("<i8").tobytes())
            fh.seek(0)
            header = [_MAGIC, _VERSION, dims, len(verse_rowids), len(note_rowids), len(entry_rowids)]
            fh.write(np.asarray(header, dtype="<i8").tobytes())
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def _open(path: Path, dims: int, notes: int, entries: int) -> VectorFile:
    row = _ITEM * dims
    fh = open(path, "rb")  # held open by the matrices for as long as they are used
    try:
        header = np.frombuffer(fh.read(_HEADER), dtype="<i8")
        if len(header) != 6 or [int(x) for x in header[:3]] != [_MAGIC, _VERSION, dims] or (
                int(header[4]), int(header[5])) != (notes, entries):
            raise OSError(f"{path.name} is not this library's verse vectors")
        n = int(header[3])
        if os.fstat(fh.fileno()).st_size != _HEADER + row * (n + notes + entries) + 8 * n:
            raise OSError(f"{path.name} has the wrong size")
        fh.seek(_HEADER + row * (n + notes + entries))
        rowids = np.frombuffer(fh.read(8 * n), dtype="<i8").astype(np.int64)
    except BaseException:
        fh.close()
        raise
    return VectorFile(rowids, FileMatrix(fh, _HEADER, n, dims), FileMatrix(fh, _HEADER + row * n, notes, dims),
                      FileMatrix(fh, _HEADER + row * (n + notes), entries, dims))

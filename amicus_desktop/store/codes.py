"""The two-stage search file: SimHash codes and a float copy of every vector, beside scripture.db.

``build-db`` writes ``scripture.db.two-stage`` next to ``scripture.db`` when the corpus is large
enough for the two-stage search (:func:`prefer_two_stage`); the app only reads it
(:mod:`amicus_desktop.store.twostage`). scripture.db itself is unchanged, so the contract's
schema holds as before and a database without the file (or with a file that does not match it) is
searched exactly by sqlite-vec. :func:`write_for_database` makes the file for any finished
scripture.db, reading its vectors back out of ``vec0`` (no re-embedding, the database only read).

Layout (little-endian)::

    0      "AMICUS2S", uint32 header length, header JSON   (padded to HEADER_BYTES)
           floats      rows × dims float32   -- row i's vector, as in vec0
           projection  bits × dims float32
           rowids      rows int64            -- row i's rowid in scripture.db
           codes       rows × bits/8 bytes   -- row i's code

The header names each section's offset and size, the format, dims, bits, rows, and the database
it was made for: ``db_meta``'s ``built_at``, ``chunk_count``, ``embedding_dims`` and ``build_id``
(a random id each build writes), and ``db_file``, the database file's own change counter and page
count once it was finished (SQLite bumps the counter on every write through a rollback journal).
A file whose claims the database does not meet is not used: see :func:`claim_problem`.

Why each part (numbers in docs/PERFORMANCE.md):

* **Codes** are SimHash sign bits, ``bit j = (P @ v)[j] > 0``, for a random projection ``P``
  (stacked random rotations; stored, because numpy does not promise the same random stream across
  versions). The Hamming distance of two codes estimates the angle between the vectors, so it
  ranks rows as cosine does. The vectors are not centred: centring estimates another angle and
  measured worse on real embeddings. At least :data:`MIN_BITS` bits are used, so a 384-dim model
  gets 1,536-bit codes, which measured far better than one bit per dimension.
* **Floats** in a plain file, because the exact stage reads a few hundred random rows per
  question: a file read costs ~3 µs a row, a row of a SQLite table ~12 µs (each read copies a
  64 KiB page), a ``vec0`` rowid look-up ~0.3 ms. Rows the OS has dropped from its cache come from
  disk: :meth:`CodesFile.read_rows` asks for all of them before it reads one, so the disk serves
  them in parallel.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import struct
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

FORMAT = "simhash-1"
MAGIC = b"AMICUS2S"
HEADER_BYTES = 4096
SUFFIX = ".two-stage"
#: Codes have at least this many bits (and a multiple of 64): fewer made 384-dim recall poor.
MIN_BITS = 1536
#: Rows encoded (and loaded) per block: bounds memory whatever the corpus size.
BLOCK_ROWS = 8192
#: Seed of the random projection the builder draws (it is stored, so the seed is only a label).
PROJECTION_SEED = 20240615
#: Below this many stored floats (rows × dims) the exact sqlite-vec scan is quick enough (see
#: :func:`prefer_two_stage`).
MIN_FLOATS = 16_000_000
#: ``db_meta`` keys that tie a file to the database it was made for (``build_id``: a random id per build,
#: so two builds in the same second with the same counts are still told apart).
DB_KEYS = ("built_at", "chunk_count", "embedding_dims", "build_id")
_SECTIONS = ("floats", "projection", "rowids", "codes")
#: Whether the exact stage can ask the OS to fetch its rows ahead (``posix_fadvise``: Linux and the
#: BSDs; elsewhere the rows are read one after the other).
PREFETCH = hasattr(os, "posix_fadvise")
#: Whether a row is read with one ``preadv`` (Linux, the BSDs, macOS) instead of a seek and a read.
PREADV = hasattr(os, "preadv")


def path_for(db_path: str | os.PathLike[str]) -> Path:
    """Where the two-stage file of ``db_path`` lives: beside it, ``scripture.db.two-stage``."""
    p = Path(db_path)
    return p.with_name(p.name + SUFFIX)


def prefer_two_stage(rows: int, dims: int) -> bool:
    """Whether a corpus of ``rows`` × ``dims`` is better searched in two stages than exactly.

    One rule for the builder (write the file?) and the app (use it?). The exact scan costs time
    in proportion to ``rows × dims``; under :data:`MIN_FLOATS` (≈ 20 ms of sqlite-vec KNN on this
    project's machines) it is quick enough and always exact; above it the two-stage path is
    several times faster at recall@40 ≥ 0.99 (docs/PERFORMANCE.md).
    """
    return rows * dims >= MIN_FLOATS


def code_bits(dims: int) -> int:
    """Bits per code for ``dims``-dimensional vectors: ``max(dims, MIN_BITS)`` rounded up to 64."""
    return -(-max(int(dims), MIN_BITS) // 64) * 64


def make_projection(dims: int, bits: int, seed: int = PROJECTION_SEED) -> np.ndarray:
    """A ``bits × dims`` float32 matrix: stacked random rotations of R^dims (rows orthonormal per block).

    Orthogonal hyperplanes within a block give a less noisy angle estimate than independent
    Gaussian ones for the same number of bits.
    """
    rng = np.random.default_rng(seed)
    blocks = []
    for _ in range(-(-bits // dims)):
        q, r = np.linalg.qr(rng.standard_normal((dims, dims)))
        blocks.append(q * np.sign(np.diag(r)))  # a uniformly random rotation (Haar)
    return np.ascontiguousarray(np.concatenate(blocks)[:bits], dtype=np.float32)


def encode(vectors: np.ndarray, projection: np.ndarray) -> np.ndarray:
    """The codes of ``vectors`` (rows): ``rows × bits/8`` uint8, bit order as ``numpy.packbits``."""
    v = np.asarray(vectors, dtype=np.float32)
    return np.packbits(v @ projection.T > 0, axis=1)


def db_fingerprint(meta: Mapping[str, str]) -> dict[str, str | None]:
    """The ``db_meta`` values a file records to recognise its database."""
    return {key: meta.get(key) for key in DB_KEYS}


def db_file_state(header: bytes) -> dict[str, int]:
    """What a database file's 100-byte header says of its version: the change counter (bumped by every
    write through a rollback journal) and the page count."""
    return {"change_counter": int.from_bytes(header[24:28], "big"), "page_count": int.from_bytes(header[28:32], "big")}


def claim_problem(file: CodesFile, meta: Mapping[str, str], db_header: bytes) -> str | None:
    """Why ``file`` was not made for the database with ``meta`` and this header (``None``: it was).

    Cheap (a dictionary and 100 bytes): a file of an older build of the same name, or of a database
    written to since, is caught here without reading a vector. Reading vectors to compare costs
    ~7 ms a row at 200k × 1536 (each ``vec0`` row look-up reads its 6 MB chunk) and a hash of all
    of them ~4.4 s (docs/RELIABILITY.md), so rows are only spot-checked (see ``TwoStageIndex``).
    """
    name = file.path.name
    if dict(file.db) != db_fingerprint(meta):
        return f"{name} was made for another build of the database"
    if file.db_file is not None and dict(file.db_file) != db_file_state(db_header):
        return f"{name} was made before the database was last changed"
    return None


def carry_claim(path: Path, before: bytes, after: bytes) -> bool:
    """After a tool changed its own database in a way that leaves its vectors as they were (the
    benchmark's ``db_meta`` edits), move the two-stage file's claim from header ``before`` to
    ``after``; only a file whose claim held before is touched. Whether it was."""
    try:
        file = CodesFile.open(path)
    except (OSError, ValueError):
        return False
    if file.db_file is None or dict(file.db_file) != db_file_state(before):
        return False
    with open(path, "r+b") as fh:
        head = fh.read(HEADER_BYTES)
        (length,) = struct.unpack("<I", head[8:12])
        header = json.loads(head[12 : 12 + length].decode("utf-8"))
        header["db_file"] = db_file_state(after)
        _write_header(fh, header)
    return True


@dataclass(frozen=True)
class CodesFile:
    """A two-stage file whose header has been read and checked against its size."""

    path: Path
    dims: int
    bits: int
    rows: int
    db: Mapping[str, str | None]
    sections: Mapping[str, tuple[int, int]]
    #: the database file's state when the file was made (:func:`db_file_state`); ``None`` in files
    #: written before it was recorded
    db_file: Mapping[str, int] | None = None

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> CodesFile:
        """Read the header; ``ValueError`` saying what is wrong, ``OSError`` when it cannot be read."""
        path = Path(path)
        size = path.stat().st_size
        with open(path, "rb") as fh:
            head = fh.read(HEADER_BYTES)
        if len(head) < 12 or head[:8] != MAGIC:
            raise ValueError(f"{path.name} is not a two-stage search file")
        (length,) = struct.unpack("<I", head[8:12])
        try:
            header = json.loads(head[12 : 12 + length].decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:  # RecursionError: nesting
            raise ValueError(f"{path.name}: the header is damaged ({type(exc).__name__})") from None
        if not isinstance(header, dict):
            raise ValueError(f"{path.name}: the header is damaged (not an object)")
        if header.get("format") != FORMAT:
            raise ValueError(f"{path.name}: format {str(header.get('format'))[:40]!r} is not {FORMAT!r}")
        dims, bits, rows = (_whole(path, header, key) for key in ("dims", "bits", "rows"))
        sections = {name: _section(path, header, name) for name in _SECTIONS}
        db = header.get("db")
        if not isinstance(db, dict) or any(not isinstance(db.get(k), (str, type(None))) for k in DB_KEYS):
            raise ValueError(f"{path.name}: the header is damaged (db)")
        db_file = header.get("db_file")
        if db_file is not None and (not isinstance(db_file, dict) or not all(
                type(db_file.get(k)) is int for k in ("change_counter", "page_count"))):
            raise ValueError(f"{path.name}: the header is damaged (db_file)")
        if dims <= 0 or bits <= 0 or bits % 64 or rows < 0:
            raise ValueError(f"{path.name}: dims {dims}, bits {bits}, rows {rows} are not usable")
        expected = {"floats": rows * dims * 4, "projection": bits * dims * 4, "rowids": rows * 8,
                    "codes": rows * bits // 8}
        for name, (offset, nbytes) in sections.items():
            if nbytes != expected[name] or offset < HEADER_BYTES or offset + nbytes > size:
                raise ValueError(f"{path.name} is truncated or damaged ({name} section)")
        return cls(path, dims, bits, rows, {k: db.get(k) for k in DB_KEYS}, sections,
                   None if db_file is None else {k: db_file[k] for k in ("change_counter", "page_count")})

    def read_section(self, name: str, dtype: str, start: int = 0, count: int | None = None,
                     width: int = 1) -> np.ndarray:
        """Items ``start .. start+count`` of a section, each ``width`` values of ``dtype``."""
        offset, nbytes = self.sections[name]
        item = np.dtype(dtype).itemsize * width
        count = nbytes // item - start if count is None else count
        out = np.empty(count * width, dtype=dtype)
        with open(self.path, "rb") as fh:
            fh.seek(offset + start * item)
            if fh.readinto(out.data.cast("B")) != count * item:
                raise ValueError(f"{self.path.name}: the {name} section ends early")
        return out.reshape(count, width) if width > 1 else out

    def projection(self) -> np.ndarray:
        p = self.read_section("projection", "<f4", width=self.dims).astype(np.float32)
        if not np.isfinite(p).all():
            raise ValueError(f"{self.path.name}: the projection holds non-finite numbers")
        return p

    def code_blocks(self) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
        """``(first row, rowids, codes)`` per block of :data:`BLOCK_ROWS` rows, in file order."""
        for start in range(0, self.rows, BLOCK_ROWS):
            count = min(BLOCK_ROWS, self.rows - start)
            rowids = self.read_section("rowids", "<i8", start, count)
            block = self.read_section("codes", "u1", start, count, width=self.bits // 8)
            yield start, rowids.astype(np.int64), block

    def read_rows(self, positions: np.ndarray) -> np.ndarray:
        """The float32 vectors at ``positions`` (row numbers in the file; ascending reads in order)."""
        out = np.empty((len(positions), self.dims), dtype=np.float32)
        if not len(positions):
            return out
        size = self.dims * 4
        base = self.sections["floats"][0]
        view = out.data.cast("B")
        rows = positions.tolist()
        with open(self.path, "rb", buffering=0) as fh:
            if PREFETCH:
                # Ask for every row before reading any: rows the OS no longer caches are then read
                # from disk in parallel, not one at a time (145 → 18 ms p50 for 400 rows cold).
                fd = fh.fileno()
                for pos in rows:
                    os.posix_fadvise(fd, base + pos * size, size, os.POSIX_FADV_WILLNEED)
            if PREADV:  # one system call a row (≈ 2 µs), not a seek and a read
                fd = fh.fileno()
                for i, pos in enumerate(rows):
                    if os.preadv(fd, [view[i * size : (i + 1) * size]], base + pos * size) != size:
                        raise ValueError(f"{self.path.name}: row {pos} ends early")
                return out
            for i, pos in enumerate(rows):
                fh.seek(base + pos * size)
                if fh.readinto(view[i * size : (i + 1) * size]) != size:
                    raise ValueError(f"{self.path.name}: row {pos} ends early")
        return out


def _write_header(fh: BinaryIO, header: Mapping[str, Any]) -> None:
    raw = json.dumps(header).encode("utf-8")
    if 12 + len(raw) > HEADER_BYTES:
        raise ValueError("the two-stage header does not fit")
    fh.seek(0)
    fh.write(MAGIC + struct.pack("<I", len(raw)) + raw)
    fh.flush()
    os.fsync(fh.fileno())


def _whole(path: Path, header: dict[str, Any], key: str) -> int:
    """A count from the header: a JSON integer (not a float, a string or ``true``), or ``ValueError``."""
    value = header.get(key)
    if type(value) is not int:
        raise ValueError(f"{path.name}: the header is damaged ({key} is not a whole number)")
    return value


def _section(path: Path, header: dict[str, Any], name: str) -> tuple[int, int]:
    value = header.get(name)
    if not isinstance(value, list) or len(value) != 2 or any(type(v) is not int for v in value):
        raise ValueError(f"{path.name}: the header is damaged ({name} section)")
    return value[0], value[1]


class CodesWriter:
    """Writes a two-stage file: rows while a database is built, codes and header at :meth:`finish`.

    The file is written under a temporary name beside ``path`` and only :meth:`commit` renames it
    into place; :meth:`discard` deletes it.
    """

    def __init__(self, path: str | os.PathLike[str], dims: int) -> None:
        self.path = Path(path)
        self.tmp_path = self.path.with_name(f".{self.path.name}.tmp-{os.getpid()}")
        self.dims = int(dims)
        self.bits = code_bits(dims)
        self.rows = 0
        self._rowids: list[np.ndarray] = []
        self._header: dict[str, Any] = {}
        self._fh: io.BufferedRandom | None = self.tmp_path.open("w+b")  # closed by finish or discard
        self._fh.truncate(HEADER_BYTES)
        self._fh.seek(HEADER_BYTES)

    def add(self, rowids: np.ndarray, vectors: np.ndarray) -> None:
        """Append rows (float32 vectors of ``dims``) with their rowids."""
        assert self._fh is not None
        vecs = np.ascontiguousarray(vectors, dtype="<f4")
        if vecs.ndim != 2 or vecs.shape[1] != self.dims or len(vecs) != len(rowids):
            raise ValueError(f"expected {len(rowids)} rows of {self.dims} floats, got {vecs.shape}")
        self._fh.write(vecs.tobytes())
        self._rowids.append(np.asarray(rowids, dtype="<i8"))
        self.rows += len(vecs)

    def finish(self, db_meta: Mapping[str, str]) -> float:
        """Encode every row, write the projection, rowids, codes and header. Returns the seconds it took."""
        assert self._fh is not None
        t0 = time.perf_counter()
        fh = self._fh
        fh.flush()
        floats_at, row_bytes = HEADER_BYTES, self.dims * 4
        projection = make_projection(self.dims, self.bits)
        sections: dict[str, list[int]] = {"floats": [floats_at, self.rows * row_bytes]}
        sections["projection"] = [floats_at + self.rows * row_bytes, projection.nbytes]
        fh.seek(sections["projection"][0])
        fh.write(projection.astype("<f4").tobytes())
        rowids = np.concatenate(self._rowids) if self._rowids else np.zeros(0, dtype="<i8")
        sections["rowids"] = [fh.tell(), rowids.nbytes]
        fh.write(rowids.tobytes())
        sections["codes"] = [fh.tell(), self.rows * self.bits // 8]
        block = np.empty((BLOCK_ROWS, self.dims), dtype="<f4")
        for start in range(0, self.rows, BLOCK_ROWS):
            count = min(BLOCK_ROWS, self.rows - start)
            fh.seek(floats_at + start * row_bytes)
            fh.readinto(block[:count].data.cast("B"))
            codes = encode(block[:count], projection)
            fh.seek(sections["codes"][0] + start * self.bits // 8)
            fh.write(codes.tobytes())
        self._header = {"format": FORMAT, "dims": self.dims, "bits": self.bits, "rows": self.rows,
                        "db": db_fingerprint(db_meta), **sections}
        _write_header(fh, self._header)
        fh.close()
        self._fh = None
        return time.perf_counter() - t0

    def claim(self, db_header: bytes) -> None:
        """Record the finished database's file state (:func:`db_file_state`) in the finished file's header."""
        self._header["db_file"] = db_file_state(db_header)
        with open(self.tmp_path, "r+b") as fh:
            _write_header(fh, self._header)

    def commit(self) -> None:
        """Rename the finished file into place (replacing an older one)."""
        os.replace(self.tmp_path, self.path)

    def discard(self) -> None:
        """Close and delete the temporary file (after an error or a cancel)."""
        if self._fh is not None:
            self._fh.close()
            self._fh = None
        with contextlib.suppress(FileNotFoundError):
            self.tmp_path.unlink()

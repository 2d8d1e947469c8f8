"""The two-stage search tables of scripture.db: binary codes and a float copy of each vector.

``build-db`` writes them (``ScriptureWriter(two_stage=True)``); the app only reads them
(:mod:`amicus_desktop.candidates.twostage`). They are optional: a database without them — the
contract's minimal schema included — is searched exactly by sqlite-vec, as before.

Three tables, all plain SQLite::

    embedding_floats(rowid INTEGER PRIMARY KEY, vector BLOB)   -- the vec0 vector again, float32 LE
    embedding_codes(block INTEGER PRIMARY KEY, rowids BLOB, codes BLOB)
    embedding_codes_info(key TEXT PRIMARY KEY, value)          -- format, dims, bits, rows, projection

Why each exists (numbers in docs/PERFORMANCE.md):

* **Codes** are SimHash sign bits: ``bit j = (P @ v)[j] > 0`` for a random projection ``P``
  (``bits × dims``, stacked random rotations, stored in ``embedding_codes_info`` because numpy's
  random streams are not promised to stay the same across versions). The Hamming distance of two
  codes estimates the angle between the vectors, so it ranks rows like cosine does. The vectors
  are not centred first: centring estimates a different angle and measured worse on real
  embeddings. At least :data:`MIN_BITS` bits are used, so a 384-dim model gets 1,536-bit codes
  (4 bits per dimension), which measured far better than one sign bit per dimension.
* ``embedding_codes`` keeps the codes in blocks of :data:`BLOCK_ROWS` rows (rowids int64 LE,
  ascending, and ``rows × bits/8`` code bytes), so the app loads them with a few dozen reads.
* ``embedding_floats`` is a second copy of every vector, because fetching a few hundred rows by
  rowid from ``vec0`` costs ~0.3 ms a row, from a plain table ~12 µs.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

import apsw
import numpy as np

FORMAT = "simhash-1"
#: Codes have at least this many bits (and a multiple of 64): fewer made 384-dim recall poor.
MIN_BITS = 1536
#: Rows per ``embedding_codes`` block.
BLOCK_ROWS = 8192
#: Seed of the random projection the builder draws (it is stored, so the seed is only a label).
PROJECTION_SEED = 20240615

#: Below this many stored floats (rows × dims) the exact sqlite-vec scan is quick enough (see
#: :func:`prefer_two_stage`).
MIN_FLOATS = 16_000_000

FLOATS_TABLE = "embedding_floats"
CODES_TABLE = "embedding_codes"
INFO_TABLE = "embedding_codes_info"
TABLES = (FLOATS_TABLE, CODES_TABLE, INFO_TABLE)

CREATE_SQL = (
    f"CREATE TABLE {FLOATS_TABLE} (rowid INTEGER PRIMARY KEY, vector BLOB NOT NULL)",
    f"CREATE TABLE {CODES_TABLE} (block INTEGER PRIMARY KEY, rowids BLOB NOT NULL, codes BLOB NOT NULL)",
    f"CREATE TABLE {INFO_TABLE} (key TEXT PRIMARY KEY, value NOT NULL)",
)


def prefer_two_stage(rows: int, dims: int) -> bool:
    """Whether a corpus of ``rows`` × ``dims`` is better searched in two stages than exactly.

    One rule for the builder (write the tables?) and the app (use them?). The exact scan costs
    time in proportion to ``rows × dims``; under :data:`MIN_FLOATS` (≈ 20 ms of sqlite-vec KNN
    on this project's machines) it is quick enough and always exact; above it the two-stage path
    is several times faster at recall@40 ≥ 0.99 (docs/PERFORMANCE.md).
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


@dataclass(frozen=True)
class CodesInfo:
    """What ``embedding_codes_info`` says about the codes."""

    format: str
    dims: int
    bits: int
    rows: int
    projection: np.ndarray


def has_tables(con: apsw.Connection) -> bool:
    """Whether all three two-stage tables exist."""
    names = {
        str(name)
        for (name,) in con.execute(
            f"SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ({','.join('?' * len(TABLES))})",
            TABLES,
        )
    }
    return names == set(TABLES)


def read_info(con: apsw.Connection) -> CodesInfo:
    """Read and check ``embedding_codes_info``; ``ValueError`` saying what is wrong."""
    raw = {str(k): v for k, v in con.execute(f"SELECT key, value FROM {INFO_TABLE}")}
    missing = [k for k in ("format", "dims", "bits", "rows", "projection") if k not in raw]
    if missing:
        raise ValueError(f"{INFO_TABLE} lacks {', '.join(missing)}")
    fmt = str(raw["format"])
    if fmt != FORMAT:
        raise ValueError(f"codes format {fmt!r} is not {FORMAT!r}")
    try:
        dims, bits, rows = int(raw["dims"]), int(raw["bits"]), int(raw["rows"])
    except (TypeError, ValueError):
        raise ValueError(f"{INFO_TABLE}: dims, bits and rows must be integers") from None
    if dims <= 0 or bits <= 0 or bits % 64 or rows < 0:
        raise ValueError(f"{INFO_TABLE}: dims {dims}, bits {bits}, rows {rows} are not usable")
    blob = raw["projection"]
    if not isinstance(blob, bytes) or len(blob) != bits * dims * 4:
        raise ValueError(f"{INFO_TABLE}: the projection is not {bits} × {dims} float32")
    projection = np.frombuffer(blob, dtype="<f4").reshape(bits, dims).astype(np.float32)
    if not np.isfinite(projection).all():
        raise ValueError(f"{INFO_TABLE}: the projection holds non-finite numbers")
    return CodesInfo(fmt, dims, bits, rows, projection)


def write_info(con: apsw.Connection, dims: int, bits: int, rows: int, projection: np.ndarray) -> None:
    """Write ``embedding_codes_info`` (the tables must exist)."""
    values: list[tuple[str, object]] = [
        ("format", FORMAT),
        ("dims", int(dims)),
        ("bits", int(bits)),
        ("rows", int(rows)),
        ("projection", np.ascontiguousarray(projection, dtype="<f4").tobytes()),
    ]
    con.executemany(f"INSERT OR REPLACE INTO {INFO_TABLE} VALUES (?, ?)", values)


def write_codes(con: apsw.Connection, dims: int) -> float:
    """Encode every row of ``embedding_floats`` (rowid order) into ``embedding_codes`` and write the info.

    Runs inside the builder's transaction, after the last vector; reads the float table back in
    blocks, so memory stays at one block whatever the corpus size. Returns the seconds it took.
    """
    t0 = time.perf_counter()
    bits = code_bits(dims)
    projection = make_projection(dims, bits)
    rows = 0
    block = 0
    cursor = con.execute(f"SELECT rowid, vector FROM {FLOATS_TABLE} ORDER BY rowid")
    while batch := list(itertools.islice(cursor, BLOCK_ROWS)):
        rowids = np.fromiter((int(r) for r, _ in batch), dtype="<i8", count=len(batch))
        vectors = np.frombuffer(b"".join(v for _, v in batch), dtype="<f4").reshape(len(batch), dims)
        con.execute(
            f"INSERT INTO {CODES_TABLE} VALUES (?, ?, ?)",
            (block, rowids.tobytes(), encode(vectors, projection).tobytes()),
        )
        rows += len(batch)
        block += 1
    write_info(con, dims, bits, rows, projection)
    return time.perf_counter() - t0

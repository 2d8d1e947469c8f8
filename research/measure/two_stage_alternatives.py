"""The design measurements behind the two-stage search (docs/PERFORMANCE.md, "Choices measured").

    .venv/bin/python research/measure/two_stage_alternatives.py DB [--queries 20] [--with-table]

``DB`` is a scripture.db with its two-stage file (e.g. one kept by ``amicus-desktop bench --keep``).
Per question, interleaved, it times

* the coarse pass (Hamming distance over every code, then the nearest 2,000): numpy as the index
  does it, and faiss's ``IndexBinaryFlat`` and usearch's exact search when they are installed
  (they are not dependencies of the project; ``pip install faiss-cpu usearch`` to compare);
* reading 400 random float rows for the exact stage: from the two-stage file; from the ``vec0``
  shadow table's chunk at the row's offset (one SQLite incremental-blob handle per chunk, kept open,
  after a first pass that opens them all); by ``vec0`` rowid look-ups; and with ``--with-table``
  from a plain SQLite blob table with the database's 64 KiB pages (written to a temporary file
  first, which takes a while).

It prints CPU and wall milliseconds (p50 / p95) and the bytes each float store adds. A one-off
measuring script, not part of the app.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from amicus_desktop.store import codes
from amicus_desktop.store.scripture import ScriptureStore
from amicus_desktop.store.sqlite import connect
from amicus_desktop.store.twostage import TwoStageIndex, smallest

COARSE = 2000
ROWS = 400


def timed(samples: dict[str, list[tuple[float, float]]], name: str, fn: Callable[[], Any]) -> None:
    c0, w0 = time.thread_time(), time.perf_counter()
    fn()
    samples.setdefault(name, []).append(((time.thread_time() - c0) * 1000, (time.perf_counter() - w0) * 1000))


def report(samples: dict[str, list[tuple[float, float]]]) -> None:
    for name, values in samples.items():
        cpu = np.array([c for c, _ in values])
        wall = np.array([w for _, w in values])
        print(f"  {name:48s} CPU p50 {np.percentile(cpu, 50):7.2f} ms   wall p50 / p95 "
              f"{np.percentile(wall, 50):7.2f} / {np.percentile(wall, 95):7.2f} ms")


def coarse_engines(index: TwoStageIndex, qs: np.ndarray) -> dict[str, Callable[[int], Any]]:
    words = index.codes_t.shape[0]
    row_codes = np.ascontiguousarray(index.codes_t.T).view(np.uint8)  # rows × bits/8, as faiss wants
    qcodes = [codes.encode(q[None, :], index.projection)[0] for q in qs]
    engines: dict[str, Callable[[int], Any]] = {
        "numpy, every whole code (word by word + histogram cut)": lambda i: smallest(
            index.hamming(np.ascontiguousarray(qcodes[i]).view(np.uint64)[:words], None), COARSE, index.bits),
        "numpy, 512-bit pre-filter then whole codes (the index)": lambda i: index.coarse_list(
            np.ascontiguousarray(qcodes[i]).view(np.uint64)[:words], None, COARSE),
    }
    try:
        import faiss

        faiss.omp_set_num_threads(1)
        flat = faiss.IndexBinaryFlat(index.bits)
        flat.add(row_codes)
        flat.use_heap = False
        engines["faiss IndexBinaryFlat (1 thread)"] = lambda i: flat.search(qcodes[i][None, :], COARSE)
    except ImportError:
        print("  (faiss not installed: skipped)")
    try:
        from usearch.index import MetricKind, ScalarKind, search

        engines["usearch exact search (1 thread)"] = lambda i: search(
            row_codes, qcodes[i], COARSE, MetricKind.Hamming, exact=True, threads=1, dtype=ScalarKind.B1)
    except ImportError:
        print("  (usearch not installed: skipped)")
    return engines


class ShadowChunks:
    """Float rows straight from vec0's shadow tables: the chunk blob at the row's offset."""

    def __init__(self, con: Any, dims: int) -> None:
        self.con, self.size = con, dims * 4
        rows = np.array(list(con.execute("SELECT rowid, chunk_id, chunk_offset FROM embeddings_rowids")),
                        dtype=np.int64)
        self.chunk = dict(zip(rows[:, 0].tolist(), rows[:, 1].tolist(), strict=True))
        self.offset = dict(zip(rows[:, 0].tolist(), rows[:, 2].tolist(), strict=True))
        self.real = dict(con.execute("SELECT rowid, _rowid_ FROM embeddings_vector_chunks00"))
        self.handles: dict[int, Any] = {}

    def warm(self) -> None:
        """Open every chunk's handle and read its last row: SQLite walks each overflow chain once."""
        buf = bytearray(self.size)
        for chunk, real in self.real.items():
            h = self.handles.setdefault(chunk, self.con.blob_open("main", "embeddings_vector_chunks00", "vectors",
                                                                  real, False))
            h.seek(h.length() - self.size)
            h.read_into(buf)

    def read(self, rowids: np.ndarray) -> np.ndarray:
        out = np.empty((len(rowids), self.size // 4), dtype=np.float32)
        view = out.data.cast("B")
        for i, r in enumerate(rowids.tolist()):
            h = self.handles[self.chunk[r]]
            h.seek(self.offset[r] * self.size)
            h.read_into(view, i * self.size, self.size)
        return out


def plain_table(db: Path, f: codes.CodesFile) -> tuple[Any, Path]:
    tmp = Path(tempfile.mkdtemp(prefix="amicus-alt-")) / "floats.db"
    con = connect(tmp, readonly=False, load_extension=False)
    con.execute("PRAGMA page_size=65536")
    con.execute("PRAGMA journal_mode=OFF")
    con.execute("CREATE TABLE floats (rowid INTEGER PRIMARY KEY, vector BLOB NOT NULL)")
    con.execute("BEGIN")
    for start, rowids, _ in f.code_blocks():
        block = f.read_rows(np.arange(start, start + len(rowids)))
        con.executemany("INSERT INTO floats VALUES (?, ?)", zip(rowids.tolist(), (r.tobytes() for r in block),
                                                                   strict=True))
    con.execute("COMMIT")
    return con, tmp


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("db", type=Path)
    p.add_argument("--queries", type=int, default=20)
    p.add_argument("--with-table", action="store_true")
    args = p.parse_args()
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    store = ScriptureStore(args.db)
    index = TwoStageIndex.open(store, mode="on")
    if index is None:
        print(f"{args.db} has no usable two-stage file", file=sys.stderr)
        return 1
    f = index.file
    rng = np.random.default_rng(0)
    qs = rng.standard_normal((args.queries + 2, index.dims)).astype(np.float32)
    print(f"{args.db.name}: {len(index.rowids):,} rows × {index.dims} dims, {index.bits}-bit codes; "
          f"{args.queries} questions after 2 warm-up, interleaved")

    print(f"coarse pass: Hamming distance over every code, nearest {COARSE:,}")
    engines = coarse_engines(index, qs)
    samples: dict[str, list[tuple[float, float]]] = {}
    for i in range(len(qs)):
        for name, fn in engines.items():
            timed(samples if i >= 2 else {}, name, lambda fn=fn, i=i: fn(i))
    report(samples)

    print(f"exact stage: {ROWS} random float rows (ascending rowids)")
    t0 = time.perf_counter()
    shadow = ShadowChunks(store.con, index.dims)
    shadow.warm()
    print(f"  (vec0 shadow chunks: the first pass over {len(shadow.real)} chunks took "
          f"{(time.perf_counter() - t0) * 1000:.0f} ms)")
    table = plain_table(args.db, f) if args.with_table else None
    sets = [np.sort(rng.choice(index.rowids, ROWS, replace=False)) for _ in qs]
    cols = [np.searchsorted(index.rowids, s) for s in sets]
    stores: dict[str, Callable[[int], Any]] = {
        "two-stage file (seek + readinto)": lambda i: index._read_columns(cols[i]),
        "vec0 shadow chunk at the row's offset": lambda i: shadow.read(sets[i]),
        "vec0 rowid look-ups": lambda i: [store.con.execute("SELECT embedding FROM embeddings WHERE rowid = ?",
                                                            (r,)).fetchone() for r in sets[i].tolist()],
    }
    if table is not None:
        tcon = table[0]
        stores["plain SQLite blob table (64 KiB pages)"] = lambda i: [
            tcon.execute("SELECT vector FROM floats WHERE rowid = ?", (r,)).fetchone() for r in sets[i].tolist()]
    samples = {}
    for i in range(len(qs)):
        for name, fn in stores.items():
            timed(samples if i >= 2 else {}, name, lambda fn=fn, i=i: fn(i))
    report(samples)
    floats = f.sections["floats"][1]
    print(f"bytes added: file {f.path.stat().st_size / 2**20:,.0f} MB (floats {floats / 2**20:,.0f} MB); "
          "vec0 shadow chunks 0")
    if table is not None:
        table[0].close()
        print(f"  plain table: {table[1].stat().st_size / 2**20:,.0f} MB")
        with contextlib.suppress(OSError):
            table[1].unlink()
            table[1].parent.rmdir()
    store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

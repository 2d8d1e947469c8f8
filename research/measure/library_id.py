"""What a library's content id costs: computed from every chunk (a library without a stored one) against read
from ``db_meta`` (what ``build-db`` and ``ingest`` now store), and what storing it adds to a build
(docs/PERFORMANCE.md, "The library's content id").

    .venv/bin/python research/measure/library_id.py --db PATH/scripture.db [--db ...]

Each library is copied to a temporary folder (the original is only read), the copy's stored id removed to time
the computation through the store (the old way, and today's fallback), then stored as a builder stores it (timed:
the build's added cost) and read back through the store (the new way). Prints the best and every run of each,
and checks the three ways give one id.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def _timed(fn: Callable[[], str], runs: int) -> tuple[str, list[float]]:
    out, times = "", []
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return out, times


def _say(name: str, times: list[float]) -> str:
    return f"{name}: best {min(times) * 1000:,.3f} ms (runs " + ", ".join(f"{t * 1000:,.3f}" for t in times) + ")"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, action="append", required=True)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from amicus_desktop.store import ScriptureStore
    from amicus_desktop.store.content_id import CONTENT_ID_KEY, forget_in, library_id, store_in
    from amicus_desktop.store.sqlite import connect

    for db in args.db:
        with tempfile.TemporaryDirectory(prefix="amicus-library-id-") as tmp:
            copy = Path(tmp) / "scripture.db"
            shutil.copyfile(db, copy)
            con = connect(copy, readonly=False)
            try:
                forget_in(con)
            finally:
                con.close()
            with ScriptureStore(copy) as store:
                chunks = store.info.chunk_count
                assert CONTENT_ID_KEY not in store.info.meta
                old, old_times = _timed(lambda store=store: library_id(store), args.runs)  # type: ignore[misc]
            con = connect(copy, readonly=False)
            try:
                con.execute("BEGIN IMMEDIATE")
                t0 = time.perf_counter()
                built = store_in(con, copy)
                store_seconds = time.perf_counter() - t0
                con.execute("COMMIT")
            finally:
                con.close()
            with ScriptureStore(copy) as store:
                new, new_times = _timed(lambda store=store: library_id(store), args.runs)  # type: ignore[misc]
            assert old == built == new, (old, built, new)
            print(f"{db} ({chunks:,} chunks) id {new}")
            print("  " + _say("computed through the store (before; today's fallback)", old_times))
            print(f"  stored at build time: {store_seconds * 1000:,.1f} ms, once")
            print("  " + _say("read from db_meta (after)", new_times))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""pgvector's HNSW index beside the exact scan, on a library exported into PostgreSQL: recall@40 and time.

    .venv/bin/python research/measure/pg_hnsw.py LIBRARY.db --url postgresql://… [--golden GOLDEN.json]
        [--ef 40,100,200] [--m 16] [--ef-construction 64]

LIBRARY is exported into the database at ``--url`` (``export-db``: nothing written when it is there already),
then, in a copy of its ``embeddings`` table (the library's own tables are left as ``export-db`` wrote them), an
HNSW index (``vector_cosine_ops``) is built and timed. For every golden question's vector (the real local model)
it prints the exact top 40 (the library's own scan, :class:`~amicus_desktop.store.pg.vectors.PgVectors`) against
HNSW's at each ``hnsw.ef_search``: recall@40 (the share of the exact 40 HNSW returns), how many questions get
all 40, and the time of one search (p50 / p95, best of 3). The numbers are in docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from amicus_desktop.embedding import get_backend  # noqa: E402
from amicus_desktop.evaluate.golden import load  # noqa: E402
from amicus_desktop.store.library import open_library  # noqa: E402
from amicus_desktop.store.pg.export import export_library, vector_text  # noqa: E402
from amicus_desktop.store.pg.schema import SCHEMA, connect  # noqa: E402

TABLE = "amicus_hnsw_probe"


def _ms(fn: object) -> tuple[list[tuple[int, float]], float]:
    best, out = float("inf"), []
    for _ in range(3):
        t0 = time.perf_counter()
        out = fn()  # type: ignore[operator]
        best = min(best, (time.perf_counter() - t0) * 1000)
    return out, best


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("library", type=Path)
    p.add_argument("--url", required=True)
    p.add_argument("--golden", type=Path, default=ROOT / "resources" / "golden" / "demo.json")
    p.add_argument("--ef", default="40,100,200")
    p.add_argument("--m", type=int, default=16)
    p.add_argument("--ef-construction", type=int, default=64)
    args = p.parse_args()
    export_library(args.library, args.url)
    golden = load(args.golden)
    vectors = np.asarray(get_backend("local").embed([q.query for q in golden.queries]), dtype=np.float32)
    con = connect(args.url, reader=False)
    try:
        dims = int(con.execute(f"SELECT value FROM {SCHEMA}.db_meta WHERE key = 'embedding_dims'").fetchone()[0])
        con.execute(f"DROP TABLE IF EXISTS public.{TABLE}")
        con.execute(f"CREATE TABLE public.{TABLE} (rowid bigint PRIMARY KEY, embedding vector({dims}) NOT NULL)")
        con.execute(f"INSERT INTO public.{TABLE} SELECT rowid, embedding FROM {SCHEMA}.embeddings")
        t0 = time.perf_counter()
        con.execute(f"CREATE INDEX ON public.{TABLE} USING hnsw (embedding vector_cosine_ops) "
                    f"WITH (m = {args.m}, ef_construction = {args.ef_construction})")
        built = time.perf_counter() - t0
        ((size,),) = con.execute(f"SELECT sum(pg_relation_size(i.indexrelid)) FROM pg_index i "
                                 f"JOIN pg_am a ON a.oid = (SELECT relam FROM pg_class WHERE oid = i.indexrelid) "
                                 f"WHERE i.indrelid = 'public.{TABLE}'::regclass AND a.amname = 'hnsw'").fetchall()
        ((n,),) = con.execute(f"SELECT count(*) FROM public.{TABLE}").fetchall()
        con.execute(f"ANALYZE public.{TABLE}")
        print(f"{n:,} vectors × {dims}: HNSW (m {args.m}, ef_construction {args.ef_construction}) built in "
              f"{built:.1f} s, {size / 2**20:.1f} MiB")
        exact: list[list[int]] = []
        exact_ms: list[float] = []
        with open_library(args.url) as store:
            index = store.vector_index()
            for v in vectors:
                hits, ms = _ms(lambda v=v: index.nearest(v, 40))
                exact.append([r for r, _ in hits])
                exact_ms.append(ms)
        print(f"exact scan (the library's): p50 / p95 {np.percentile(exact_ms, 50):.2f} / "
              f"{np.percentile(exact_ms, 95):.2f} ms")
        con.execute("SET enable_seqscan = off")  # the index, even where the planner would scan a small table
        plan = con.execute(f"EXPLAIN SELECT rowid FROM public.{TABLE} ORDER BY embedding <=> %s::vector LIMIT 40",
                           [vector_text(vectors[0])]).fetchall()
        print("plan:", " / ".join(str(r[0]).strip() for r in plan[:2]))
        print("| ef_search | recall@40 | questions with all 40 | p50 / p95 ms |")
        print("|---|---|---|---|")
        for ef in [int(x) for x in args.ef.split(",")]:
            con.execute(f"SET hnsw.ef_search = {ef}")
            recalls, full, times = [], 0, []
            for v, want in zip(vectors, exact, strict=True):
                q = vector_text(v)

                def search(q: str = q) -> list[tuple[int, float]]:
                    return [(int(r), 0.0) for (r,) in con.execute(
                        f"SELECT rowid FROM public.{TABLE} ORDER BY embedding <=> %s::vector LIMIT 40", [q]).fetchall()]

                got, ms = _ms(search)
                found = len(set(want) & {r for r, _ in got})
                recalls.append(found / max(1, len(want)))
                full += found == len(want)
                times.append(ms)
            print(f"| {ef} | {np.mean(recalls):.4f} | {full}/{len(vectors)} | {np.percentile(times, 50):.2f} / "
                  f"{np.percentile(times, 95):.2f} |")
        con.execute(f"DROP TABLE public.{TABLE}")
    finally:
        con.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

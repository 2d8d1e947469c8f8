"""Verse search with its vectors read from the cache's file against held in memory: the same rankings?

Runs every question of ``resources/golden/verses.json`` through the verse engine (hybrid, semantic; k 10)
twice in one process — its vectors held in memory (as before 2026-12-06), then as the app reads them now (mapped
from the cache's file a block at a time, :mod:`amicus_desktop.store.vector_file`) — and prints how many
questions rank the same verses in the same order, the largest score difference, and the nDCG@10 of each
(docs/PERFORMANCE.md, "The app's start-up memory"). Needs a running embed proxy:

    .venv/bin/python research/measure/verse_file.py --db LIB --proxy http://127.0.0.1:8731
"""

from __future__ import annotations

import argparse
import asyncio
import weakref

import numpy as np

from amicus_desktop.core.query import SearchMode
from amicus_desktop.evaluate.golden import load
from amicus_desktop.evaluate.metrics import ndcg
from amicus_desktop.retrieval import Retriever
from amicus_desktop.store.vector_file import VectorFile, vector_file
from amicus_desktop.verses import VerseQuery, VerseSearch
from amicus_desktop.verses import memory as verse_memory

MODES = (SearchMode.HYBRID, SearchMode.SEMANTIC)


def _no_file(*args: object) -> VectorFile:
    raise OSError("held in memory for the comparison")


async def rankings(db: str, proxy: str, held: bool) -> dict[tuple[str, str], list[tuple[str, float]]]:
    setattr(verse_memory, "vector_file", _no_file if held else vector_file)  # noqa: B010
    verse_memory._MEMORIES = weakref.WeakKeyDictionary()  # read the memory again
    golden = load("resources/golden/verses.json")
    retriever = Retriever(db, proxy)
    search = VerseSearch(retriever)
    out: dict[tuple[str, str], list[tuple[str, float]]] = {}
    try:
        for q in golden.queries:
            for mode in MODES:
                result = await search.search(VerseQuery(q.query, mode, (), k=10))
                out[(q.id, mode.value)] = [(f"{h.book_id}:{h.chapter_num}:{v}", s) for h in result.results
                                           for v, _, s in h.verses]
    finally:
        await retriever.aclose()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--proxy", required=True)
    args = parser.parse_args()
    full = asyncio.run(rankings(args.db, args.proxy, held=True))
    half = asyncio.run(rankings(args.db, args.proxy, held=False))
    golden = {q.id: q for q in load("resources/golden/verses.json").queries}
    for mode in MODES:
        keys = [k for k in full if k[1] == mode.value]
        same = sum(1 for k in keys if [v for v, _ in full[k]] == [v for v, _ in half[k]])
        diffs = [abs(a[1] - b[1]) for k in keys for a, b in zip(full[k], half[k], strict=False) if a[0] == b[0]]
        diff = max(diffs, default=0.0)
        for k in keys:
            if [v for v, _ in full[k]] != [v for v, _ in half[k]]:
                print("  differs:", k[0], "held", full[k][:10], "file", half[k][:10])
        scores = []
        for ranks in (full, half):
            scores.append(np.mean([ndcg([v for v, _ in ranks[k]][:10], golden[k[0]].judgments) for k in keys]))
        print(f"{mode.value:9s} questions {len(keys)}  same verses in the same order {same}  "
              f"score difference median {np.median(diffs):.1e} largest {diff:.1e}\n"
              f"          nDCG@10 held {scores[0]:.4f} file {scores[1]:.4f}")


if __name__ == "__main__":
    main()

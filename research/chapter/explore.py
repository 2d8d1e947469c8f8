"""Issue 33 item 1: how should the open chapter apply? Sweeps the app's chapter rules on the golden set asked
with no chapter, the chapter it is about and an unrelated chapter (``evaluate/chapters.py``), re-ranking one
retrieval per question (the pool does not depend on the chapter), so a sweep takes seconds.

    .venv/bin/python research/chapter/explore.py DEMO.db [--proxy URL]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
from dataclasses import replace
from pathlib import Path

from amicus_desktop.cli.relevance import backend_for
from amicus_desktop.core.preset import APP
from amicus_desktop.core.query import RankingPolicy
from amicus_desktop.evaluate import metrics
from amicus_desktop.evaluate.chapters import VARIANTS, chapter_variants
from amicus_desktop.evaluate.golden import load
from amicus_desktop.evaluate.relevance import db_model, proxy_for
from amicus_desktop.evaluate.run import EvalConfig
from amicus_desktop.retrieval import Retriever
from amicus_desktop.retrieval.pipeline import rerank_result
from amicus_desktop.store.scripture import ScriptureStore

KINDS = ("chapter", "passage", "topic", "question", "word")


def policies() -> list[tuple[str, RankingPolicy]]:
    base = APP.policy
    out = [("app today (×1.5 everywhere)", base)]
    for tau in (0.5, 0.6, 0.7, 0.8, 0.9, 1.0):
        out.append((f"relation ≥ {tau:g}", replace(base, chapter_relation=tau)))
    for phi in (0.6, 0.7, 0.8, 0.9):
        out.append((f"floor {phi:g}", replace(base, chapter_floor=phi)))
    for tau in (0.7, 0.8, 0.9):
        for phi in (0.7, 0.8):
            out.append((f"relation ≥ {tau:g} + floor {phi:g}", replace(base, chapter_relation=tau, chapter_floor=phi)))
    return out


async def main(db: Path, golden_path: Path, proxy: str) -> None:
    golden = load(golden_path)
    with ScriptureStore(db) as store:
        sets = chapter_variants(store, golden)
    retriever = Retriever(db, proxy)
    await retriever.open()
    book_ids = sorted(await retriever.run_db(lambda s: s.book_ids()))
    config = EvalConfig.of(APP)
    results = {}
    for q in golden.queries:
        ctx = config.context(replace(q, chapter=None), book_ids)
        results[q.id] = (ctx, await retriever.retrieve(ctx))
    await retriever.aclose()
    kind = {q.id: q.kind for q in golden.queries}
    same = sum(a.chapter == b.chapter for a, b in zip(sets["about"].queries, golden.queries, strict=True)
               if a.chapter and b.kind == "chapter")
    total = sum(q.kind == "chapter" for q in golden.queries)
    print(f"'about' = the set's own chapter for {same} of {total} chapter questions")
    asked_chapters = {v: {q.id: q.chapter for q in sets[v].queries} for v in VARIANTS}
    asked_chapters["as set"] = {q.id: q.chapter for q in golden.queries}
    judg = {q.id: q.judgments for q in golden.queries}
    from amicus_desktop.understand import parse_passage
    header = f"{'rule':<34}{'variant':<10}" + "".join(f"{k[:8]:>9}" for k in ("all", *KINDS))
    print(header)
    for label, policy in policies():
        for variant in ("as set", *VARIANTS):
            per = {}
            for qid, (ctx, result) in results.items():
                ch = asked_chapters[variant][qid]
                chapter = parse_passage(ch, book_ids, check_bounds=False).chapter_ref if ch else None
                r = rerank_result(result, ctx.replace(chapter=chapter, policy=policy))
                ranked = tuple(x.chunk_id for x in r.ranked[:10])
                per[qid] = metrics.scores(ranked, judg[qid])["ndcg@10"]
            row = [statistics.fmean(per.values())] + [statistics.fmean(v for q, v in per.items() if kind[q] == k)
                                                      for k in KINDS]
            print(f"{label:<34.34}{variant:<10}" + "".join(f"{x:9.3f}" for x in row))
        sys.stdout.flush()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("db", type=Path)
    p.add_argument("--golden", type=Path, default=Path("resources/golden/demo.json"))
    p.add_argument("--proxy")
    a = p.parse_args()
    if a.proxy:
        asyncio.run(main(a.db, a.golden, a.proxy))
    else:
        with proxy_for(backend_for(db_model(a.db)) or "local") as url:  # the library's own model
            asyncio.run(main(a.db, a.golden, url))

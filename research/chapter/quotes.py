"""Issue 33: a question that quotes the open chapter ("all things work together for good" with Romans 8 open)
relates to it. Retrieves each golden question once with the app's preset and no chapter, then re-ranks under
each way of using the quoted verses (:mod:`amicus_desktop.candidates.quoted`), asked as the set asks it and,
for a set with chapters, with no chapter, the chapter it is about and an unrelated one (``evaluate/chapters.py``).
nDCG@10 over all questions and per kind (per kind and half for a set with halves).

``--clauses BOOK …`` asks instead a clause of every fourth verse of the books' chapters (verses 1, 5, 9, …: the
verse's longest clause between punctuation, its first seven words, at least four), as a reader who half
remembers a verse types it, with no chapter open and with the verse's own chapter open, and reports how often a
commentary note covering the verse (``section_panel``) is in the top 3 and the top 10, and how often the open
chapter was set aside.

    .venv/bin/python research/chapter/quotes.py DB [--golden resources/golden/demo.json] [--proxy URL]
    .venv/bin/python research/chapter/quotes.py DB --clauses romans john [--proxy URL]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
from dataclasses import replace
from pathlib import Path

from amicus_desktop.core.references import ChapterRef
from amicus_desktop.core.results import Origin, RetrievalResult
from amicus_desktop.evaluate import metrics
from amicus_desktop.evaluate.chapters import VARIANTS, chapter_variants
from amicus_desktop.evaluate.golden import GoldenQuery, load
from amicus_desktop.evaluate.relevance import APP_ROW, proxy_for
from amicus_desktop.retrieval import Retriever
from amicus_desktop.retrieval.pipeline import rerank_result
from amicus_desktop.store.library import LibraryStore
from amicus_desktop.store.scripture import ScriptureStore
from amicus_desktop.understand import parse_passage


def without_quotes(result: RetrievalResult, *, join: bool, relate: bool) -> RetrievalResult:
    """``result`` as if the quoted verses' notes had not joined the pool (``join``) or did not relate the
    open chapter (``relate``)."""
    kept = result.candidates if join else tuple(c for c in result.candidates if c.origins != {Origin.QUOTE})
    return replace(result, candidates=kept, quoted=result.quoted if relate else ())


CONFIGS = (("the app before (no quotes)", False, False), ("quotes relate the chapter", False, True),
           ("quoted notes join the pool", True, False), ("both (the app now)", True, True))


async def main(db: Path, golden_path: Path, proxy: str) -> None:
    golden = load(golden_path)
    chaptered = any(q.chapter for q in golden.queries)
    sets = {"as set": golden}
    if chaptered:
        with ScriptureStore(db) as store:
            sets.update(chapter_variants(store, golden))
    retriever = Retriever(db, proxy)
    await retriever.open()
    book_ids = sorted(await retriever.run_db(lambda s: s.book_ids()))
    config = APP_ROW
    results = {}
    for q in golden.queries:
        ctx = config.context(replace(q, chapter=None), book_ids)
        results[q.id] = (ctx, await retriever.retrieve(ctx))
    await retriever.aclose()
    quoting = sum(bool(r.quoted) for _, r in results.values())
    joined = sum(sum(c.origins == {Origin.QUOTE} for c in r.candidates) for _, r in results.values())
    print(f"{quoting} of {len(results)} questions quote a verse; {joined} chunks joined by quotes alone")
    kinds = list(dict.fromkeys(q.kind for q in golden.queries))
    halves = all("split" in q.extra for q in golden.queries)
    cols = [(k, h) for k in kinds for h in ("train", "held-out", "all")] if halves else \
        [("all", "all"), *((k, "all") for k in kinds)]
    print(f"{'configuration':<32}{'variant':<10}" + "".join(f"{(k[:5] + '/' + h[:4]):>11}" for k, h in cols))
    judg = {q.id: q.judgments for q in golden.queries}
    for label, join, relate in CONFIGS:
        for variant in (("as set", *VARIANTS) if chaptered else ("as set",)):
            chapters = {q.id: q.chapter for q in sets[variant].queries}
            per = {}
            for q in golden.queries:
                ctx, result = results[q.id]
                ch = chapters[q.id]
                chapter = parse_passage(ch, book_ids, check_bounds=False).chapter_ref if ch else None
                r = rerank_result(without_quotes(result, join=join, relate=relate), ctx.replace(chapter=chapter))
                per[q.id] = metrics.scores(tuple(x.chunk_id for x in r.ranked[:10]), judg[q.id])["ndcg@10"]
            row = [statistics.fmean(per[q.id] for q in golden.queries if k in (q.kind, "all")
                                    and h in (q.extra.get("split"), "all")) for k, h in cols]
            print(f"{label:<32.32}{variant:<10}" + "".join(f"{x:11.3f}" for x in row), flush=True)


def clauses(store: LibraryStore, books: list[str]) -> list[tuple[str, int, int, str]]:
    """(book, chapter, verse, clause) for every fourth verse of ``books``' chapters that has a clause to ask."""
    index = store.verse_index()
    translation = index.default
    assert translation is not None
    out = []
    for book in books:
        chapter = 1
        while verses := index.chapter(translation, book, chapter):
            for verse, text in verses[::4]:
                words = max(re.split(r"[,;:.!?“”‘’]", text), key=len).split()[:7]
                if len(words) >= 4:
                    out.append((book, chapter, verse, " ".join(words)))
            chapter += 1
    return out


async def ask_clauses(db: Path, books: list[str], proxy: str) -> None:
    retriever = Retriever(db, proxy)
    await retriever.open()
    asked = await retriever.run_db(lambda s: clauses(s, books))
    book_ids = sorted(await retriever.run_db(lambda s: s.book_ids()))
    results = []
    for book, chapter, verse, text in asked:
        ctx = APP_ROW.context(replace(_QUESTION, query=text), book_ids)
        results.append((book, chapter, verse, ctx, await retriever.retrieve(ctx)))
    await retriever.aclose()
    quoting = sum(ChapterRef(b, c) in r.quoted for b, c, _, _, r in results)
    print(f"{len(results)} clauses; {quoting} quote their own chapter (by the rule), "
          f"{sum(bool(r.quoted) for *_, r in results)} quote some verse")
    print(f"{'configuration':<32}{'chapter':<10}{'note top 3':>11}{'top 10':>8}{'set aside':>10}")
    for label, join, relate in CONFIGS:
        for open_ in (False, True):
            top3 = top10 = aside = 0
            for book, chapter, verse, ctx, result in results:
                ref = ChapterRef(book, chapter)
                r = rerank_result(without_quotes(result, join=join, relate=relate),
                                  ctx.replace(chapter=ref if open_ else None))
                m = [x.rank for x in r.ranked if x.candidate.source_type == "section_panel"
                     and (x.candidate.metadata.book_id, x.candidate.metadata.chapter_num) == (book, chapter)
                     and (x.candidate.metadata.verse_start or 0) <= verse <= (x.candidate.metadata.verse_end or 999)]
                top3 += bool(m) and min(m) <= 3
                top10 += bool(m)
                aside += any(x.breakdown.chapter_off_topic for x in r.ranked)
            n = len(results)
            print(f"{label:<32.32}{'open' if open_ else 'none':<10}{top3 / n:11.0%}{top10 / n:8.0%}"
                  f"{aside / n if open_ else 0:10.0%}", flush=True)


_QUESTION = GoldenQuery(id="clause", query="", judgments={})


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("db", type=Path)
    p.add_argument("--golden", type=Path, default=Path("resources/golden/demo.json"))
    p.add_argument("--proxy")
    p.add_argument("--clauses", nargs="+", metavar="BOOK")
    a = p.parse_args()

    def run(url: str) -> None:
        asyncio.run(ask_clauses(a.db, a.clauses, url) if a.clauses else main(a.db, a.golden, url))

    if a.proxy:
        run(a.proxy)
    else:
        with proxy_for("local") as url:
            run(url)

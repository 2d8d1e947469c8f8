"""Issue 33 item 7, second round: what lifts *full questions* on the whole Bible. Asks the set once with dense only,
BM25 only and the app preset, re-ranks the app's retrieval under fusion and ranking variants (no search), and
retrieves again for the variants that change the pool (pool depth, the keyword words). Same columns as
``explore.py``; with the demo set (``--golden resources/golden/demo.json``) per kind.

    .venv/bin/python research/bible/questions.py LIBRARY.db [--golden FILE] [--retrieve]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from explore import columns, report, retrieve_all, top  # type: ignore[import-not-found]

from amicus_desktop.core.query import Fusion, FusionMethod, RetrievalContext
from amicus_desktop.evaluate.golden import load
from amicus_desktop.evaluate.relevance import APP_ROW, BM25, DENSE, proxy_for
from amicus_desktop.retrieval import Retriever
from amicus_desktop.retrieval.pipeline import rerank_result
from amicus_desktop.understand import query as understand_query

Change = Callable[[RetrievalContext], RetrievalContext]


def fusion(alpha: float) -> Change:
    return lambda ctx: ctx.replace(fusion=Fusion(alpha=alpha))


def rrf(k: int) -> Change:
    return lambda ctx: ctx.replace(fusion=Fusion(method=FusionMethod.RRF, rrf_k=k))


def policy(**changes: object) -> Change:
    return lambda ctx: ctx.replace(policy=replace(ctx.policy, **changes))


def weights(**changes: object) -> Change:
    return lambda ctx: ctx.replace(weights=replace(ctx.weights, **changes))


RERANKS: list[tuple[str, Change]] = [
    *((f"alpha {a}", fusion(a)) for a in (0.5, 0.6, 0.65, 0.75, 0.8, 0.85, 0.9, 1.0)),
    ("rrf k 60", rrf(60)),
    ("spread 0.7", policy(spread=0.7)),
    ("spread 0.9", policy(spread=0.9)),
    ("spread 0.95", policy(spread=0.95)),
    ("focus off", policy(focus=None)),
    ("focus 1.35", policy(focus=1.35)),
    ("cap 2", weights(per_scholar_cap=2)),
    ("cap 4", weights(per_scholar_cap=4)),
]

#: words a full question frames its topic with, beyond the stop-words (tried: the keyword half without them)
FRAMING = frozenset("""
    like look come make makes happens happen true ever right kind bible christians believers believer people
    god god's us think learn find part play get getting called stay
""".split())


@contextmanager
def framing_dropped(words: frozenset[str] = FRAMING) -> Iterator[None]:
    saved = understand_query.STOP_WORDS
    understand_query.STOP_WORDS = saved | words
    try:
        yield
    finally:
        understand_query.STOP_WORDS = saved


async def main(db: Path, golden_path: Path, proxy: str, again: bool, only_content: bool = False) -> None:
    golden = list(load(golden_path).queries)
    retriever = Retriever(db, proxy)
    await retriever.open()
    books = sorted(await retriever.run_db(lambda s: s.book_ids()))
    out: list[str] = []
    print(f"{'ranking':<44}" + "".join(f"{k[:1].upper() + ' ' + h[:4]:>7}" for k, h in columns(golden))
          + "   dict%  none≥2")
    for config in (DENSE, BM25):
        res = await retrieve_all(retriever, config, golden, books)
        report(config.label[:30], {k: top(v) for k, v in res.items()}, golden, out)
    app = await retrieve_all(retriever, APP_ROW, golden, books)
    report("app preset", {k: top(v) for k, v in app.items()}, golden, out)
    for label, change in RERANKS:
        rows = {q.id: top(rerank_result(app[q.id], change(app[q.id].context))) for q in golden}
        report(label, rows, golden, out)
    if not again:
        await retriever.aclose()
        return
    with framing_dropped():
        content = [replace(q, query=" ".join(understand_query.keywords(q.query))) for q in golden]
    for config in (DENSE, APP_ROW):
        res = await retrieve_all(retriever, config, content, books)
        report(f"content words only: {config.label[:20]}", {k: top(v) for k, v in res.items()}, golden, out)
    if only_content:
        await retriever.aclose()
        return
    for label, config in (("pool 80", replace(APP_ROW, candidates=80)),
                          ("pool 150", replace(APP_ROW, candidates=150))):
        t0 = time.perf_counter()
        res = await retrieve_all(retriever, config, golden, books)
        report(f"{label} ({time.perf_counter() - t0:.0f} s)", {k: top(v) for k, v in res.items()}, golden, out)
    vocab = sorted({w for q in golden for w in understand_query.keywords(q.query)})

    def share(store: object) -> dict[str, float]:
        from amicus_desktop.candidates.lexical import KeywordIndex
        index = KeywordIndex.for_store(store)  # type: ignore[arg-type]
        return {w: index.doc_freq(w) / index.total for w in vocab}

    df = await retriever.run_db(share)
    common = {t: frozenset(w for w, f in df.items() if f > t) for t in (0.01, 0.02, 0.05, 0.1)}
    for t, words in common.items():
        print(f"  in more than {t:.0%} of chunks: {' '.join(sorted(words))}")
    variants = [("framing words out of the keywords", FRAMING),
                ("… but God and people kept", FRAMING - {"god", "god's", "people"}),
                *((f"words in > {t:.0%} of chunks out", w) for t, w in common.items())]
    for label, words in variants:
        with framing_dropped(words):
            res = await retrieve_all(retriever, APP_ROW, golden, books)
        report(label, {k: top(v) for k, v in res.items()}, golden, out)
        with framing_dropped(words):
            for name, change in RERANKS[-6:]:
                rows = {q.id: top(rerank_result(res[q.id], change(res[q.id].context))) for q in golden}
                report(f"  + {name}", rows, golden, out)
    await retriever.aclose()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("db", type=Path)
    p.add_argument("--golden", type=Path, default=Path("resources/golden/bible.json"))
    p.add_argument("--proxy")
    p.add_argument("--retrieve", action="store_true", help="also the variants that search again")
    p.add_argument("--content", action="store_true", help="only the content-words rows after the re-ranks")
    a = p.parse_args()
    with proxy_for("local") as url:
        asyncio.run(main(a.db, a.golden, a.proxy or url, a.retrieve, a.content))

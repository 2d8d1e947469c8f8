"""Issue 33 item 7: the app's ranking on a whole-Bible library, and what lifts it. Asks the whole-Bible golden
set (``resources/golden/bible.json``) with dense only, BM25 only and the app preset, then re-ranks the app's one
retrieval per question under each candidate rule (a re-rank needs no search, so a sweep takes seconds), and
retrieves again for the rules that change the pool. nDCG@10 per kind (topic names, full questions) and per half
(train / held-out), the share of the top 10 that is dictionary material, and the share of questions with
nothing graded ≥ 2 in their top 10.

    .venv/bin/python research/bible/explore.py BIBLE.db [--golden resources/golden/bible.json] [--proxy URL]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from amicus_desktop.cli.relevance import backend_for
from amicus_desktop.core.preset import APP
from amicus_desktop.core.results import Candidate, RetrievalResult
from amicus_desktop.evaluate import metrics
from amicus_desktop.evaluate.golden import GoldenQuery, load
from amicus_desktop.evaluate.relevance import APP_ROW, BM25, DENSE, db_model, proxy_for
from amicus_desktop.evaluate.run import EvalConfig
from amicus_desktop.rerank import prior, spread
from amicus_desktop.retrieval import Retriever
from amicus_desktop.retrieval.pipeline import rerank_result

DICTIONARY = {"word_study", "lexicon_entry"}
Row = dict[str, tuple[tuple[str, ...], tuple[str, ...]]]  # qid → (ranked ids, their source types)


def top(result: RetrievalResult) -> tuple[tuple[str, ...], tuple[str, ...]]:
    ranked = [r for r in result.results if not r.pinned][:10]
    return tuple(r.candidate.chunk_id for r in ranked), tuple(r.candidate.source_type for r in ranked)


def columns(golden: list[GoldenQuery]) -> list[tuple[str, str]]:
    """(kind, half) per column: a set with halves (``split``) reports topic names and full questions per half,
    any other set each of its kinds over all its questions."""
    if all("split" in q.extra for q in golden):
        return [(k, h) for k in ("topic", "question") for h in ("train", "held-out", "all")]
    kinds = list(dict.fromkeys(q.kind for q in golden))
    return [("all", "all"), *((k, "all") for k in kinds)]


def report(label: str, rows: Row, golden: list[GoldenQuery], out: list[str]) -> dict[str, float]:
    cells: dict[str, float] = {}
    for kind, half in columns(golden):
        qs = [q for q in golden if kind in (q.kind, "all") and (half == "all" or q.extra.get("split") == half)]
        cells[f"{kind}/{half}"] = statistics.fmean(metrics.scores(rows[q.id][0], q.judgments)["ndcg@10"] for q in qs)
    qs = golden
    dict_share = statistics.fmean(sum(t in DICTIONARY for t in rows[q.id][1]) / 10 for q in qs)
    nothing = statistics.fmean(not any(q.judgments.get(c, 0) >= 2 for c in rows[q.id][0]) for q in qs)
    line = f"{label:<44.44}" + "".join(f"{v:7.3f}" for v in cells.values()) + f"{dict_share:8.0%}{nothing:8.0%}"
    out.append(line)
    print(line)
    sys.stdout.flush()
    return cells


@contextmanager
def priors(table_name: str = "TOPIC_PRIORS", **changes: float) -> Iterator[None]:
    table = getattr(prior, table_name)
    assert isinstance(table, dict)
    saved = dict(table)
    for name, value in changes.items():
        table[prior.Material(name)] = value
    try:
        yield
    finally:
        table.clear()
        table.update(saved)


async def retrieve_all(retriever: Retriever, config: EvalConfig, golden: list[GoldenQuery],
                       books: list[str]) -> dict[str, RetrievalResult]:
    out = {}
    for q in golden:
        out[q.id] = await retriever.retrieve(config.context(q, books))
    return out


@contextmanager
def dictionary_as_one(cap: int | None = None) -> Iterator[None]:
    """The spread counting every dictionary chunk (lexicon entries, word studies, any author) as one source."""
    saved = spread.source_key

    def key(candidate: Candidate) -> tuple[str, str] | None:
        if candidate.source_type in DICTIONARY:
            return ("dictionary", "")
        return saved(candidate)

    spread.source_key = key
    try:
        yield
    finally:
        spread.source_key = saved


@contextmanager
def both(*managers: Callable[[], object]) -> Iterator[None]:
    with contextlib.ExitStack() as stack:
        for m in managers:
            stack.enter_context(m())  # type: ignore[arg-type]
        yield


@contextmanager
def named_lowered() -> Iterator[None]:
    """The spread lowering chunks on a named passage like any other (before issue 33's Romans 9 case)."""
    spread.NAMED_EXEMPT = False
    try:
        yield
    finally:
        spread.NAMED_EXEMPT = True


def wide(**changes: float) -> Callable[[], object]:
    return lambda: priors("WIDE_PRIORS", **changes)


RERANKS: list[tuple[str, Callable[[], object]]] = [
    ("the spread lowering a named passage's notes", named_lowered),
    ("no chapter: the topic priors (before)", wide(word_study=0.8, lexicon=0.5)),
    ("no chapter: word study 0.6, lexicon 0.4", wide(word_study=0.6, lexicon=0.4)),
    ("no chapter: word study 0.4, lexicon 0.25", wide(word_study=0.4, lexicon=0.25)),
    ("no chapter: word study 0.3, lexicon 0.2", wide(word_study=0.3, lexicon=0.2)),
    ("no chapter: 0.5/0.3, chains 0.4", wide(cross_reference=0.4)),
    ("every question: 0.5/0.3", lambda: both(wide(), lambda: priors(word_study=0.5, lexicon=0.3))),
    ("dictionary one source in the spread", dictionary_as_one),
]


async def main(db: Path, golden_path: Path, proxy: str, pools: list[str]) -> None:
    golden = list(load(golden_path).queries)
    retriever = Retriever(db, proxy)
    await retriever.open()
    books = sorted(await retriever.run_db(lambda s: s.book_ids()))
    out: list[str] = []
    head = f"{'ranking':<44}" + "".join(f"{k[:1].upper() + ' ' + h[:4]:>7}" for k, h in columns(golden)) \
        + "   dict%  none≥2"
    print(head)
    for config in (DENSE, BM25):
        t0 = time.perf_counter()
        res = await retrieve_all(retriever, config, golden, books)
        report(f"{config.label[:30]} ({time.perf_counter() - t0:.0f} s)", {k: top(v) for k, v in res.items()},
               golden, out)
    t0 = time.perf_counter()
    app = await retrieve_all(retriever, APP_ROW, golden, books)
    report(f"app preset ({time.perf_counter() - t0:.0f} s)", {k: top(v) for k, v in app.items()}, golden, out)
    for label, change in RERANKS:
        with change():  # type: ignore[attr-defined]
            rows = {q.id: top(rerank_result(app[q.id], app[q.id].context)) for q in golden}
        report(label, rows, golden, out)
    for name in pools:
        key, _, raw = name.partition("=")
        policy = replace(APP.policy, **{key: int(raw) if raw.isdigit() else True})
        config = replace(APP_ROW, policy=policy)
        t0 = time.perf_counter()
        res = await retrieve_all(retriever, config, golden, books)
        report(f"app + {name} ({time.perf_counter() - t0:.0f} s)", {k: top(v) for k, v in res.items()}, golden, out)
        for label, change in RERANKS:
            with change():  # type: ignore[attr-defined]
                rows = {q.id: top(rerank_result(res[q.id], res[q.id].context)) for q in golden}
            report(f"  {name} + {label}", rows, golden, out)
    await retriever.aclose()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("db", type=Path)
    p.add_argument("--golden", type=Path, default=Path("resources/golden/bible.json"))
    p.add_argument("--proxy")
    p.add_argument("--pool", action="append", default=[],
                   help="a RankingPolicy field that changes the pool: passage_bridge, commentary_pool=40")
    a = p.parse_args()
    if a.proxy:
        asyncio.run(main(a.db, a.golden, a.proxy, a.pool))
    else:
        with proxy_for(backend_for(db_model(a.db)) or "local") as url:  # the library's own model
            asyncio.run(main(a.db, a.golden, url, a.pool))

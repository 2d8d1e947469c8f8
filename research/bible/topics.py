"""Issue 33 item 7: the query-to-topic bridge through Nave's Topical Bible. A question's nearest Nave's entries
(``nave:TOPIC:BOOK``, each listing the verses of one book that are about the topic) → the verses they list → the
commentary notes covering those verses, the nearest the question joining the pool (or, as a probe, the listed
verses counted as passages the question names, so their notes get the named passage's boost). Retrieves each
question once with the app's preset, adds the bridge's notes measured as the pool measures every candidate, and
re-ranks; nDCG@10 per kind (per kind and half for a set with halves), and for a set with chapters also asked with
no chapter, the chapter it is about and an unrelated one.

Said plainly: the whole-Bible set's judgments come from Nave's own verse lists, so a gain there says little; the
demo set's hand judgments decide.

    .venv/bin/python research/bible/topics.py DB [--golden resources/golden/demo.json] [--proxy URL]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
from dataclasses import replace
from pathlib import Path
from typing import cast

import numpy as np

from amicus_desktop.candidates import dense
from amicus_desktop.candidates.lexical import KeywordIndex
from amicus_desktop.core.query import RetrievalContext
from amicus_desktop.core.references import PassageRef
from amicus_desktop.core.results import Candidate, Origin, RetrievalResult
from amicus_desktop.evaluate import metrics
from amicus_desktop.evaluate.chapters import VARIANTS, chapter_variants
from amicus_desktop.evaluate.golden import load
from amicus_desktop.evaluate.relevance import APP_ROW, proxy_for
from amicus_desktop.retrieval import Retriever
from amicus_desktop.retrieval.pipeline import rerank_result
from amicus_desktop.store.library import LibraryStore
from amicus_desktop.store.scripture import ScriptureStore
from amicus_desktop.understand import parse_passage
from amicus_desktop.verses import VerseQuery, VerseSearch

COMMENTARY = frozenset({"section_panel", "chapter_panel"})
#: "8:10, 11", "8:4-11": a verse list of a Nave's entry (its book is the entry's)
VERSES = re.compile(r"(\d+):(\d+)(?:[-–](\d+))?((?:,\s*\d+(?![\d:]))*)")
MAX_VERSES = 120


def listed(text: str, book: str) -> list[PassageRef]:
    out = []
    for c, v, end, more in VERSES.findall(text.split("\n", 1)[-1]):
        out.append(PassageRef(book, int(c), int(v), int(end or v)))
        out += [PassageRef(book, int(c), int(x), int(x)) for x in re.findall(r"\d+", more)]
    return out


_NAVE: dict[int, list[int]] = {}


def nave_rows(store: LibraryStore) -> list[int]:
    key = id(store)
    if key not in _NAVE:
        sql = "SELECT rowid FROM chunk_text WHERE chunk_id LIKE 'nave:%'"
        _NAVE[key] = [int(r) for (r,) in cast(ScriptureStore, store).rows(sql)]
    return _NAVE[key]


def nave_verses(store: LibraryStore, vector: np.ndarray, topics: int) -> list[PassageRef]:
    """(DB thread) The verses the question's ``topics`` nearest Nave's entries list."""
    near = dense.nearest_among(store, vector, nave_rows(store), topics)
    verses: list[PassageRef] = []
    for _cid, _kind, _src, text, meta in store.fetch([r for r, _ in near]).values():
        if meta.book_id:
            verses += listed(text, meta.book_id)
    return verses


def topic_bridge(store: LibraryStore, vector: np.ndarray, keywords: tuple[str, ...], topics: int,
                 notes: int, pooled: set[int], found: list[PassageRef] | None = None,
                 ) -> tuple[list[Candidate], list[PassageRef]]:
    """(DB thread) The commentary notes on the verses of the question's ``topics`` nearest Nave's entries (or on
    the verses ``found`` by verse search), the ``notes`` nearest the question not already pooled, measured as the
    pool measures; and the verses."""
    verses = nave_verses(store, vector, topics) if found is None else found
    covering: set[int] = set()
    for ref in verses[:MAX_VERSES]:
        covering.update(store.covering(ref))
    rows = store.fetch(covering)
    commentary = sorted(r for r, row in rows.items() if row[1] in COMMENTARY)
    nearest = dense.nearest_among(store, vector, commentary, notes + len(pooled))
    chosen = [r for r, _ in nearest if r not in pooled][:notes]
    dist = dense.distances(store, vector, chosen)
    lex = KeywordIndex.for_store(store).scores(keywords, chosen) if keywords else {}
    out = []
    for r in chosen:
        cid, kind, src, text, meta = rows[r]
        out.append(Candidate(r, cid, kind, src, text, meta, distance=dist[r],
                             lexical=lex.get(r, 0.0) if keywords else None, origins=frozenset({Origin.REFERENCE})))
    return out, verses[:MAX_VERSES]


CONFIGS = [("the app (no bridge)", 0, 0, False)] + [
    (f"topics {t}, notes {n}", t, n, False) for t in (1, 3, 5) for n in (5, 10)] + [
    ("topics 3, notes 10, verses named", 3, 10, True), ("topics 1, notes 0, verses named", 1, 0, True)] + [
    (f"verse search top {-t}, notes {n}", t, n, False) for t in (-3, -10) for n in (5, 10)]


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
    base: dict[str, tuple[RetrievalContext, RetrievalResult, np.ndarray]] = {}
    for q in golden.queries:
        ctx = APP_ROW.context(replace(q, chapter=None), book_ids)
        result = await retriever.retrieve(ctx)
        vector = (await retriever.embedder.embed(ctx.query)).vector
        base[q.id] = (ctx, result, vector)
    bridged: dict[tuple[str, int, int], tuple[RetrievalResult, list[PassageRef]]] = {}
    verse_search = VerseSearch(retriever)
    for _label, t, n, _named in CONFIGS:
        for qid, (_ctx, result, vector) in base.items():
            if t == 0:
                bridged[(qid, t, n)] = (result, [])
                continue
            pooled = {c.rowid for c in result.candidates}
            found = None
            if t < 0:  # the Verses engine's top -t hits, as the Verses tab shows them
                hits = (await verse_search.search(VerseQuery(text=result.query, k=-t))).results
                found = [PassageRef(h.book_id, h.chapter_num, h.verse_start, h.verse_end) for h in hits]

            def bridge(s: LibraryStore, v: np.ndarray = vector, r: RetrievalResult = result, t: int = t, n: int = n,
                       p: set[int] = pooled, f: list[PassageRef] | None = found,
                       ) -> tuple[list[Candidate], list[PassageRef]]:
                return topic_bridge(s, v, r.trace.keywords, t, n, p, f)

            added, verses = await retriever.run_db(bridge)
            bridged[(qid, t, n)] = (replace(result, candidates=(*result.candidates, *added)), verses)
    await retriever.aclose()
    kinds = list(dict.fromkeys(q.kind for q in golden.queries))
    halves = all("split" in q.extra for q in golden.queries)
    cols = [(k, h) for k in kinds for h in ("train", "held-out", "all")] if halves else \
        [("all", "all"), *((k, "all") for k in kinds)]
    print(f"{'configuration':<36}{'variant':<10}" + "".join(f"{(k[:5] + '/' + h[:4]):>11}" for k, h in cols))
    judg = {q.id: q.judgments for q in golden.queries}
    for label, t, n, named in CONFIGS:
        for variant in (("as set", *VARIANTS) if chaptered else ("as set",)):
            chapters = {q.id: q.chapter for q in sets[variant].queries}
            per = {}
            for q in golden.queries:
                ctx = base[q.id][0]
                result, verses = bridged[(q.id, t, n)]
                ch = chapters[q.id]
                chapter = parse_passage(ch, book_ids, check_bounds=False).chapter_ref if ch else None
                if named and not result.trace.references:
                    result = replace(result, trace=replace(result.trace, references=tuple(verses[:24])))
                r = rerank_result(result, ctx.replace(chapter=chapter))
                per[q.id] = metrics.scores(tuple(x.chunk_id for x in r.ranked[:10]), judg[q.id])["ndcg@10"]
            row = [statistics.fmean(per[q.id] for q in golden.queries if k in (q.kind, "all")
                                    and h in (q.extra.get("split"), "all")) for k, h in cols]
            print(f"{label:<36.36}{variant:<10}" + "".join(f"{x:11.3f}" for x in row), flush=True)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("db", type=Path)
    p.add_argument("--golden", type=Path, default=Path("resources/golden/demo.json"))
    p.add_argument("--proxy")
    p.add_argument("--only", help="run only the configurations whose label starts with this (and the app's)")
    a = p.parse_args()
    if a.only:
        CONFIGS[:] = [c for c in CONFIGS if c[1] == 0 or c[0].startswith(a.only)]
    if a.proxy:
        asyncio.run(main(a.db, a.golden, a.proxy))
    else:
        with proxy_for("local") as url:
            asyncio.run(main(a.db, a.golden, url))

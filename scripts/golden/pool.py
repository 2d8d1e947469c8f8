"""Pooling for hand judgment: the union of what several rankings put in their top N, per question.

Judging every chunk for every question is impossible; judging only what one system returns would
favour that system. As in TREC, the chunks a judge reads for a question are the union of the top N of
several different rankings, so that no system under test is measured only on its own results. The
packets hold each chunk's whole text, its title, place and author; the judge sees no score, no rank and
no system name (chunks are listed by id).

Two question files, two pools, and a pass for the gaps a later ranking leaves:

- **natural** (``natural_questions.json``: ``[id, question, chapter]`` lists): the top 10 of eight
  rankings — every mode, with and without the contract's boosts (cap 2), and two fusions — plus every
  commentary note on the open chapter, whether any ranking found it or not.
- **topical** (``topical_questions.json``: objects with ``named`` passages): the top 20 of eight
  rankings with **no scholar cap** — semantic, keyword, and hybrid at convex α 0.5 and 0.7, each with the
  contract's boosts and with none — plus the app's default (hybrid α 0.7, boosts, cap 2), so that a later
  ranking design finds its top 10 judged. To these the judge's own chunks are added: every Matthew Henry
  and Scofield note whose verses meet a passage the judge named for the question in the questions file,
  committed before any pool was drawn. The packet's ``judge_named`` lists them, for the record; the
  judge grades them like any other chunk.
- **gaps** (``--gaps GOLDEN.json``): after a change to the library or the ranking, the chunks that the
  top 10 of any row of the relevance benchmark (``evaluate/relevance.py`` ``configurations()``: dense,
  BM25, the seed default, hybrid, the app preset and its ablations) puts before a reader and that the
  golden set does not judge yet, per question, asked exactly as ``eval`` asks it. It prints each row's
  judged share of the top 10 and writes a packet only for a question with something new, keeping any
  grades already in that packet (``supplement/gaps/``). Word questions get packets too; their grades come
  from ``strongs_questions.py --pooled``, not from a hand judge.

The judge writes each question's grades and reasons to a file of its own (``judgments/``, or
``judgments/topical/`` with ``judge_named`` copied from the packet, or into the gaps packet itself),
which ``assemble.py`` reads.

    .venv/bin/python scripts/golden/pool.py --db DEMO.db --proxy URL --questions natural_questions.json --out DIR
    .venv/bin/python scripts/golden/pool.py --db DEMO.db --proxy URL --questions topical_questions.json \\
        --out scripts/golden/judgments/topical
    .venv/bin/python scripts/golden/pool.py --db DEMO.db --proxy URL --gaps resources/golden/demo.json \\
        --out scripts/golden/supplement/gaps
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from amicus_desktop.core.names import Names
from amicus_desktop.core.query import NO_BOOSTS, BoostWeights, Fusion, FusionMethod, SearchMode
from amicus_desktop.core.results import Candidate
from amicus_desktop.evaluate.golden import GoldenQuery, load
from amicus_desktop.evaluate.relevance import configurations
from amicus_desktop.evaluate.report import judged_share
from amicus_desktop.evaluate.run import EvalConfig, evaluate
from amicus_desktop.present import title
from amicus_desktop.present.titles import author_work, source_label
from amicus_desktop.retrieval import Retriever
from amicus_desktop.store.scripture import ScriptureStore

NATURAL_RANKINGS = [
    EvalConfig(SearchMode.SEMANTIC, BoostWeights()),
    EvalConfig(SearchMode.SEMANTIC, NO_BOOSTS),
    EvalConfig(SearchMode.KEYWORD, BoostWeights()),
    EvalConfig(SearchMode.KEYWORD, NO_BOOSTS),
    EvalConfig(SearchMode.HYBRID, BoostWeights(), Fusion(FusionMethod.CONVEX, 0.5)),
    EvalConfig(SearchMode.HYBRID, NO_BOOSTS, Fusion(FusionMethod.CONVEX, 0.5)),
    EvalConfig(SearchMode.HYBRID, BoostWeights(), Fusion(FusionMethod.CONVEX, 0.7)),
    EvalConfig(SearchMode.HYBRID, BoostWeights(), Fusion(FusionMethod.RRF, 0.5, 60)),
]

UNCAPPED = BoostWeights(per_scholar_cap=None)
TOPICAL_RANKINGS = [
    EvalConfig(mode, weights, fusion)
    for mode, fusion in [
        (SearchMode.SEMANTIC, Fusion()),
        (SearchMode.KEYWORD, Fusion()),
        (SearchMode.HYBRID, Fusion(FusionMethod.CONVEX, 0.5)),
        (SearchMode.HYBRID, Fusion(FusionMethod.CONVEX, 0.7)),
    ]
    for weights in (UNCAPPED, NO_BOOSTS)
] + [EvalConfig(SearchMode.HYBRID, BoostWeights(), Fusion(FusionMethod.CONVEX, 0.7))]


@dataclass(frozen=True)
class Question:
    id: str
    query: str
    chapter: str | None
    kind: str | None = None
    #: passages ("romans:9:6-24", "john:3:16") whose Henry and Scofield notes the judge named
    named: tuple[str, ...] = ()


@dataclass(frozen=True)
class PoolSpec:
    rankings: list[EvalConfig]
    depth: int
    open_chapter_notes: bool


NATURAL = PoolSpec(NATURAL_RANKINGS, depth=10, open_chapter_notes=True)
TOPICAL = PoolSpec(TOPICAL_RANKINGS, depth=20, open_chapter_notes=False)


def read_questions(path: Path) -> tuple[list[Question], PoolSpec]:
    raw: list[Any] = json.loads(path.read_text())
    if all(isinstance(q, list) for q in raw):
        return [Question(str(i), str(t), c) for i, t, c in raw], NATURAL
    return [Question(q["id"], q["query"], q.get("chapter"), q["kind"], tuple(q["named"])) for q in raw], TOPICAL


def _candidates(store: ScriptureStore, sql: str, params: list[Any]) -> list[Candidate]:
    fetched = store.fetch([r[0] for r in store.rows(sql, params)])
    return [Candidate(rowid, *row[:4], metadata=row[4], distance=None) for rowid, row in sorted(fetched.items())]


def _chapter_notes(store: ScriptureStore, book: str, chapter: int) -> list[Candidate]:
    return _candidates(
        store,
        "SELECT t.rowid FROM chunk_text t JOIN chunk_metadata m USING (rowid) WHERE m.book_id = ? "
        "AND m.chapter_num = ? AND t.source_type IN ('section_panel', 'chapter_panel')", [book, chapter])


def _passage_notes(store: ScriptureStore, passage: str) -> list[Candidate]:
    """Matthew Henry's and Scofield's notes whose verses meet ``passage`` ("book:chapter:verse[-verse]")."""
    book, chapter, verses = passage.split(":")
    first, _, last = verses.partition("-")
    return _candidates(
        store,
        "SELECT t.rowid FROM chunk_text t JOIN chunk_metadata m USING (rowid) WHERE t.source_type = 'section_panel' "
        "AND m.scholar_id IN ('matthew-henry', 'c-i-scofield') AND m.book_id = ? AND m.chapter_num = ? "
        "AND m.verse_start <= ? AND m.verse_end >= ?", [book, int(chapter), int(last or first), int(first)])


def packet_chunk(c: Candidate, names: Names) -> dict[str, str]:
    return {
        "chunk_id": c.chunk_id,
        "kind": source_label(c.source_type),
        "title": title(c, names),
        "place": names.reference(c.metadata),
        "author": author_work(c.metadata, names, full=True),
        "text": c.text,
    }


async def pool(db: Path, proxy: str, questions: list[Question], spec: PoolSpec, out: Path) -> None:
    retriever = Retriever(db, proxy)
    try:
        await retriever.open()
        book_ids, names = await retriever.run_db(
            lambda s: (sorted(s.book_ids()), s.names())
        )
        out.mkdir(parents=True, exist_ok=True)
        sizes = []
        for q in questions:
            gq = GoldenQuery(q.id, q.query, {}, chapter=q.chapter)
            seen: dict[str, Candidate] = {}
            for config in spec.rankings:
                result = await retriever.retrieve(config.context(gq, book_ids).replace(k=spec.depth))
                for r in result.ranked[: spec.depth]:
                    seen.setdefault(r.chunk_id, r.candidate)
            if q.chapter and spec.open_chapter_notes:
                book, _, number = q.chapter.partition(":")
                notes = await retriever.run_db(functools.partial(_chapter_notes, book=book, chapter=int(number)))
                for c in notes:
                    seen.setdefault(c.chunk_id, c)
            named: list[str] = []
            for passage in q.named:
                for c in await retriever.run_db(functools.partial(_passage_notes, passage=passage)):
                    named.append(c.chunk_id)
                    seen.setdefault(c.chunk_id, c)
            packet: dict[str, Any] = {"id": q.id, "query": q.query, "chapter": q.chapter}
            if q.kind:
                packet |= {"kind": q.kind, "judge_named": sorted(set(named))}
            # sorted by id: the judge sees no ranking order
            packet["chunks"] = [packet_chunk(c, names) for _, c in sorted(seen.items())]
            (out / f"{q.id}.json").write_text(json.dumps(packet, indent=1, ensure_ascii=False) + "\n")
            sizes.append(len(seen))
            print(f"{q.id:<28} {len(seen):>3} chunks to judge", flush=True)
        mean = sum(sizes) / len(sizes)
        print(f"{len(sizes)} questions, pools of {mean:.1f} chunks (min {min(sizes)}, max {max(sizes)})")
    finally:
        await retriever.aclose()


async def gaps(db: Path, proxy: str, golden_path: Path, out: Path) -> None:
    """Packets of the chunks the benchmark's rows rank in their top 10 and ``golden_path`` does not judge."""
    golden = load(golden_path)
    retriever = Retriever(db, proxy)
    try:
        await retriever.open()
        names = await retriever.run_db(lambda s: s.names())
        new: dict[str, set[str]] = {q.id: set() for q in golden.queries}
        for config in configurations(Fusion()):
            report = await evaluate(retriever, golden, config)
            for q, score in zip(golden.queries, report.queries, strict=True):
                new[q.id] |= {c for c in score.ranked if c not in q.judgments}
            print(f"{config.describe():<46} judged {judged_share(golden, report):6.1%}", flush=True)
        wanted = sorted(set().union(*new.values()))
        rows = await retriever.run_db(functools.partial(
            _candidates, sql="SELECT rowid FROM chunk_text WHERE chunk_id IN (SELECT value FROM json_each(?))",
            params=[json.dumps(wanted)]))
        fetched = {c.chunk_id: c for c in rows}
        out.mkdir(parents=True, exist_ok=True)
        for q in golden.queries:
            path = out / f"{q.id}.json"
            packet: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {
                "id": q.id, "query": q.query, "chapter": q.chapter, "kind": q.kind, "chunks": []}
            known = {c["chunk_id"] for c in packet["chunks"]}
            added = [fetched[c] for c in sorted(new[q.id] - known)]
            if not added:
                continue
            packet["chunks"] = sorted(packet["chunks"] + [packet_chunk(c, names) for c in added],
                                      key=lambda c: str(c["chunk_id"]))
            path.write_text(json.dumps(packet, indent=1, ensure_ascii=False) + "\n")
            print(f"{q.id:<28} {len(added):>3} new chunks to judge", flush=True)
        print(f"{len(wanted)} distinct chunks, {sum(map(len, new.values()))} question-chunk pairs unjudged")
    finally:
        await retriever.aclose()


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--db", type=Path, required=True)
    p.add_argument("--proxy", required=True)
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--questions", type=Path)
    source.add_argument("--gaps", type=Path, metavar="GOLDEN.json")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args()
    if args.gaps:
        asyncio.run(gaps(args.db, args.proxy, args.gaps, args.out))
        return 0
    questions, spec = read_questions(args.questions)
    asyncio.run(pool(args.db, args.proxy, questions, spec, args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

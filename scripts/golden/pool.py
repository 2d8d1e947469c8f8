"""Pooling for hand judgment: the union of what several rankings put in their top 10, per question.

Judging every chunk for every question is impossible; judging only what one system returns would
favour that system. As in TREC, the chunks a judge reads for a question are the union of the top 10 of
several different rankings — every mode, with and without boosts, and two fusions — so that no system
under test is measured only on its own results. For a question asked with a chapter open, every
commentary note on that chapter joins the pool too, whether any ranking found it or not. The packets hold
each chunk's whole text, its title, place and author; the judge sees no score and no system name.

    .venv/bin/python scripts/golden/pool.py --db DEMO.db --proxy URL --questions natural_questions.json --out DIR
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
from pathlib import Path

from amicus_desktop.core.query import NO_BOOSTS, BoostWeights, Fusion, FusionMethod, SearchMode
from amicus_desktop.core.results import Candidate
from amicus_desktop.evaluate.golden import GoldenQuery
from amicus_desktop.evaluate.run import EvalConfig
from amicus_desktop.present import Names, title
from amicus_desktop.present.titles import author_work, reference, source_label
from amicus_desktop.retrieval import Retriever
from amicus_desktop.store.scripture import ScriptureStore

RANKINGS = [
    EvalConfig(SearchMode.SEMANTIC, BoostWeights()),
    EvalConfig(SearchMode.SEMANTIC, NO_BOOSTS),
    EvalConfig(SearchMode.KEYWORD, BoostWeights()),
    EvalConfig(SearchMode.KEYWORD, NO_BOOSTS),
    EvalConfig(SearchMode.HYBRID, BoostWeights(), Fusion(FusionMethod.CONVEX, 0.5)),
    EvalConfig(SearchMode.HYBRID, NO_BOOSTS, Fusion(FusionMethod.CONVEX, 0.5)),
    EvalConfig(SearchMode.HYBRID, BoostWeights(), Fusion(FusionMethod.CONVEX, 0.7)),
    EvalConfig(SearchMode.HYBRID, BoostWeights(), Fusion(FusionMethod.RRF, 0.5, 60)),
]


def _chapter_notes(store: ScriptureStore, book: str, chapter: int) -> list[Candidate]:
    rows = store.rows(
        "SELECT t.rowid FROM chunk_text t JOIN chunk_metadata m USING (rowid) WHERE m.book_id = ? "
        "AND m.chapter_num = ? AND t.source_type IN ('section_panel', 'chapter_panel')", [book, chapter])
    fetched = store.fetch([r[0] for r in rows])
    return [Candidate(rowid, *row[:4], metadata=row[4], distance=None) for rowid, row in sorted(fetched.items())]


async def pool(db: Path, proxy: str, questions: list[list[str | None]], out: Path) -> None:
    retriever = Retriever(db, proxy)
    try:
        await retriever.open()
        book_ids, names = await retriever.run_db(
            lambda s: (sorted(s.book_ids()), Names({b.book_id: b.name for b in s.books()}, s.scholars()))
        )
        out.mkdir(parents=True, exist_ok=True)
        for qid, text, chapter in questions:
            q = GoldenQuery(str(qid), str(text), {}, chapter=chapter)
            seen: dict[str, Candidate] = {}
            for config in RANKINGS:
                result = await retriever.retrieve(config.context(q, book_ids))
                for r in result.ranked[:10]:
                    seen.setdefault(r.chunk_id, r.candidate)
            if chapter:
                book, _, number = str(chapter).partition(":")
                notes = await retriever.run_db(functools.partial(_chapter_notes, book=book, chapter=int(number)))
                for c in notes:
                    seen.setdefault(c.chunk_id, c)
            chunks = []
            for cid, c in sorted(seen.items()):  # sorted by id: the judge sees no ranking order
                chunks.append({
                    "chunk_id": cid,
                    "kind": source_label(c.source_type),
                    "title": title(c, names),
                    "place": reference(c.metadata, names),
                    "author": author_work(c.metadata, names, full=True),
                    "text": c.text,
                })
            packet = {"id": qid, "query": text, "chapter": chapter, "chunks": chunks}
            (out / f"{qid}.json").write_text(json.dumps(packet, indent=1, ensure_ascii=False) + "\n")
            print(f"{qid:<22} {len(chunks):>3} chunks to judge", flush=True)
    finally:
        await retriever.aclose()


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--db", type=Path, required=True)
    p.add_argument("--proxy", required=True)
    p.add_argument("--questions", type=Path, required=True)
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args()
    asyncio.run(pool(args.db, args.proxy, json.loads(args.questions.read_text()), args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

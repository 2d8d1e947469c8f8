"""Pooling for the verse golden set: per question, the union of four rankings' top 20 and the judge's own verses.

As for the chunk golden set (pool.py), no system is measured only on its own results: the verses a
judge reads for a question are the union of the top 20 of four different plain rankings over every
verse of the library (verse_rankings.py: dense over the verse alone, dense over the verse with its
neighbours, BM25, and their reciprocal-rank fusion), plus every verse the judge named for the question
from their own knowledge of the passage *before* any pool was drawn (``named`` in the questions file,
committed first). Nave's topical lists are not consulted, neither as a ranking nor as a source.

Each packet holds the question and its verses with reference and text only, in canonical order: no
score, no rank, no system name, and no mark of which verses the judge named. The judge adds
``judgments`` (verse id → grade 0-3) and ``rationale`` (verse id → a short reason) to the packet.
Re-running keeps what is judged and reports any pooled verse still without a grade.

Apart from the packets (so the judge never sees it), ``--sources`` records per question the judge-named
verses that none of the four rankings put in its top 20: what the judge's own knowledge added to the pool.

    .venv/bin/python scripts/golden/verses_pool.py --db DEMO.db \\
        --questions scripts/golden/verse_questions.json --out scripts/golden/judgments/verses \\
        --sources scripts/golden/verse_pool_sources.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from verse_rankings import VerseRankings, load_verses

DEPTH = 20


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--db", type=Path, required=True)
    p.add_argument("--questions", type=Path, required=True)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--sources", type=Path, required=True)
    p.add_argument("--depth", type=int, default=DEPTH)
    args = p.parse_args()
    verses = load_verses(args.db)
    by_id = {v.id: v for v in verses}
    rankings = VerseRankings(verses)
    args.out.mkdir(parents=True, exist_ok=True)
    sizes = []
    judge_only: dict[str, list[str]] = {}
    for q in json.loads(args.questions.read_text()):
        ranked: set[str] = set()
        for name in VerseRankings.NAMES:
            ranked.update(rankings.ranking(name)(q["query"])[: args.depth])
        pooled = ranked | set(q["named"])
        judge_only[q["id"]] = [v for v in q["named"] if v not in ranked]
        missing = sorted(pooled - by_id.keys())
        if missing:
            raise SystemExit(f"{q['id']}: named verses not in the library: {missing}")
        path = args.out / f"{q['id']}.json"
        old = json.loads(path.read_text()) if path.exists() else {}
        packet = {
            "id": q["id"], "query": q["query"], "kind": q["kind"],
            "verses": [{"verse": v.id, "reference": v.reference, "text": v.text} for v in verses if v.id in pooled],
            "judgments": old.get("judgments", {}), "rationale": old.get("rationale", {}),
        }
        path.write_text(json.dumps(packet, indent=1, ensure_ascii=False) + "\n")
        unjudged = len(pooled - packet["judgments"].keys())
        sizes.append(len(pooled))
        print(f"{q['id']:<34} {len(pooled):>3} verses in the pool, {unjudged:>3} to judge", flush=True)
    args.sources.write_text(json.dumps({"depth": args.depth, "rankings": list(VerseRankings.NAMES),
                                        "judge_only": judge_only}, indent=1) + "\n")
    print(f"{len(sizes)} questions, pool sizes mean {sum(sizes) / len(sizes):.1f}, min {min(sizes)}, max {max(sizes)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Assemble the verse golden set (resources/golden/verses.json) from its questions and judged packets.

    .venv/bin/python scripts/golden/verses_assemble.py --questions scripts/golden/verse_questions.json \\
        --judgments scripts/golden/judgments/verses --sources scripts/golden/verse_pool_sources.json \\
        --added scripts/golden/judgments/verses-added --out resources/golden/verses.json

Every query keeps the judge's one-line reason per verse in ``rationale``, the verses the judge named
before any pool was drawn in ``judge_named``, and where its question came from in ``source``. A verse
the judge named that no ranking put in its top 20 has "(judge-named; in no ranking's top 20)" after
its reason, so a reader sees what pooling alone would have missed. With ``--added``, the verses a later
ranking surfaced and the judge graded afterwards, the same blind way (verses_pool_added.py), join the
judgments with "(added pool)" after their reason.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

NAME = "demo-verses-romans-john"
KINDS = ("topic", "question", "paraphrase")
PROVENANCE = (
    "Judged verse-search questions on the demo library's World English Bible text of Romans and John "
    "(1,309 verses); judgments key on verse ids book:chapter:verse, so they hold for any translation. "
    "Three kinds: topic (a topic name as readers type it), question (a full topical question) and paraphrase "
    "('the verse I'm thinking of' in a reader's own words, from close to no shared content word). The judge "
    "wrote every question and, before any pool was drawn, named the verses they knew to bear on it "
    "(judge_named; scripts/golden/verse_questions.json, committed first). Each question's pool is the union of "
    "the top 20 of four plain rankings over single verses (dense cosine with the local all-MiniLM-L6-v2 model "
    "over each verse alone and over each verse with its neighbours, SQLite FTS5 BM25 with porter stemming, and "
    "their reciprocal-rank fusion; scripts/golden/verse_rankings.py, verses_pool.py) plus the judge-named "
    "verses, shown to the judge as reference and text only, in canonical order, with no score, rank or system "
    "name (scripts/golden/judgments/verses/). Every pooled verse got one grade 0-3 and a short reason: 3 states "
    "or treats the topic squarely (for a paraphrase: the verse meant), 2 substantially helps (for a paraphrase: "
    "the same saying's adjoining verses, or another verse saying the same), 1 related but marginal, 0 off-topic "
    "or only shares words. Unjudged verses count as 0. The judge was an assistant model acting as an expert "
    "reader of Romans and John; no other system's output, no commentary and no topical index was consulted. "
    "Nave's topical lists were not used in any way (neither to choose topics or verses nor as a ranking), and "
    "no Strong's or cross-reference rule judged any verse: every judgment here is a hand judgment."
)
ADDED = (
    " Added pool: the verses that the verse search engine's candidate rankings put in their top 10 and no "
    "judgment yet covered were pooled afterwards and judged the same blind way (verse text and question only; "
    "scripts/golden/verses_pool_added.py, scripts/golden/judgments/verses-added/); their reasons end '(added pool)'."
)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--questions", type=Path, required=True)
    p.add_argument("--judgments", type=Path, required=True)
    p.add_argument("--sources", type=Path, required=True)
    p.add_argument("--added", type=Path, help="packets of verses pooled later (verses_pool_added.py)")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args()
    judge_only = json.loads(args.sources.read_text())["judge_only"]
    queries = []
    for q in json.loads(args.questions.read_text()):
        if q["kind"] not in KINDS:
            raise SystemExit(f"{q['id']}: unknown kind {q['kind']!r}")
        packet = json.loads((args.judgments / f"{q['id']}.json").read_text())
        pooled = [v["verse"] for v in packet["verses"]]
        unjudged = [v for v in pooled if v not in packet["judgments"] or v not in packet["rationale"]]
        if unjudged:
            raise SystemExit(f"{q['id']}: {len(unjudged)} pooled verses without a grade and reason, e.g. {unjudged[0]}")
        only = set(judge_only[q["id"]])
        rationale = {v: packet["rationale"][v] + (" (judge-named; in no ranking's top 20)" if v in only else "")
                     for v in pooled}
        judgments = {v: packet["judgments"][v] for v in pooled}
        added = args.added / f"{q['id']}.json" if args.added else None
        if added is not None and added.exists():
            extra = json.loads(added.read_text())
            for v in (v["verse"] for v in extra["verses"]):
                if v in judgments:
                    raise SystemExit(f"{q['id']}: {v} is judged in both pools")
                if v not in extra["judgments"] or v not in extra["rationale"]:
                    raise SystemExit(f"{q['id']}: added verse {v} has no grade and reason")
                judgments[v] = extra["judgments"][v]
                rationale[v] = extra["rationale"][v] + " (added pool)"
        queries.append({
            "id": q["id"], "query": q["query"], "kind": q["kind"],
            "source": f"hand-judged over a pool (top 20 of four rankings + judge-named); {q['written_from']}",
            "judge_named": q["named"],
            "rationale": rationale,
            "judgments": judgments,
        })
    golden = {"name": NAME, "provenance": PROVENANCE + (ADDED if args.added else ""), "queries": queries}
    args.out.write_text(json.dumps(golden, indent=1, ensure_ascii=False) + "\n")
    kinds = Counter(q["kind"] for q in queries)
    sizes = [len(q["judgments"]) for q in queries]
    grades = Counter(g for q in queries for g in q["judgments"].values())
    print(f"{len(queries)} questions ({', '.join(f'{kinds[k]} {k}' for k in KINDS)}), {sum(sizes)} judgments "
          f"(mean {sum(sizes) / len(sizes):.1f}, min {min(sizes)} a question): "
          + ", ".join(f"{grades[g]} × {g}" for g in (3, 2, 1, 0)))
    named = sum(len(q["judge_named"]) for q in queries)
    only_total = sum(len(v) for v in judge_only.values())
    print(f"judge-named verses: {named}, of which {only_total} were in no ranking's top 20")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

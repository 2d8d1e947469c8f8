"""Assemble the shipped golden set from its sources: hand judgments (pooled) and rule judgments.

    .venv/bin/python scripts/golden/assemble.py --natural natural_questions.json --judgments DIR [--supplement DIR]
        --words word_questions.json --out resources/golden/demo.json

Hand judgments keep each grade's one-line reason in the query's ``rationale``; supplements are
judgments added by hand for chunks the pool missed (commentary on a passage a question names).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

PROVENANCE = (
    "Judged questions on the demo library (Romans and John). Questions with ids rom-, john-, gen- and ref- "
    "are natural questions, most asked with a chapter open; their chunks were pooled from the top 10 of eight "
    "rankings (semantic, keyword and hybrid, with and without boosts, two fusions) plus every commentary note "
    "on the open chapter, shown to the judge without scores or system names, and graded 0-3 with a reason "
    "each (scripts/golden/pool.py; the grade scale is in docs/RELEVANCE.md). Questions with ids w- ask what "
    "a Greek word means and are judged by rule from the World English Bible's Strong's tags "
    "(scripts/golden/strongs_questions.py). Nave's topics neither pose nor judge any question."
)


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--natural", type=Path, required=True)
    p.add_argument("--judgments", type=Path, required=True)
    p.add_argument("--supplement", type=Path)
    p.add_argument("--words", type=Path, required=True)
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args()
    queries = []
    for qid, text, chapter in json.loads(args.natural.read_text()):
        judged = json.loads((args.judgments / f"{qid}.json").read_text())
        judgments, rationale = dict(judged["judgments"]), dict(judged["rationale"])
        extra = args.supplement / f"{qid}.json" if args.supplement else None
        if extra is not None and extra.exists():
            more = json.loads(extra.read_text())
            judgments.update(more["judgments"])
            rationale.update({k: f"{v} (added: not in the pool)" for k, v in more["rationale"].items()})
        q = {"id": qid, "query": text}
        if chapter:
            q["chapter"] = chapter
        q |= {"source": "hand-judged (pooled)", "rationale": rationale, "judgments": judgments}
        queries.append(q)
    queries += json.loads(args.words.read_text())
    golden = {"name": "demo-romans-john", "provenance": PROVENANCE, "queries": queries}
    args.out.write_text(json.dumps(golden, indent=1, ensure_ascii=False) + "\n")
    graded = [g for q in queries for g in q["judgments"].values()]
    print(f"{len(queries)} questions, {len(graded)} judgments: "
          + ", ".join(f"{sum(g == n for g in graded)} × {n}" for n in (3, 2, 1, 0)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

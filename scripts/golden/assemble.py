"""Assemble the shipped golden set from its sources: hand judgments (pooled) and rule judgments.

    .venv/bin/python scripts/golden/assemble.py --natural natural_questions.json --judgments DIR [--supplement DIR]
        --words word_questions.json [--topical topical_questions.json --topical-judgments DIR] [--gaps DIR]
        --out resources/golden/demo.json

The shipped set is made from the folder ``scripts/golden`` with

    .venv/bin/python scripts/golden/assemble.py --natural scripts/golden/natural_questions.json \\
        --judgments scripts/golden/judgments --supplement scripts/golden/supplement \\
        --words scripts/golden/word_questions.json --topical scripts/golden/topical_questions.json \\
        --gaps scripts/golden/supplement/gaps --out resources/golden/demo.json

Hand judgments keep each grade's one-line reason in the query's ``rationale``; supplements are
judgments added by hand for chunks the pool missed (commentary on a passage a question names). Every
query carries a ``kind``: ``chapter`` (a natural question asked with a chapter open), ``question`` (a
natural question asked with none), ``word`` (what a Greek word means), and for the topical part
``topic`` (a topic name as readers type it), ``question`` and ``passage`` (a question naming a passage
while another chapter is open). A topical query lists the chunks the judge named before pooling in
``judge_named``.

Gap packets (``--gaps``, written by ``pool.py --gaps``) add judgments to hand-judged questions for
chunks a later ranking put in its top 10 that no earlier pool held; their reasons end "(gap-judged)".
They may only add: a gap judgment of a chunk already judged, or a chunk of a packet left ungraded, stops
the assembly. Word questions' gap chunks are graded by ``strongs_questions.py --pooled`` instead.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

PROVENANCE = (
    "Judged questions on the demo library (Romans and John). Questions with ids rom-, john-, gen- and ref- "
    "are natural questions, most asked with a chapter open; their chunks were pooled from the top 10 of eight "
    "rankings (semantic, keyword and hybrid, with and without boosts, two fusions) plus every commentary note "
    "on the open chapter, shown to the judge without scores or system names, and graded 0-3 with a reason "
    "each (scripts/golden/pool.py; the grade scale is in docs/RELEVANCE.md). Questions with ids w- ask what "
    "a Greek word means and are judged by rule from the World English Bible's Strong's tags "
    "(scripts/golden/strongs_questions.py). Questions with ids t- (topic names as readers type them), q- "
    "(full questions) and p- (questions naming a passage while another chapter is open) were written before "
    "any pool was drawn (scripts/golden/topical_questions.json), with the passages whose Matthew Henry and "
    "Scofield notes the judge named from knowledge of the commentaries; their chunks were pooled from the top "
    "20 of eight rankings with no scholar cap (semantic, keyword, hybrid at convex alpha 0.5 and 0.7, each "
    "with the contract's boosts and with none) and the app's default, plus the judge-named notes (listed in "
    "judge_named), and graded the same way. After the library's commentary vectors and the app's ranking "
    "changed, every chunk the top 10 of a benchmark row (dense, BM25, the seed default, hybrid, the app preset "
    "and its ablations) ranked on the new library without a judgment was judged the same blind way, or by "
    "the rule for word questions (pool.py --gaps; reasons ending '(gap-judged)'). Every query's kind says "
    "which of these it is. Nave's topics neither pose nor judge any question."
)

GAP = " (gap-judged)"


def add_gaps(queries: list[dict[str, Any]], gaps: Path) -> int:
    """Merge the gap packets' judgments into the hand-judged ``queries``; returns how many were added."""
    added = 0
    for q in queries:
        path = gaps / f"{q['id']}.json"
        if q["kind"] == "word" or not path.exists():
            continue
        packet = json.loads(path.read_text())
        grades, reasons = packet.get("judgments", {}), packet.get("rationale", {})
        pooled = {c["chunk_id"] for c in packet["chunks"]}
        if set(grades) != pooled or set(reasons) != pooled:
            raise SystemExit(f"{path}: every pooled chunk needs one grade and one reason, and nothing else")
        if already := sorted(set(grades) & set(q["judgments"])):
            raise SystemExit(f"{path}: {', '.join(already)} already judged; a gap packet only adds")
        q["judgments"] |= grades
        q["rationale"] |= {k: v + GAP for k, v in reasons.items()}
        added += len(grades)
    return added


def natural(path: Path, judgments: Path, supplement: Path | None) -> list[dict[str, Any]]:
    queries = []
    for qid, text, chapter in json.loads(path.read_text()):
        judged = json.loads((judgments / f"{qid}.json").read_text())
        judgments_, rationale = dict(judged["judgments"]), dict(judged["rationale"])
        extra = supplement / f"{qid}.json" if supplement else None
        if extra is not None and extra.exists():
            more = json.loads(extra.read_text())
            judgments_.update(more["judgments"])
            rationale.update({k: f"{v} (added: not in the pool)" for k, v in more["rationale"].items()})
        q: dict[str, Any] = {"id": qid, "query": text}
        if chapter:
            q["chapter"] = chapter
        q |= {"kind": "chapter" if chapter else "question", "source": "hand-judged (pooled)",
              "rationale": rationale, "judgments": judgments_}
        queries.append(q)
    return queries


def words(path: Path) -> list[dict[str, Any]]:
    queries = []
    for q in json.loads(path.read_text()):
        rest = {k: v for k, v in q.items() if k not in ("id", "query")}
        queries.append({"id": q["id"], "query": q["query"], "kind": "word", **rest})
    return queries


def topical(path: Path, judgments: Path) -> list[dict[str, Any]]:
    queries = []
    for question in json.loads(path.read_text()):
        judged = json.loads((judgments / f"{question['id']}.json").read_text())
        q: dict[str, Any] = {"id": question["id"], "query": question["query"]}
        if question.get("chapter"):
            q["chapter"] = question["chapter"]
        q |= {"kind": question["kind"], "source": "hand-judged (pooled, topical)",
              "judge_named": judged["judge_named"], "rationale": judged["rationale"],
              "judgments": judged["judgments"]}
        queries.append(q)
    return queries


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--natural", type=Path, required=True)
    p.add_argument("--judgments", type=Path, required=True)
    p.add_argument("--supplement", type=Path)
    p.add_argument("--words", type=Path, required=True)
    p.add_argument("--topical", type=Path)
    p.add_argument("--topical-judgments", type=Path)
    p.add_argument("--gaps", type=Path, help="gap packets (pool.py --gaps) with their grades")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args()
    queries = natural(args.natural, args.judgments, args.supplement) + words(args.words)
    if args.topical:
        queries += topical(args.topical, args.topical_judgments or args.judgments / "topical")
    if args.gaps:
        print(f"{add_gaps(queries, args.gaps)} gap judgments added")
    golden = {"name": "demo-romans-john", "provenance": PROVENANCE, "queries": queries}
    args.out.write_text(json.dumps(golden, indent=1, ensure_ascii=False) + "\n")
    graded = [g for q in queries for g in q["judgments"].values()]
    kinds = Counter(q["kind"] for q in queries)
    print(f"{len(queries)} questions ({', '.join(f'{n} {k}' for k, n in sorted(kinds.items()))}), "
          f"{len(graded)} judgments: " + ", ".join(f"{sum(g == n for g in graded)} × {n}" for n in (3, 2, 1, 0)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

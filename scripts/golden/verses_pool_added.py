"""Pool the verses new rankings surface that the verse golden set has not judged, for blind judging.

    .venv/bin/python scripts/golden/verses_pool_added.py --db DEMO.db --rankings RANKINGS.json \\
        [--depth 10] [--out scripts/golden/judgments/verses-added]

The verse golden set was pooled from four plain rankings and the judge's own list
(verses_pool.py); a verse search that finds relevant verses none of those proposed is under-scored,
since unjudged verses count 0. Before a new ranking is compared with the baselines, its top ``depth``
verses are pooled and judged the same way. ``RANKINGS.json`` maps any ranking name to
``{query id: [verse id, ...]}`` (best first); the names never reach the packets.

One packet per question in ``--out``: the question and the verses no judgment yet covers (neither in
resources/golden/verses.json nor already in this packet), with reference and text only, in canonical
order — no score, rank, ranking name, or mark of how many rankings proposed a verse. The judge adds
``judgments`` and ``rationale`` as for the first pool. Re-running keeps what is judged and adds only
newly surfaced verses. ``verses_assemble.py --added`` merges the packets into the golden set.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from verse_rankings import load_verses


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--db", type=Path, required=True)
    p.add_argument("--rankings", type=Path, required=True)
    p.add_argument("--golden", type=Path, default=Path("resources/golden/verses.json"))
    p.add_argument("--depth", type=int, default=10)
    p.add_argument("--out", type=Path, default=Path("scripts/golden/judgments/verses-added"))
    args = p.parse_args()
    verses = load_verses(args.db)
    queries = {q["id"]: q for q in json.loads(args.golden.read_text())["queries"]}
    rankings: dict[str, dict[str, list[str]]] = json.loads(args.rankings.read_text())
    surfaced: dict[str, set[str]] = {}
    for by_query in rankings.values():
        for qid, ranked in by_query.items():
            if qid not in queries:
                raise SystemExit(f"ranking for unknown question {qid!r}")
            surfaced.setdefault(qid, set()).update(ranked[: args.depth])
    args.out.mkdir(parents=True, exist_ok=True)
    total = added = 0
    for qid, q in queries.items():
        path = args.out / f"{qid}.json"
        old = json.loads(path.read_text()) if path.exists() else {"verses": [], "judgments": {}, "rationale": {}}
        pooled = {v["verse"] for v in old["verses"]} | (surfaced.get(qid, set()) - q["judgments"].keys())
        if not pooled:
            continue
        packet = {
            "id": qid, "query": q["query"], "kind": q["kind"],
            "verses": [{"verse": v.id, "reference": v.reference, "text": v.text} for v in verses if v.id in pooled],
            "judgments": old["judgments"], "rationale": old["rationale"],
        }
        path.write_text(json.dumps(packet, indent=1, ensure_ascii=False) + "\n")
        todo = len(pooled - packet["judgments"].keys())
        total += len(pooled)
        added += todo
        if todo:
            print(f"{qid:<34} {len(pooled):>3} verses, {todo:>3} to judge")
    print(f"{total} pooled verses beyond the golden set's judgments, {added} still to judge")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The plain verse-search baselines on the verse golden set: nDCG@10 of dense, BM25 and RRF, per kind, in one run.

    .venv/bin/python scripts/golden/verses_baselines.py --db DEMO.db [--golden resources/golden/verses.json]

Single verses are ranked by verse_rankings.py (dense: the local MiniLM over each verse alone; BM25: FTS5
with porter stemming; RRF k 60 of the two) and scored with the project's own metrics
(amicus_desktop/evaluate/metrics.py: gains 2^g − 1, log2 discount, unjudged verses count 0). "judged" is
the share of the returned top 10 that carries a judgment, a check that the pool covers what is measured;
"empty" counts the questions a ranking returns nothing for (BM25 when no question word is in any verse,
e.g. "the Trinity"). ``amicus-desktop relevance --verses`` prints the same three beside verse search.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from verse_rankings import VerseRankings, load_verses

from amicus_desktop.evaluate.metrics import K, ndcg

BASELINES = ("dense", "bm25", "rrf")
KINDS = ("topic", "question", "paraphrase")


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--db", type=Path, required=True)
    p.add_argument("--golden", type=Path, default=Path("resources/golden/verses.json"))
    args = p.parse_args()
    queries = json.loads(args.golden.read_text())["queries"]
    rankings = VerseRankings(load_verses(args.db))
    scores: dict[tuple[str, str], list[float]] = {}
    judged: dict[str, list[float]] = {}
    empty: dict[str, int] = dict.fromkeys(BASELINES, 0)
    for q in queries:
        for name in BASELINES:
            top = rankings.ranking(name)(q["query"])[:K]
            scores.setdefault((name, q["kind"]), []).append(ndcg(top, q["judgments"], K))
            if top:
                judged.setdefault(name, []).append(sum(v in q["judgments"] for v in top) / len(top))
            else:
                empty[name] += 1
    counts = {k: sum(q["kind"] == k for q in queries) for k in KINDS}
    print(f"Verse baselines on '{args.golden.name}': {len(queries)} questions "
          + ", ".join(f"{counts[k]} {k}" for k in KINDS) + f"; nDCG@{K} over single verses\n")
    header = f"  {'ranking':<8}" + "".join(f"{k:>12}" for k in (*KINDS, "all")) + f"{'judged':>9}{'empty':>7}"
    print(header)
    print("  " + "-" * (len(header) - 2))
    for name in BASELINES:
        per_kind = [sum(scores[(name, k)]) / len(scores[(name, k)]) for k in KINDS]
        every = [s for k in KINDS for s in scores[(name, k)]]
        row = "".join(f"{v:>12.3f}" for v in (*per_kind, sum(every) / len(every)))
        print(f"  {name:<8}{row}{sum(judged[name]) / len(judged[name]):>8.0%}{empty[name]:>7}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Issue 33 item 6: full questions and paraphrases in verse search. Each question is also embedded as its
content words alone ("God's kindness leads you to change your mind" → "god kindness leads change mind") and
the meaning searched is the two vectors mixed; this sweeps the content words' share on the verse golden set,
per kind and per half (train / held-out), beside the plain baselines.

    .venv/bin/python research/verses/content_words.py DEMO.db [--proxy URL]
"""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import replace
from pathlib import Path

from amicus_desktop.core.query import SearchMode
from amicus_desktop.evaluate.golden import load
from amicus_desktop.evaluate.relevance import proxy_for
from amicus_desktop.evaluate.verses import VerseRow, format_verse_benchmark, rows, run_rows
from amicus_desktop.retrieval import Retriever
from amicus_desktop.verses import VerseQuery, VerseSearch, VerseWeights

#: the issue's case: Romans 2:4 ("the goodness of God leads you to repentance") put 8th in the window
EXAMPLE = "God's kindness leads you to change your mind"


def sweep() -> list[VerseRow]:
    base = rows()[:1]  # dense: the plain baseline that matters for questions and paraphrases
    hybrid = VerseWeights.for_mode(SearchMode.HYBRID)
    base.append(VerseRow("hybrid (default)", SearchMode.HYBRID, hybrid))
    for share in (0.2, 0.35):
        base.append(VerseRow(f"hybrid, content words {share:g}", SearchMode.HYBRID,
                             replace(hybrid, content_words=share)))
    for c, lex in ((0.75, 0.5), (1.0, 0.5), (0.5, 0.75), (0.75, 0.75), (0.5, 1.0)):
        base.append(VerseRow(f"hybrid, commentary {c:g}, lexicon {lex:g}", SearchMode.HYBRID,
                             replace(hybrid, commentary=c, lexicon=lex)))
    for n in (0.15, 0.45):
        base.append(VerseRow(f"hybrid, neighbour {n:g}", SearchMode.HYBRID, replace(hybrid, neighbour=n)))
    for sp in (0.0, 0.5):
        base.append(VerseRow(f"hybrid, span power {sp:g}", SearchMode.HYBRID, replace(hybrid, span_power=sp)))
    return base


async def main(db: Path, golden_path: Path, proxy: str) -> None:
    golden = load(golden_path)
    reports = await run_rows(db, proxy, golden, sweep(), lambda m: print(m, flush=True))
    print(format_verse_benchmark(golden, reports, "local", db, 0.0))
    retriever = Retriever(db, proxy)
    engine = VerseSearch(retriever)
    for row in sweep()[1:]:
        result = await engine.search(VerseQuery(EXAMPLE, row.mode, k=10, weights=row.weights))
        ranked = [v for hit in result.results for v in hit.ranked]
        where = ranked.index("romans:2:4") + 1 if "romans:2:4" in ranked else None
        print(f"{row.label:<34} {EXAMPLE!r}: Romans 2:4 at verse {where}")
    await retriever.aclose()


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("db", type=Path)
    p.add_argument("--golden", type=Path, default=Path("resources/golden/verses.json"))
    p.add_argument("--proxy")
    a = p.parse_args()
    if a.proxy:
        asyncio.run(main(a.db, a.golden, a.proxy))
    else:
        with proxy_for("local") as url:
            asyncio.run(main(a.db, a.golden, url))

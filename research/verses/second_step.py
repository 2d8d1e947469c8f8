"""Issue 33 item 6: full questions and paraphrases in verse search. Sweeps the engine's weights (commentary,
lexicon, neighbours, the note-span power) on the verse golden set, per kind and per half (train / held-out),
beside dense-only, and the rank of Romans 2:4 for the issue's paraphrase. (Embedding each question also as its
content words and mixing the two vectors was measured too, at commit 5e89254 — shares 0.2–0.65: no gain on any
kind, and the paraphrase case fell from 6th to 8th–9th — and dropped.)

    .venv/bin/python research/verses/second_step.py DEMO.db [--proxy URL]
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
    base.append(VerseRow("hybrid, lexicon 0.5 (before)", SearchMode.HYBRID, replace(hybrid, lexicon=0.5)))
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

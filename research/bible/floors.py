"""Issue 33 item 5: the no-strong-match floors, recalibrated cheaply. Asks each question once per configuration
(the app preset in hybrid, the contract's semantic default), keeps its best weighed base and best similarity,
then evaluates every candidate floor from those numbers — the same rule and budget as ``relevance
--unanswerable`` (:mod:`amicus_desktop.evaluate.calibrate`) without its 25 minutes of other rows. Prints, per
mode: the shipped floors' rates, the calibrated floors and theirs, the same calibrated on one half of the
questions (by the SHA-256 of the id) and counted on the other, and — with ``--bible`` — the rates on the
whole-Bible set (every question there answerable).

    .venv/bin/python research/bible/floors.py DEMO.db [--bible BIBLE.db --bible-golden /tmp/bible.json]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
from collections.abc import Sequence
from pathlib import Path

from amicus_desktop.bundle.floors import floor_for
from amicus_desktop.core.query import SearchMode
from amicus_desktop.evaluate.calibrate import calibrate, calibrate_joint
from amicus_desktop.evaluate.golden import GoldenSet, load
from amicus_desktop.evaluate.relevance import APP_ROW, SEED, proxy_for
from amicus_desktop.evaluate.run import EvalConfig, evaluate
from amicus_desktop.retrieval import Retriever

Point = tuple[str, float, float]  # question id, best weighed base, best similarity
Chosen = dict[SearchMode, tuple[float, float | None]]


def half(qid: str) -> int:
    return hashlib.sha256(qid.encode()).digest()[0] % 2


def warned(p: Point, base: float, meaning: float | None) -> bool:
    return p[1] < base or (meaning is not None and p[2] < meaning)


def rates(pos: Sequence[Point], neg: Sequence[Point], base: float, meaning: float | None) -> str:
    w = sum(warned(p, base, meaning) for p in pos)
    f = sum(warned(p, base, meaning) for p in neg)
    out = f"warns {w}/{len(pos)} = {w / max(1, len(pos)):.1%} of answerable"
    if neg:
        out += f", flags {f}/{len(neg)} = {f / len(neg):.1%} of unanswerable"
    return out


def fit(model: str, mode: SearchMode, pos: Sequence[Point], neg: Sequence[Point]) -> tuple[float, float | None]:
    if mode is SearchMode.HYBRID:
        f = calibrate_joint(model, [(b, s) for _, b, s in pos], [(b, s) for _, b, s in neg])
        return f.floor, f.meaning
    return calibrate(model, mode, [b for _, b, _ in pos], [b for _, b, _ in neg]).floor, None


async def points(retriever: Retriever, golden: GoldenSet, config: EvalConfig) -> list[Point]:
    report = await evaluate(retriever, golden, config)
    return [(q.id, q.best_base or 0.0, q.best_similarity or 0.0) for q in report.queries]


async def demo(db: Path, golden: GoldenSet, negatives: GoldenSet, proxy: str) -> Chosen:
    retriever = Retriever(db, proxy)
    info = await retriever.open()
    answerable = {q.id for q in golden.queries if any(g >= 2 for g in q.judgments.values())}
    chosen: Chosen = {}
    for config in (SEED, APP_ROW):
        mode = config.mode
        pos = [p for p in await points(retriever, golden, config) if p[0] in answerable]
        neg = await points(retriever, negatives, config)
        shipped = floor_for(info.model_id, mode)
        assert shipped is not None
        print(f"\n{config.describe()} — {len(pos)} answerable, {len(neg)} unanswerable")
        shown = rates(pos, neg, shipped.base, shipped.meaning)
        print(f"  shipped  base {shipped.base:.3f} meaning {shipped.meaning}: {shown}")
        base, meaning = fit(info.model_id, mode, pos, neg)
        chosen[mode] = (base, meaning)
        print(f"  fitted   base {base:.3f} meaning {meaning}: {rates(pos, neg, base, meaning)}")
        for h in (0, 1):
            tb, tm = fit(info.model_id, mode, [p for p in pos if half(p[0]) == h], [p for p in neg if half(p[0]) == h])
            rest = ([p for p in pos if half(p[0]) != h], [p for p in neg if half(p[0]) != h])
            print(f"  half {h}   base {tb:.3f} meaning {tm}: held out {rates(*rest, tb, tm)}")
        low = sorted(p for p in pos if warned(p, base, meaning))
        print("  warned answerable:", ", ".join(f"{i} ({b:.3f}/{s:.2f})" for i, b, s in low))
    await retriever.aclose()
    return chosen


async def bible(db: Path, golden: GoldenSet, proxy: str, chosen: Chosen) -> None:
    retriever = Retriever(db, proxy)
    info = await retriever.open()
    answerable = {q.id for q in golden.queries if any(g >= 2 for g in q.judgments.values())}
    for config in (SEED, APP_ROW):
        pts = await points(retriever, golden, config)
        pos = [p for p in pts if p[0] in answerable]
        shipped = floor_for(info.model_id, config.mode)
        assert shipped is not None
        base, meaning = chosen[config.mode]
        print(f"\nwhole Bible, {config.describe()} — {len(pos)} answerable of {len(pts)}")
        for kind in ("bt-", "bq-", ""):
            sub = [p for p in pos if p[0].startswith(kind)]
            print(f"  {kind or 'all':<4} shipped: {rates(sub, [], shipped.base, shipped.meaning)}; "
                  f"recalibrated: {rates(sub, [], base, meaning)}")
        low = sorted(p for p in pos if warned(p, base, meaning))
        print("  warned:", ", ".join(f"{i} ({b:.3f}/{s:.2f})" for i, b, s in low))
    await retriever.aclose()


async def main(a: argparse.Namespace, proxy: str) -> None:
    chosen = await demo(a.db, load(a.golden), load(a.unanswerable), proxy)
    if a.bible:
        await bible(a.bible, load(a.bible_golden), proxy, chosen)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("db", type=Path)
    p.add_argument("--golden", type=Path, default=Path("resources/golden/demo.json"))
    p.add_argument("--unanswerable", type=Path, default=Path("resources/golden/unanswerable.json"))
    p.add_argument("--bible", type=Path)
    p.add_argument("--bible-golden", type=Path, default=Path("resources/golden/bible.json"))
    args = p.parse_args()
    with proxy_for("local") as url:
        asyncio.run(main(args, url))

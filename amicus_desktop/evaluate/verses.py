"""The verse relevance benchmark (``relevance --verses``): verse search beside dense-only, BM25-only and
reciprocal-rank fusion over the same verses, per kind of question, in one run.

The golden set is the verse format of docs/RELEVANCE.md (judgments on ``book:chapter:verse`` ids, a
``kind`` per question: ``topic``, ``question``, ``paraphrase``). Every row runs through the verse
engine itself (:class:`~amicus_desktop.verses.VerseSearch`) with its weights set to the row's; a
result of several adjacent verses counts as its verses, in the order they ranked, and nDCG@10 is
computed over the first ten verses (``evaluate/metrics.py``: gains 2^g − 1, unjudged = 0).

The train / held-out columns split each kind in two by a hash of the question id: the weights were
chosen on the train half; the held-out half says whether they generalise.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..core.query import SearchMode
from ..retrieval import Retriever
from ..verses import VerseQuery, VerseSearch, VerseWeights
from .golden import GoldenQuery, GoldenSet
from .metrics import K, ndcg
from .relevance import proxy_for

KINDS = ("topic", "question", "paraphrase")
RRF_K = 60
#: how deep each plain ranking goes for reciprocal-rank fusion
RRF_DEPTH = 50

_PLAIN = VerseWeights(similarity=0.0, keyword=0.0, phrase=0.0, commentary=0.0, commentary_keyword=0.0, lexicon=0.0,
                      lexicon_keyword=0.0, neighbour=0.0, reference=1.0)


@dataclass(frozen=True)
class VerseRow:
    """One configuration: a label, a mode and weights (``None``: the mode's defaults).

    ``plain`` names a plain ranking kept (``RRF_DEPTH`` deep) for the fusion row; ``rrf`` is the row
    that fuses the plain ``dense`` and ``bm25`` rankings instead of searching.
    """

    label: str
    mode: SearchMode
    weights: VerseWeights | None = None
    plain: str | None = None
    rrf: bool = False


def rows() -> list[VerseRow]:
    hybrid = VerseWeights.for_mode(SearchMode.HYBRID)
    return [
        VerseRow("dense only (each verse alone)", SearchMode.SEMANTIC, _with(_PLAIN, similarity=1.0), "dense"),
        VerseRow("BM25 only (verse text)", SearchMode.KEYWORD, _with(_PLAIN, keyword=1.0), "bm25"),
        VerseRow(f"RRF k {RRF_K} of dense and BM25", SearchMode.HYBRID, rrf=True),
        VerseRow("verse search, semantic", SearchMode.SEMANTIC),
        VerseRow("verse search, keyword", SearchMode.KEYWORD),
        VerseRow("verse search, hybrid (default)", SearchMode.HYBRID),
        VerseRow("  hybrid without commentary", SearchMode.HYBRID,
                 _with(hybrid, commentary=0.0, commentary_keyword=0.0)),
        VerseRow("  hybrid without the lexicon", SearchMode.HYBRID, _with(hybrid, lexicon=0.0, lexicon_keyword=0.0)),
        VerseRow("  hybrid without neighbours", SearchMode.HYBRID, _with(hybrid, neighbour=0.0)),
        VerseRow("  hybrid without phrases", SearchMode.HYBRID, _with(hybrid, phrase=0.0)),
    ]


def _with(weights: VerseWeights, **changes: float) -> VerseWeights:
    return replace(weights, **changes)


def held_out(golden: GoldenSet) -> set[str]:
    """The fixed split: within each kind, questions sorted by the SHA-1 of their id; the second half is held out."""
    out: set[str] = set()
    for k in {kind(q) for q in golden.queries}:
        ids = sorted((q.id for q in golden.queries if kind(q) == k), key=lambda i: hashlib.sha1(i.encode()).hexdigest())
        out.update(ids[len(ids) // 2:])
    return out


@dataclass
class VerseReport:
    row: VerseRow
    #: per question id: nDCG@10 and the verses ranked (first ten)
    scores: dict[str, float] = field(default_factory=dict)
    ranked: dict[str, list[str]] = field(default_factory=dict)

    def mean(self, golden: GoldenSet, keep: Callable[[GoldenQuery], bool] = lambda _q: True) -> float | None:
        values = [self.scores[q.id] for q in golden.queries if keep(q)]
        return sum(values) / len(values) if values else None

    def of_kind(self, golden: GoldenSet, name: str) -> float | None:
        return self.mean(golden, lambda q: kind(q) == name)


def kind(q: GoldenQuery) -> str:
    return str(q.extra.get("kind", "question"))


async def _ranking(engine: VerseSearch, q: GoldenQuery, mode: SearchMode, weights: VerseWeights | None,
                   k: int) -> list[str]:
    result = await engine.search(VerseQuery(q.query, mode, k=k, weights=weights))
    return [v for hit in result.results for v in hit.ranked]


async def run_rows(db: Path, proxy: str, golden: GoldenSet, configs: Sequence[VerseRow],
                   progress: Callable[[str], None]) -> list[VerseReport]:
    retriever = Retriever(db, proxy)
    engine = VerseSearch(retriever)
    reports: list[VerseReport] = []
    try:
        plain: dict[str, dict[str, list[str]]] = {}
        for row in configs:
            progress(row.label)
            report = VerseReport(row)
            for q in golden.queries:
                if row.rrf:
                    ranked = _rrf(plain["dense"][q.id], plain["bm25"][q.id])
                else:
                    ranked = await _ranking(engine, q, row.mode, row.weights, RRF_DEPTH if row.plain else K)
                    if row.plain:
                        plain.setdefault(row.plain, {})[q.id] = ranked
                report.ranked[q.id] = ranked[:K]
                report.scores[q.id] = ndcg(ranked[:K], q.judgments, K)
            reports.append(report)
        return reports
    finally:
        await retriever.aclose()


def _rrf(*rankings: list[str]) -> list[str]:
    score: dict[str, float] = {}
    first: dict[str, int] = {}
    for ranked in rankings:
        for rank, vid in enumerate(ranked, start=1):
            score[vid] = score.get(vid, 0.0) + 1.0 / (RRF_K + rank)
            first.setdefault(vid, len(first))
    return sorted(score, key=lambda v: (-score[v], first[v]))


def run_verse_benchmark(golden: GoldenSet, db: Path, backend: str,
                        progress: Callable[[str], None] = lambda _m: None) -> tuple[list[VerseReport], float]:
    t0 = time.perf_counter()
    with proxy_for(backend) as url:
        reports = asyncio.run(run_rows(db, url, golden, rows(), progress))
    return reports, time.perf_counter() - t0


def format_verse_benchmark(golden: GoldenSet, reports: Sequence[VerseReport], model: str, db: Path,
                           seconds: float) -> str:
    counts = {k: sum(kind(q) == k for q in golden.queries) for k in KINDS}
    lines = [
        f"Verse relevance on '{golden.name}': {len(golden.queries)} questions "
        + ", ".join(f"{counts[k]} {k}" for k in KINDS)
        + f"; nDCG@{K} over the first {K} verses; ×best = against the best of dense, BM25 and RRF per kind",
        "",
        f"model {model}  ({db.name}, {seconds:.0f} s)",
    ]
    header = (f"  {'configuration':<34}" + "".join(f"{k:>11}" for k in KINDS) + f"{'all':>8}{'train':>8}"
              f"{'held-out':>10}{'judged':>8}   ×best topic/question")
    lines += [header, "  " + "-" * (len(header) - 2)]
    best = {k: max(r.of_kind(golden, k) or 0.0 for r in reports[:3]) for k in KINDS}
    test = held_out(golden)
    for r in reports:
        per = [r.of_kind(golden, k) for k in KINDS]
        judged = [sum(v in q.judgments for v in r.ranked[q.id]) / len(r.ranked[q.id])
                  for q in golden.queries if r.ranked[q.id]]
        cells = "".join(f"{v:>11.3f}" if v is not None else f"{'—':>11}" for v in per)
        ratio = "/".join(f"{(v or 0.0) / best[k]:.2f}" if best[k] else "—"
                         for v, k in zip(per[:2], KINDS[:2], strict=True))
        lines.append(
            f"  {r.row.label:<34}{cells}{r.mean(golden) or 0.0:>8.3f}"
            f"{r.mean(golden, lambda q: q.id not in test) or 0.0:>8.3f}"
            f"{r.mean(golden, lambda q: q.id in test) or 0.0:>10.3f}"
            f"{sum(judged) / len(judged) if judged else 0.0:>8.0%}   {ratio}"
        )
    return "\n".join(lines)

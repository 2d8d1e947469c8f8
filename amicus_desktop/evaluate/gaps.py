"""Judgment gaps: the chunks a configuration puts in a top 10 that the golden set does not judge. No Qt.

An unjudged chunk counts as not relevant (CONTRACT section 8), so a configuration that surfaces chunks no
judge has read is measured low for that alone — and a comparison between two configurations can be won or
lost on them. So every evaluation says how much of its top 10 is judged, a comparison says it for both
sides, and the gaps form a queue to judge: question by question, in rank order (the top ranks weigh most
in nDCG), each chunk once per question however many configurations ranked it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .golden import GoldenSet
from .metrics import judged_share
from .run import EvalReport


@dataclass(frozen=True)
class Gap:
    """One unjudged chunk in a question's top 10, at its best rank among the reports asked."""

    query_id: str
    query: str
    rank: int
    chunk_id: str


def queue(golden: GoldenSet, reports: Iterable[EvalReport]) -> list[Gap]:
    """The unjudged chunks of ``reports``' top 10s on the set's *current* judgments: by question (the set's
    order), then by rank; a chunk two reports rank is listed once, at its better rank."""
    best: dict[tuple[str, str], int] = {}
    for report in reports:
        for q in report.queries:
            for rank, chunk_id in enumerate(q.ranked, start=1):
                key = (q.id, chunk_id)
                best[key] = min(rank, best.get(key, rank))
    out: list[Gap] = []
    for g in golden.queries:
        found = sorted((rank, cid) for (qid, cid), rank in best.items() if qid == g.id and cid not in g.judgments)
        out.extend(Gap(g.id, g.query, rank, cid) for rank, cid in found)
    return out


@dataclass(frozen=True)
class Coverage:
    """How much of one report's top 10s the set judges."""

    #: the mean share of a question's top 10 that is judged
    judged_share: float
    unjudged: int
    #: questions with at least one unjudged chunk in their top 10
    questions: int

    def sentence(self, side: str = "") -> str:
        who = f"{side}: " if side else ""
        if not self.unjudged:
            return f"{who}every top-10 result is judged"
        return (f"{who}{self.judged_share:.0%} of the top 10 judged ({self.unjudged} unjudged results over "
                f"{self.questions} questions count as not relevant)")


def coverage(golden: GoldenSet, report: EvalReport) -> Coverage:
    """``report``'s top 10s against the set's current judgments."""
    by_id = {q.id: q.judgments for q in golden.queries}
    shares, unjudged, questions = [], 0, 0
    for q in report.queries:
        judged = by_id.get(q.id, {})
        s = judged_share(q.ranked, judged)
        if s is None:
            continue
        shares.append(s)
        missing = sum(c not in judged for c in q.ranked)
        unjudged += missing
        questions += missing > 0
    return Coverage(sum(shares) / len(shares) if shares else 0.0, unjudged, questions)

"""N rankings of one golden set side by side: snapshots, configurations asked today, or both.

Each ranking (a :class:`Ranking`: a name, the configuration it describes and each question's top 10) is scored
on the golden set's *current* judgments, so a snapshot made before a grade was given still counts it. Against
a chosen **baseline**, each other ranking's mean difference of every metric comes with a paired bootstrap 95%
interval (:func:`.compare.paired_bootstrap`: the questions resampled, each question's pair kept together),
for the whole set and for each kind of question (:attr:`~.golden.GoldenQuery.kind`). Per question, the rank
of each judged chunk in each ranking says *what moved*: a grade-3 chunk at #1 in one and #8 in another, or in
one top 10 only. ``eval --compare`` with two SPECs or more prints it; the workbench's Snapshots tab shows it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from . import metrics
from .compare import paired_bootstrap
from .golden import GoldenSet
from .run import METRICS, EvalReport
from .snapshots import Snapshot

#: the row of every question, before the kinds
ALL = "all"


@dataclass(frozen=True)
class Ranking:
    """One column of the lineup: its name, the configuration it describes, the top 10 of each question."""

    name: str
    config: str
    ranked: Mapping[str, tuple[str, ...]]

    @classmethod
    def of_snapshot(cls, snapshot: Snapshot) -> Ranking:
        return cls(snapshot.name, snapshot.config, {qid: r for qid, _q, r in snapshot.queries})

    @classmethod
    def of_report(cls, name: str, report: EvalReport) -> Ranking:
        return cls(name, report.config.describe(), {q.id: q.ranked for q in report.queries})


@dataclass(frozen=True)
class Cell:
    """One ranking's mean of one metric over a kind's questions, and against the baseline (``None`` for it)."""

    mean: float
    delta: float | None = None
    low: float | None = None
    high: float | None = None

    @property
    def significant(self) -> bool:
        return self.low is not None and self.high is not None and (self.low > 0 or self.high < 0)

    def words(self) -> str:
        """``0.612`` for the baseline; ``0.640 (+0.028 [+0.004, +0.051])`` for the others."""
        if self.delta is None:
            return f"{self.mean:.3f}"
        return f"{self.mean:.3f} ({self.delta:+.3f} [{self.low:+.3f}, {self.high:+.3f}])"

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"mean": self.mean}
        if self.delta is not None:
            out |= {"delta": self.delta, "ci95": [self.low, self.high], "significant": self.significant}
        return out


@dataclass(frozen=True)
class KindRow:
    """The questions of one kind (``all``: every one): how many, and each ranking's cells per metric."""

    kind: str
    questions: int
    cells: tuple[Mapping[str, Cell], ...]  # one per ranking, by metric


@dataclass(frozen=True)
class ChunkRanks:
    """A judged chunk of a question: its grade and its rank in each ranking (``None``: not in that top 10)."""

    chunk_id: str
    grade: int
    ranks: tuple[int | None, ...]

    @property
    def moved(self) -> bool:
        return len(set(self.ranks)) > 1


@dataclass(frozen=True)
class QuestionRow:
    """One question: its kind, nDCG@10 in each ranking and where each of its judged chunks ranks."""

    id: str
    query: str
    kind: str
    ndcg: tuple[float | None, ...]  # None: the ranking lacks the question
    chunks: tuple[ChunkRanks, ...]

    @property
    def spread(self) -> float:
        values = [v for v in self.ndcg if v is not None]
        return max(values) - min(values) if values else 0.0


@dataclass(frozen=True)
class Lineup:
    rankings: tuple[Ranking, ...]
    baseline: int
    kinds: tuple[KindRow, ...]
    questions: tuple[QuestionRow, ...]

    def to_json(self) -> dict[str, object]:
        return {
            "baseline": self.rankings[self.baseline].name,
            "rankings": [{"name": r.name, "config": r.config} for r in self.rankings],
            "kinds": [{"kind": k.kind, "questions": k.questions,
                       "rankings": [{m: c[m].to_json() for m in METRICS} for c in k.cells]} for k in self.kinds],
            "questions": [{"id": q.id, "query": q.query, "kind": q.kind, "ndcg@10": list(q.ndcg),
                           "chunks": [{"chunk_id": c.chunk_id, "grade": c.grade, "ranks": list(c.ranks)}
                                      for c in q.chunks]} for q in self.questions],
        }


def rank_of(ranked: Sequence[str], chunk_id: str) -> int | None:
    return ranked.index(chunk_id) + 1 if chunk_id in ranked else None


def lineup(rankings: Sequence[Ranking], golden: GoldenSet, baseline: int = 0) -> Lineup:
    """Every ranking of ``rankings`` on ``golden``'s current judgments, against ``rankings[baseline]``. A question
    a ranking lacks ranks nothing there (it scores 0 in the means, and ``None`` in its row)."""
    if not rankings:
        raise ValueError("nothing to compare")
    if not 0 <= baseline < len(rankings):
        raise ValueError(f"the baseline is one of the {len(rankings)} rankings (0 to {len(rankings) - 1})")
    questions: list[QuestionRow] = []
    per_question: list[list[dict[str, float]]] = []
    for q in golden.queries:
        ranked = [r.ranked.get(q.id) for r in rankings]
        row_scores = [metrics.scores(rk or (), q.judgments) for rk in ranked]
        per_question.append(row_scores)
        judged = sorted(q.judgments.items(), key=lambda item: (-item[1], item[0]))
        chunks = tuple(ChunkRanks(c, g, tuple(rank_of(rk or (), c) for rk in ranked)) for c, g in judged)
        questions.append(QuestionRow(q.id, q.query, q.kind,
                                     tuple(None if rk is None else s["ndcg@10"] for rk, s in zip(ranked, row_scores,
                                                                                              strict=True)),
                                     tuple(c for c in chunks if any(r is not None for r in c.ranks))))
    kinds_seen = list(dict.fromkeys(q.kind for q in golden.queries))
    rows: list[KindRow] = []
    for kind in [ALL, *sorted(kinds_seen)] if len(kinds_seen) > 1 else [ALL]:
        picked = [i for i, q in enumerate(golden.queries) if kind == ALL or q.kind == kind]
        cells: list[dict[str, Cell]] = [{} for _ in rankings]
        for m in METRICS:
            values = np.array([[per_question[i][j][m] for j in range(len(rankings))] for i in picked],
                              dtype=np.float64).reshape(len(picked), len(rankings))
            base = values[:, baseline]
            for j in range(len(rankings)):
                mean = float(values[:, j].mean()) if picked else 0.0
                if j == baseline:
                    cells[j][m] = Cell(mean)
                    continue
                low, high = paired_bootstrap(base, values[:, j])
                cells[j][m] = Cell(mean, float((values[:, j] - base).mean()) if picked else 0.0, low, high)
        rows.append(KindRow(kind, len(picked), tuple(cells)))
    questions.sort(key=lambda q: (-q.spread, q.id))
    return Lineup(tuple(rankings), baseline, tuple(rows), tuple(questions))


def describe(found: Lineup, *, shown: int = 20, width: int = 100) -> str:
    """The lineup as text: the rankings, each metric per kind against the baseline, then the questions whose
    nDCG@10 differs most and where each of their judged chunks ranks in each."""
    names = [r.name for r in found.rankings]
    lines = [f"{i}: {r.name}{' (baseline)' if i == found.baseline else ''} — {r.config}"
             for i, r in enumerate(found.rankings)]
    for m in METRICS:
        lines += ["", f"{m}: mean (difference from the baseline [95% interval, paired bootstrap])"]
        for k in found.kinds:
            lines.append(f"  {k.kind} ({k.questions} questions)")
            for name, cells in zip(names, k.cells, strict=True):
                mark = "" if cells[m].delta is None or cells[m].significant else "  (includes 0)"
                lines.append(f"    {name[:28]:<28} {cells[m].words()}{mark}")
    moved = [q for q in found.questions if q.spread > 1e-9]
    lines += ["", f"{len(moved)} of {len(found.questions)} questions differ in nDCG@10; the {min(shown, len(moved))} "
              "that differ most, with the rank of each judged chunk in each ranking (– : not in its top 10):"]
    for q in moved[:shown]:
        ndcg = " · ".join(f"{n[:16]} {'–' if v is None else f'{v:.3f}'}" for n, v in zip(names, q.ndcg, strict=True))
        lines += ["", f"{q.id} ({q.kind}): {q.query[: width - len(q.id) - 20]}", f"  nDCG@10: {ndcg}"]
        for c in q.chunks:
            ranks = "  ".join(f"{'–' if r is None else f'#{r}'}" for r in c.ranks)
            lines.append(f"  grade {c.grade}  {ranks:<{6 * len(names)}}  {c.chunk_id}")
    return "\n".join(lines)

"""Item models of the Snapshots tab's lineup and replay: the metrics of N rankings per kind of question against
a baseline, the rank of each judged chunk in each, and a replayed snapshot's questions with what moved.

Read-only tables over what :mod:`amicus_desktop.evaluate.lineup` and :mod:`~amicus_desktop.evaluate.replay`
computed; questions by their text and chunks by their titles (read from the open database, the id until then).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...evaluate.lineup import ChunkRanks, Lineup, QuestionRow
from ...evaluate.replay import Explained, Replay
from ...evaluate.run import METRICS
from .models import GRADE_WORDS, Table

Titles = Callable[[list[str]], dict[str, str]]
METRIC_WORDS = {"ndcg@10": "nDCG@10", "mrr@10": "MRR@10", "recall@10": "Recall@10"}


class KindsModel(Table):
    """One row per kind of question and ranking: each metric's mean, and against the baseline the difference
    with its 95% interval ("0.640 (+0.028 [+0.004, +0.051])")."""

    KIND, RANKING, QUESTIONS = range(3)
    RIGHT = frozenset({QUESTIONS, 3, 4, 5})

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.COLUMNS = ("Kind", "Ranking", "Questions", *(METRIC_WORDS[m] for m in METRICS))
        self._lineup: Lineup | None = None
        self._rows: list[tuple[int, int]] = []  # (kind row, ranking)

    def set_lineup(self, found: Lineup | None) -> None:
        self._lineup = found
        self._rows = [(k, r) for k in range(len(found.kinds)) for r in range(len(found.rankings))] if found else []
        self._reset(len(self._rows))

    def cell(self, row: int, col: int) -> str:
        assert self._lineup is not None
        k, r = self._rows[row]
        kind, ranking = self._lineup.kinds[k], self._lineup.rankings[r]
        if col == self.KIND:
            return ("every question" if kind.kind == "all" else kind.kind) if r == 0 else ""
        if col == self.RANKING:
            return ranking.name + (" (baseline)" if r == self._lineup.baseline else "")
        if col == self.QUESTIONS:
            return str(kind.questions)
        cell = kind.cells[r][METRICS[col - 3]]
        return cell.words() + ("" if cell.delta is None or cell.significant else " ≈")

    def tooltip(self, row: int, col: int) -> str | None:
        assert self._lineup is not None
        k, r = self._rows[row]
        ranking = self._lineup.rankings[r]
        if col < 3:
            return f"{ranking.name}: {ranking.config}"
        cell = self._lineup.kinds[k].cells[r][METRICS[col - 3]]
        if cell.delta is None:
            return "The baseline: the other rankings are measured against it."
        verdict = ("the interval excludes 0: not an accident of which questions the set holds" if cell.significant
                   else "the interval includes 0 (≈): the difference may be chance")
        return (f"Mean {cell.mean:.3f}; {cell.delta:+.3f} against the baseline, 95% interval "
                f"[{cell.low:+.3f}, {cell.high:+.3f}] (paired bootstrap): {verdict}.")


class RanksModel(Table):
    """Per question (the biggest differences first), each judged chunk that any ranking holds: its grade, its
    title and its rank in each ranking ("#3", "–" when not in that top 10)."""

    QUESTION, GRADE, CHUNK = range(3)
    RIGHT = frozenset({GRADE})

    def __init__(self, titles: Titles, parent: Any = None) -> None:
        super().__init__(parent)
        self._titles = titles
        self.COLUMNS = ("Question", "Grade", "Result")
        self._rows: list[tuple[QuestionRow, ChunkRanks, bool]] = []  # (question, chunk, first of its question)

    def set_lineup(self, found: Lineup | None) -> None:
        self.beginResetModel()
        names = [r.name for r in found.rankings] if found else []
        self.COLUMNS = ("Question", "Grade", "Result", *names)
        self.RIGHT = frozenset({self.GRADE, *range(3, 3 + len(names))})
        self._rows = [(q, c, i == 0) for q in (found.questions if found else ()) for i, c in enumerate(q.chunks)]
        self._titles([c.chunk_id for _q, c, _f in self._rows])
        self._count = len(self._rows)
        self.endResetModel()

    def key(self, row: int) -> str | None:
        return self._rows[row][1].chunk_id

    def titles_changed(self) -> None:
        if self._rows:
            self.dataChanged.emit(self.index(0, self.CHUNK), self.index(len(self._rows) - 1, self.CHUNK))

    def cell(self, row: int, col: int) -> str:
        q, c, first = self._rows[row]
        if col == self.QUESTION:
            return q.query if first else ""
        if col == self.GRADE:
            return str(c.grade)
        if col == self.CHUNK:
            return self._titles([c.chunk_id]).get(c.chunk_id, c.chunk_id)
        rank = c.ranks[col - 3]
        return "–" if rank is None else f"#{rank}"

    def tooltip(self, row: int, col: int) -> str | None:
        q, c, _first = self._rows[row]
        if col == self.QUESTION:
            ndcg = " · ".join("–" if v is None else f"{v:.3f}" for v in q.ndcg)
            return f"{q.query} ({q.kind})\nnDCG@10 in each: {ndcg}"
        if col == self.GRADE:
            return f"Grade {GRADE_WORDS[c.grade]}"
        title = self._titles([c.chunk_id]).get(c.chunk_id)
        if col == self.CHUNK:
            return f"{title}\n{c.chunk_id}" if title else c.chunk_id
        rank = c.ranks[col - 3]
        return f"{self.COLUMNS[col]}: {'not in its top 10' if rank is None else f'#{rank}'}"


class ReplayModel(Table):
    """A replayed snapshot, question by question: nDCG@10 then and now and what moved, in words."""

    COLUMNS = ("Change", "Then", "Now", "Question", "What moved")
    DELTA, THEN, NOW, QUESTION, MOVED = range(5)
    RIGHT = frozenset({THEN, NOW, DELTA})

    def __init__(self, titles: Titles, parent: Any = None) -> None:
        super().__init__(parent)
        self._titles = titles
        self._rows: list[Explained] = []

    def set_replay(self, found: Replay | None) -> None:
        rows = list(found.questions) if found else []
        rows.sort(key=lambda q: (-abs(q.delta), -len(q.moved), q.id))
        self._rows = rows
        self._titles([m.chunk_id for q in rows for m in q.moved])
        self._reset(len(rows))

    def key(self, row: int) -> str | None:
        return self._rows[row].id

    def titles_changed(self) -> None:
        if self._rows:
            self.dataChanged.emit(self.index(0, self.MOVED), self.index(len(self._rows) - 1, self.MOVED))

    def _title(self, chunk_id: str) -> str:
        return self._titles([chunk_id]).get(chunk_id, chunk_id)

    def cell(self, row: int, col: int) -> str:
        q = self._rows[row]
        if col == self.DELTA:
            return "same" if abs(q.delta) < 1e-9 else f"{'better' if q.delta > 0 else 'worse'} {q.delta:+.3f}"
        if col == self.THEN:
            return f"{q.before:.3f}"
        if col == self.NOW:
            return f"{q.after:.3f}"
        if col == self.QUESTION:
            return q.query
        if not q.moved:
            return "no judged result moved" + (" (unjudged ones did)" if abs(q.delta) > 1e-9 else "")
        return "; ".join(m.words(self._title) for m in q.moved)

    def tooltip(self, row: int, col: int) -> str | None:
        q = self._rows[row]
        if col == self.MOVED:
            return "\n".join(m.words(self._title) for m in q.moved) or None
        return f"{q.query} ({q.id})"

"""Item models of the curator's review tabs: the gaps queue, the judges' disagreements, the runs kept.

Read-only tables over rows the Qt-free workbench computed (:class:`~.models.Table`); every cell says its
meaning in words, so colour is never the only carrier.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...evaluate.agreement import Disagreement
from ...evaluate.gaps import Gap
from ...evaluate.history import Run
from .models import GRADE_WORDS, Table


class GapsModel(Table):
    """The unjudged chunks of the last evaluation's top 10s; ``grade(query_id, chunk_id)`` is the set's
    grade now (a gap graded since shows its grade)."""

    COLUMNS = ("Question", "#", "Grade", "Chunk")
    QUESTION, RANK, GRADE, CHUNK = range(4)
    RIGHT = frozenset({RANK})

    def __init__(self, grade: Callable[[str, str], int | None], titles: Callable[[list[str]], dict[str, str]],
                 parent: Any = None) -> None:
        super().__init__(parent)
        self._grade = grade
        self._titles = titles
        self._rows: list[Gap] = []

    def set_gaps(self, gaps: list[Gap]) -> None:
        self._titles([g.chunk_id for g in gaps])  # one read for every row's title
        self._rows = list(gaps)
        self._reset(len(self._rows))

    def gap(self, row: int) -> Gap | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def key(self, row: int) -> str | None:
        return self._rows[row].chunk_id

    def grades_changed(self) -> None:
        if self._rows:
            self.dataChanged.emit(self.index(0, self.GRADE), self.index(len(self._rows) - 1, self.GRADE))

    def cell(self, row: int, col: int) -> str:
        g = self._rows[row]
        if col == self.QUESTION:
            return g.query
        if col == self.RANK:
            return str(g.rank)
        if col == self.GRADE:
            grade = self._grade(g.query_id, g.chunk_id)
            return "–" if grade is None else str(grade)
        return self._titles([g.chunk_id]).get(g.chunk_id, g.chunk_id)

    def titles_changed(self) -> None:
        """The open database named more chunks: the chunk column reads again."""
        if self._rows:
            self.dataChanged.emit(self.index(0, self.CHUNK), self.index(len(self._rows) - 1, self.CHUNK))

    def tooltip(self, row: int, col: int) -> str | None:
        g = self._rows[row]
        if col == self.GRADE:
            grade = self._grade(g.query_id, g.chunk_id)
            return "Not judged: press 0–3 to grade" if grade is None else f"Grade {GRADE_WORDS[grade]}"
        title = self._titles([g.chunk_id]).get(g.chunk_id)
        return f"{g.query} ({g.query_id})\n#{g.rank}: {title + ' · ' if title else ''}{g.chunk_id}"


class DisagreementModel(Table):
    """Items two judges or more graded, the widest disagreements first."""

    COLUMNS = ("Spread", "Grades", "Set", "Question", "Chunk")
    SPREAD, GRADES, SET, QUESTION, CHUNK = range(5)
    RIGHT = frozenset({SPREAD, SET})

    def __init__(self, titles: Callable[[list[str]], dict[str, str]], parent: Any = None) -> None:
        super().__init__(parent)
        self._titles = titles
        self._rows: list[Disagreement] = []

    def set_items(self, items: list[Disagreement]) -> None:
        self._titles([d.chunk_id for d in items])  # one read for every row's title
        self._rows = list(items)
        self._reset(len(self._rows))

    def item(self, row: int) -> Disagreement | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def key(self, row: int) -> str | None:
        return self._rows[row].chunk_id

    def cell(self, row: int, col: int) -> str:
        d = self._rows[row]
        if col == self.SPREAD:
            return str(d.spread)
        if col == self.GRADES:
            return ", ".join(f"{j} {g}" for j, g in d.grades.items())
        if col == self.SET:
            return "–" if d.grade is None else str(d.grade)
        if col == self.QUESTION:
            return d.query
        return self._titles([d.chunk_id]).get(d.chunk_id, d.chunk_id)

    def titles_changed(self) -> None:
        """The open database named more chunks: the chunk column reads again."""
        if self._rows:
            self.dataChanged.emit(self.index(0, self.CHUNK), self.index(len(self._rows) - 1, self.CHUNK))

    def tooltip(self, row: int, col: int) -> str | None:
        d = self._rows[row]
        if col == self.SET:
            return "The set's grade (what eval scores); 0–3 settles it"
        title = self._titles([d.chunk_id]).get(d.chunk_id)
        return (f"{d.query} ({d.query_id})\n{title + ' · ' if title else ''}{d.chunk_id}: "
                + ", ".join(f"{j} {g}" for j, g in d.grades.items()))


class RunsModel(Table):
    """The runs kept for the open set, newest first."""

    COLUMNS = ("When", "nDCG@10", "MRR@10", "R@10", "Pool", "Judged", "Configuration")
    WHEN, NDCG, MRR, RECALL, POOL, JUDGED, CONFIG = range(7)
    RIGHT = frozenset({NDCG, MRR, RECALL, POOL, JUDGED})

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[Run] = []

    def set_runs(self, runs: list[Run]) -> None:
        self._rows = list(reversed(runs))
        self._reset(len(self._rows))

    def run(self, row: int) -> Run | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def key(self, row: int) -> str | None:
        return self._rows[row].at

    def cell(self, row: int, col: int) -> str:
        r = self._rows[row]
        m = r.metrics
        if col == self.WHEN:
            return r.at.replace("T", " ").removesuffix("Z")[:16]
        if col == self.CONFIG:
            return r.config
        key = {self.NDCG: "ndcg@10", self.MRR: "mrr@10", self.RECALL: "recall@10", self.POOL: "pool_recall",
               self.JUDGED: "judged_share"}[col]
        value = m.get(key)
        if value is None:
            return "–"
        return f"{value:.0%}" if col == self.JUDGED else f"{value:.3f}"

    def tooltip(self, row: int, col: int) -> str | None:
        r = self._rows[row]
        return f"{r.at} · {r.source} · {r.questions} questions\n{r.config}\n{r.library} · {r.model}"

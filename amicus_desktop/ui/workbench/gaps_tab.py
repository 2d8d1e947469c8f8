"""The workbench's *Gaps* tab: the chunks the last evaluation put in a top 10 that the golden set does not
judge, question by question in rank order — a queue to judge. Each row's chunk is read in the preview; 0–3
grades it for its question (saved at once, the cursor moves on), Enter asks the question."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHeaderView, QLabel, QVBoxLayout, QWidget

from ...session.workbench import Workbench
from .common import GradingView, on_row, table
from .review_models import GapsModel


class GapsTab(QWidget):
    askRequested = Signal(str)

    def __init__(self, bench: Workbench, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bench = bench
        self._shown: object = None
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setAccessibleName("Judgment gaps")
        self.model = GapsModel(self._grade, self.bench.review.titles, self)
        self.view = GradingView(self._judge_row)
        table(self.view, "Unjudged chunks of the top 10s (0–3 grades them)", self.model, stretch=GapsModel.CHUNK,
              titles=GapsModel.CHUNK)
        # the question's text shares the room with the title (its own width would push the title out of sight)
        self.view.horizontalHeader().setSectionResizeMode(GapsModel.QUESTION, QHeaderView.ResizeMode.Stretch)
        on_row(self.view, self._row_selected)
        self.view.activatedRow.connect(self._ask)
        v = QVBoxLayout(self)
        v.addWidget(self.status)
        v.addWidget(self.view, 1)

    def _grade(self, query_id: str, chunk_id: str) -> int | None:
        q = self.bench.golden_job.golden.query(query_id) if self.bench.golden_job.golden is not None else None
        return q.judgments.get(chunk_id) if q is not None else None

    def _judge_row(self, row: int, grade: int | None) -> bool:
        gap = self.model.gap(row)
        return gap is not None and self.bench.golden_job.judge_item(gap.query_id, gap.chunk_id, grade)

    def _row_selected(self, row: int) -> None:
        gap = self.model.gap(row)
        if gap is not None:
            self.bench.preview.show(gap.chunk_id)

    def _ask(self, row: int) -> None:
        gap = self.model.gap(row)
        if gap is not None:
            self.askRequested.emit(gap.query_id)

    def focus_queue(self) -> None:
        self.view.setFocus()
        if not self.view.currentIndex().isValid() and self.model.rowCount():
            self.view.setCurrentIndex(self.model.index(0, 0))

    def refresh(self) -> None:
        gaps = self.bench.review.gaps()
        if self.bench.eval_job.report is None:
            self.status.setText("Evaluate the set first: its top 10s' unjudged chunks are queued here to judge.")
        else:
            left = sum(1 for g in gaps if self._grade(g.query_id, g.chunk_id) is None)
            questions = len({g.query_id for g in gaps})
            self.status.setText(
                f"{len(gaps)} chunks in the last evaluation's top 10s were unjudged, over {questions} questions; "
                f"{left} still are. Unjudged results count as not relevant. Read each in the preview, press "
                "0–3 to grade it for its question; Enter asks the question.")
        if gaps is not self._shown:
            self._shown = gaps
            self.model.set_gaps(gaps)
        else:
            self.model.grades_changed()
            self.model.titles_changed()

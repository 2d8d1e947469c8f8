"""The workbench's *Evaluate* tab: *Evaluate set* (Alt+U) runs every golden question as a reader would get
it, with the what-if weights, with progress; then the set's scores beside what they rest on — the candidate
pool's recall (the search) next to nDCG@10 (the ranking), how much of the top 10s is judged, with *Judge the
gaps* — a chart per question (hover a bar for the question, click to read it, double-click or Enter to ask
it) and the judged chunks this database lacks."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QScrollArea, QVBoxLayout, QWidget

from ...evaluate.run import EvalReport
from ...session.workbench import Progress, Workbench
from .chart import EvalChart


class EvalTab(QWidget):
    """*Evaluate set* / *Cancel*, the progress bar, the scores, the chart and the missing chunk ids.
    :attr:`askRequested` carries a question id to ask; :attr:`gapsRequested` opens the gaps queue."""

    askRequested = Signal(str)
    gapsRequested = Signal()
    questionSelected = Signal(str)

    def __init__(self, bench: Workbench, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bench = bench
        self.eval_button = QPushButton("Eval&uate set")
        self.eval_button.clicked.connect(self.bench.eval_job.evaluate_set)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.bench.eval_job.cancel_evaluation)
        self.progress = QProgressBar()
        self.progress.setAccessibleName("Evaluation progress")
        self.progress.setFormat("%v of %m questions")
        self.eval_status = QLabel()
        self.eval_status.setWordWrap(True)
        self.eval_status.setAccessibleName("Set scores")
        self.judged_label = QLabel()
        self.judged_label.setWordWrap(True)
        self.judged_label.setAccessibleName("How much of the top 10s is judged")
        self.gaps_button = QPushButton("Judge the gaps")
        self.gaps_button.clicked.connect(self.gapsRequested.emit)
        self.chart = EvalChart()
        self.chart.selected.connect(self.questionSelected.emit)
        self.chart.activated.connect(self.askRequested.emit)
        self.chart.selected.connect(self._scroll_to_current)
        self.chart_scroll = QScrollArea()
        self.chart_scroll.setWidgetResizable(True)
        self.chart_scroll.setWidget(self.chart)
        self.missing_label = QLabel()
        self.missing_label.setWordWrap(True)
        self.missing_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.missing_label.setAccessibleName("Judged chunks not in this database")
        row = QHBoxLayout()
        row.addWidget(self.eval_button)
        row.addWidget(self.cancel_button)
        row.addWidget(self.progress, 1)
        judged = QHBoxLayout()
        judged.addWidget(self.judged_label, 1)
        judged.addWidget(self.gaps_button, 0, Qt.AlignmentFlag.AlignTop)
        v = QVBoxLayout(self)
        v.addLayout(row)
        v.addWidget(self.eval_status)
        v.addLayout(judged)
        v.addWidget(self.chart_scroll, 1)
        v.addWidget(self.missing_label)

    def _scroll_to_current(self, _qid: str) -> None:
        top = self.chart.row_top(self.chart.current)
        self.chart_scroll.ensureVisible(0, top + self.chart.ROW // 2, 0, self.chart.ROW)

    def refresh(self) -> None:
        b = self.bench
        self.eval_button.setEnabled(not b.eval_job.evaluating)
        self.cancel_button.setEnabled(b.eval_job.evaluating)
        report = b.eval_job.report
        if report is not None:
            self._render_report(report)
        elif not b.eval_job.evaluating:
            config = b.eval_job.eval_config()
            self.eval_status.setText(f"Evaluate set runs every golden question ({config.describe()}).")
            self.judged_label.setText("")
            self.gaps_button.hide()
            self.chart.set_bars([], None)
        if b.golden_job.missing:
            shown = ", ".join(b.golden_job.missing[:40])
            more = f" and {len(b.golden_job.missing) - 40} more" if len(b.golden_job.missing) > 40 else ""
            self.missing_label.setText(f"{len(b.golden_job.missing)} judged chunk ids are not in this database "
                                       f"(they count as not found): {shown}{more}.")
        else:
            self.missing_label.setText("")

    def _render_report(self, report: EvalReport) -> None:
        mean, n = report.mean, report.config.candidates
        search, rerank = report.misses
        self.eval_status.setText(
            f"{len(report.queries)} questions, {report.config.describe()}: mean nDCG@10 {mean['ndcg@10']:.3f}, "
            f"MRR@10 {mean['mrr@10']:.3f}, Recall@10 {mean['recall@10']:.3f}; the search: recall@{n} of the "
            f"candidate pool {report.pool_recall:.3f}. Of the relevant judged chunks not in a top 10, {search} were "
            f"not among the candidates (the search's misses) and {rerank} were (the ranking's).")
        coverage = self.bench.review.coverage()
        gaps = len(self.bench.review.gaps())
        self.judged_label.setText((coverage.sentence() if coverage is not None else "") + ".")
        self.gaps_button.setVisible(gaps > 0)
        self.gaps_button.setText(f"Judge the gaps ({gaps})")
        tips = [f"{q.id}: {q.query}\nnDCG@10 {q.scores['ndcg@10']:.3f} · MRR@10 {q.scores['mrr@10']:.3f} · "
                f"recall@{n} of the pool {q.pool_recall:.2f}"
                + (f" · {len(q.unjudged)} unjudged in the top 10" if q.unjudged else "")
                + "\nClick to read it, double-click or Enter to ask it" for q in report.queries]
        self.chart.set_bars([(q.id, q.scores["ndcg@10"]) for q in report.queries], mean["ndcg@10"],
                            second=[q.pool_recall if q.relevant else None for q in report.queries], tips=tips)

    def render_progress(self, p: Progress) -> None:
        self.progress.setRange(0, p.total)
        self.progress.setValue(p.done)

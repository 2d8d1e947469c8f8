"""The workbench's *Evaluate* tab: *Evaluate set* (Alt+U) runs every golden question with the what-if
weights, with progress, the set's scores, a chart per question and the judged chunks this database
lacks."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QScrollArea, QVBoxLayout, QWidget

from ...session.workbench import Progress, Workbench
from .chart import EvalChart


class EvalTab(QWidget):
    """*Evaluate set* / *Cancel*, the progress bar, the scores, the chart and the missing chunk ids."""

    def __init__(self, bench: Workbench, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bench = bench
        self.eval_button = QPushButton("Eval&uate set")
        self.eval_button.clicked.connect(self.bench.evaluate_set)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.bench.cancel_evaluation)
        self.progress = QProgressBar()
        self.progress.setAccessibleName("Evaluation progress")
        self.progress.setFormat("%v of %m questions")
        self.eval_status = QLabel()
        self.eval_status.setWordWrap(True)
        self.eval_status.setAccessibleName("Set scores")
        self.chart = EvalChart()
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.chart)
        self.missing_label = QLabel()
        self.missing_label.setWordWrap(True)
        self.missing_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.missing_label.setAccessibleName("Judged chunks not in this database")
        row = QHBoxLayout()
        row.addWidget(self.eval_button)
        row.addWidget(self.cancel_button)
        row.addWidget(self.progress, 1)
        v = QVBoxLayout(self)
        v.addLayout(row)
        v.addWidget(self.eval_status)
        v.addWidget(scroll, 1)
        v.addWidget(self.missing_label)

    def refresh(self) -> None:
        b = self.bench
        self.eval_button.setEnabled(not b.evaluating)
        self.cancel_button.setEnabled(b.evaluating)
        report = b.report
        if report is not None:
            mean = report.mean
            self.eval_status.setText(
                f"{len(report.queries)} questions, {report.config.describe()}: mean nDCG@10 {mean['ndcg@10']:.3f}, "
                f"MRR@10 {mean['mrr@10']:.3f}, Recall@10 {mean['recall@10']:.3f}.")
            self.chart.set_bars([(q.id, q.scores["ndcg@10"]) for q in report.queries], mean["ndcg@10"])
        elif not b.evaluating:
            self.eval_status.setText(f"Evaluate set runs every golden question ({b.eval_config().describe()}).")
            self.chart.set_bars([], None)
        if b.missing:
            shown = ", ".join(b.missing[:40])
            more = f" and {len(b.missing) - 40} more" if len(b.missing) > 40 else ""
            self.missing_label.setText(f"{len(b.missing)} judged chunk ids are not in this database "
                                       f"(they count as not found): {shown}{more}.")
        else:
            self.missing_label.setText("")

    def render_progress(self, p: Progress) -> None:
        self.progress.setRange(0, p.total)
        self.progress.setValue(p.done)

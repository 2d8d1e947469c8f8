"""The workbench's *Weight search* tab: search the boosts, cap, fusion, spread and focus on half of the
golden set, within a time budget, off the UI thread with a progress bar; the report says the training and
held-out numbers, the held-out interval, how many questions, and when the gain is within noise. *Apply as my
weights* saves what was found as the curator's settings."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QSpinBox, QVBoxLayout, QWidget

from ...evaluate import tuning
from ...session.workbench import TuneProgress, Workbench


class TuneTab(QWidget):
    def __init__(self, bench: Workbench, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bench = bench
        self.budget = QSpinBox()
        self.budget.setRange(5, 1800)
        self.budget.setValue(60)
        self.budget.setSuffix(" s")
        self.budget.setAccessibleName("Time budget of the search, in seconds")
        budget_label = QLabel("Bu&dget:")
        budget_label.setBuddy(self.budget)
        self.search_button = QPushButton("Search weights")
        self.search_button.clicked.connect(lambda: self.bench.tune.start(float(self.budget.value())))
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.bench.tune.cancel)
        self.progress = QProgressBar()
        self.progress.setAccessibleName("Weight search progress")
        self.report = QLabel()
        self.report.setWordWrap(True)
        self.report.setTextFormat(Qt.TextFormat.RichText)
        self.report.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.report.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.report.setAccessibleName("Weight search report")
        self.apply_button = QPushButton("Apply as my weights")
        self.apply_button.clicked.connect(self.bench.tune.apply)
        row = QHBoxLayout()
        row.addWidget(budget_label)
        row.addWidget(self.budget)
        row.addWidget(self.search_button)
        row.addWidget(self.cancel_button)
        apply_row = QHBoxLayout()
        apply_row.addWidget(self.apply_button)
        apply_row.addStretch(1)
        v = QVBoxLayout(self)
        v.addLayout(row)
        v.addWidget(self.progress)
        v.addWidget(self.report, 1)
        v.addLayout(apply_row)

    def refresh(self) -> None:
        t = self.bench.tune
        self.search_button.setEnabled(not t.running)
        self.cancel_button.setEnabled(t.running)
        outcome = t.outcome
        self.apply_button.setEnabled(outcome is not None and bool(tuning.changes(outcome)) and not t.running)
        if t.running:
            return
        if outcome is None:
            start = t.start_config().describe()
            self.report.setText(html.escape(
                f"Searches the boosts, the cap, the fusion and the ranking policy's spread and focus on half of the "
                f"open golden set (chosen by a hash of each question's id), starting from your weights ({start}), "
                "and reports on the other half, which the search never sees, with a paired bootstrap interval."))
            return
        warnings = set(tuning.warnings(outcome))
        lines = [f"<p><b>{html.escape(line)}</b></p>" if line in warnings else f"<p>{html.escape(line)}</p>"
                 for line in tuning.summary(outcome)]
        self.report.setText("".join(lines))

    def render_progress(self, p: TuneProgress) -> None:
        if p.tried == 0:
            self.progress.setFormat("asking the questions: %v of %m")
            self.progress.setRange(0, max(1, p.questions))
            self.progress.setValue(p.asked)
        else:
            best = f", best training nDCG@10 {p.best:.3f}" if p.best is not None else ""
            self.progress.setFormat(f"%v configurations tried{best}")
            self.progress.setRange(0, max(p.planned, p.tried))
            self.progress.setValue(p.tried)

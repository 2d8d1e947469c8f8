"""The workbench's *History* tab: every evaluation of the open golden set kept (in the workbench and by
``eval``), drawn as a trend — nDCG@10, MRR@10 and pool recall, run by run — over the table of runs; a run's
configuration, library and model are read in the preview."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSplitter, QTableView, QVBoxLayout, QWidget

from ...session.workbench import Workbench
from .common import on_row, table
from .preview import ChunkPreview
from .review_models import RunsModel
from .trend import TrendChart


class HistoryTab(QWidget):
    def __init__(self, bench: Workbench, preview: ChunkPreview, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bench = bench
        self._preview = preview
        self._shown: object = None
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setAccessibleName("History of the golden set")
        self.chart = TrendChart()
        self.model = RunsModel(self)
        self.view = table(QTableView(), "Evaluations of this golden set, newest first", self.model,
                          stretch=RunsModel.CONFIG)
        on_row(self.view, self._row_selected)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.chart)
        split.addWidget(self.view)
        split.setChildrenCollapsible(False)
        v = QVBoxLayout(self)
        v.addWidget(self.status)
        v.addWidget(split, 1)

    def _row_selected(self, row: int) -> None:
        run = self.model.run(row)
        if run is None:
            return
        m = run.metrics
        self._preview.show_note(f"Run of {run.at.replace('T', ' ').removesuffix('Z')} ({run.source})", [
            f"{run.questions} questions · {run.config}",
            "nDCG@10 " + f"{m.get('ndcg@10', 0):.3f} · MRR@10 {m.get('mrr@10', 0):.3f} · "
            f"Recall@10 {m.get('recall@10', 0):.3f} · pool recall {m.get('pool_recall', 0):.3f} · "
            f"judged {m.get('judged_share', 0):.0%}",
            f"Library {run.library}" + (f" ({run.chunks:,} chunks)" if run.chunks else "") + f" · model {run.model}",
        ])

    def refresh(self) -> None:
        runs = self.bench.history_job.runs
        golden = self.bench.golden_job.golden
        if golden is None:
            self.status.setText("Open a golden set to see its evaluations over time.")
        elif not runs:
            self.status.setText(f"No evaluation of “{golden.name}” is kept yet: Evaluate set (or amicus-desktop "
                                "eval) keeps each one here.")
        elif len(runs) == 1:
            self.status.setText(f"One evaluation of “{golden.name}”, on {runs[0].at[:10]}: nDCG@10 "
                                f"{runs[0].metrics.get('ndcg@10', 0.0):.3f}.")
        else:
            first = runs[0].metrics.get("ndcg@10", 0.0)
            last = runs[-1].metrics.get("ndcg@10", 0.0)
            self.status.setText(f"{len(runs)} evaluations of “{golden.name}” since {runs[0].at[:10]}: nDCG@10 "
                                f"{first:.3f} then, {last:.3f} in the latest ({last - first:+.3f}).")
        if runs is not self._shown:
            self._shown = runs
            self.chart.set_runs(runs)
            self.model.set_runs(runs)

"""The workbench's *Judges* tab: how far the golden set's judges agree — Krippendorff's α (ordinal), exact and
within-one agreement, Cohen's κ (linear weights) and the confusion matrix of each pair — and the items they
disagree on most, first. A row's chunk is read in the preview; 0–3 settles the set's grade, Enter asks the
question. *Import judgments…* and *Export judgments…* move grades to and from Quepid, TREC and
``_rank_eval``."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QHeaderView, QLabel, QPushButton, QVBoxLayout, QWidget

from ...evaluate.agreement import Agreement, PairAgreement
from ...evaluate.golden import GRADES
from ...session.workbench import Workbench
from .common import GradingView, on_row, table
from .review_models import DisagreementModel


def pair_html(p: PairAgreement) -> str:
    kappa = "n/a" if p.kappa is None else f"{p.kappa:.3f}"
    head = "".join(f"<th>&nbsp;{g}&nbsp;</th>" for g in GRADES)
    rows = "".join(f"<tr><th>{g}</th>" + "".join(f"<td align='right'>&nbsp;{n}&nbsp;</td>" for n in p.confusion[g])
                   + "</tr>" for g in GRADES)
    who = f"{html.escape(p.a)} × {html.escape(p.b)}"
    return (f"<p><b>{who}</b>: {p.items} items, Cohen's κ (linear weights) {kappa}, exact {p.exact:.0%}, "
            f"within one {p.within_one:.0%}</p><table cellspacing='0' border='1' style='border-collapse:collapse'>"
            f"<tr><th>{html.escape(p.a)} ↓ {html.escape(p.b)} →</th>{head}</tr>{rows}</table>")


def summary_html(a: Agreement) -> str:
    if len(a.judges) < 2 or not a.items:
        who = ", ".join(a.judges) or "no judge"
        return (f"Agreement needs items graded by two judges or more; this set records {html.escape(who)}. "
                "Import another judge's ratings, or grade in the workbench under another name (Settings).")
    alpha = "n/a" if a.alpha is None else f"{a.alpha:.3f}"
    reading = "" if a.alpha is None else (
        " (reliable: ≥ 0.8)" if a.alpha >= 0.8 else " (tentative: 0.667–0.8)" if a.alpha >= 0.667
        else " (below 0.667: settle the disagreements before relying on the grades)")
    head = (f"<p>{len(a.judges)} judges ({html.escape(', '.join(a.judges))}), {a.items} items graded by two or more. "
            f"<b>Krippendorff's α (ordinal) {alpha}</b>{reading}; exact agreement {a.exact:.0%}, within one grade "
            f"{a.within_one:.0%}.</p>")
    return head + "".join(pair_html(p) for p in a.pairs[:3])


class JudgesTab(QWidget):
    askRequested = Signal(str)
    importRequested = Signal()
    exportRequested = Signal()

    def __init__(self, bench: Workbench, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bench = bench
        self._shown: object = None
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setAccessibleName("Agreement between judges")
        self.import_button = QPushButton("Import judgments…")
        self.import_button.clicked.connect(self.importRequested.emit)
        self.export_button = QPushButton("Export judgments…")
        self.export_button.clicked.connect(self.exportRequested.emit)
        self.model = DisagreementModel(self.bench.review.titles, self)
        self.view = GradingView(self._judge_row)
        table(self.view, "Most disagreed items (0–3 settles the set's grade)", self.model,
              stretch=DisagreementModel.CHUNK, titles=DisagreementModel.CHUNK)
        # the question's text shares the room with the title (its own width would push the title out of sight)
        self.view.horizontalHeader().setSectionResizeMode(DisagreementModel.QUESTION, QHeaderView.ResizeMode.Stretch)
        on_row(self.view, self._row_selected)
        self.view.activatedRow.connect(self._ask)
        buttons = QHBoxLayout()
        buttons.addWidget(self.import_button)
        buttons.addWidget(self.export_button)
        buttons.addStretch(1)
        v = QVBoxLayout(self)
        v.addLayout(buttons)
        v.addWidget(self.summary)
        v.addWidget(self.view, 1)

    def _judge_row(self, row: int, grade: int | None) -> bool:
        d = self.model.item(row)
        return d is not None and self.bench.golden_job.judge_item(d.query_id, d.chunk_id, grade)

    def _row_selected(self, row: int) -> None:
        d = self.model.item(row)
        if d is not None:
            self.bench.preview.show(d.chunk_id)

    def _ask(self, row: int) -> None:
        d = self.model.item(row)
        if d is not None:
            self.askRequested.emit(d.query_id)

    def refresh(self) -> None:
        found = self.bench.review.agreement()
        self.import_button.setEnabled(self.bench.golden_job.golden is not None)
        self.export_button.setEnabled(self.bench.golden_job.golden is not None)
        if found is None:
            self.summary.setText("Open a golden set to see how far its judges agree.")
            self.model.set_items([])
            return
        if found is not self._shown:
            self._shown = found
            self.summary.setText(summary_html(found))
            current = self.view.currentIndex()
            self.model.set_items(list(found.disagreements))
            if current.isValid() and current.row() < self.model.rowCount():
                self.view.setCurrentIndex(self.model.index(current.row(), current.column()))
        else:
            self.model.titles_changed()

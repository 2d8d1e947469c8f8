"""The workbench's *What-if & judge* tab: the weights being tried, the ranking they give (graded
with the number keys into the golden set) and the question's scores.

Keyboard: the weights are Alt+R (chapter), Alt+O (scholar), Alt+T (tradition), Alt+N (reference),
Alt+P (cap); the ranking takes 0–3 to grade the result under the cursor (Delete removes the grade)
and moves to the next row; Tab from the ranking reaches the field that says why the selected result has
its grade (the golden set's ``rationale``, saved when the field is left or Enter is pressed). The
selected result is read in the workbench's preview under the tabs.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ...core.query import BoostWeights
from ...present import describe
from ...session.workbench import Workbench
from ..weights import boost_spin
from .common import GradingView, on_row, table
from .models import RankingModel


def _boost_spin(name: str) -> QDoubleSpinBox:
    spin = boost_spin(name)
    spin.setKeyboardTracking(False)  # one what-if per value typed, not per keystroke
    return spin


class WhatIfTab(QWidget):
    """Spin boxes for the what-if weights, *Save as my weights* / *Reset*, the ranking and its scores."""

    def __init__(self, bench: Workbench, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bench = bench
        self._syncing = False
        self.chapter_spin = _boost_spin("Chapter boost")
        self.scholar_spin = _boost_spin("Scholar boost")
        self.tradition_spin = _boost_spin("Tradition boost")
        self.reference_spin = _boost_spin("Reference boost")
        self.cap_spin = QSpinBox()
        self.cap_spin.setRange(0, 50)
        self.cap_spin.setSpecialValueText("no cap")
        self.cap_spin.setAccessibleName("At most per scholar (0: no cap)")
        self.cap_spin.setKeyboardTracking(False)
        grid = QGridLayout()
        spins: tuple[tuple[str, QAbstractSpinBox], ...] = (
            ("Chapte&r ×", self.chapter_spin), ("Sch&olar ×", self.scholar_spin),
            ("&Tradition ×", self.tradition_spin), ("Refere&nce ×", self.reference_spin),
            ("Ca&p per scholar", self.cap_spin))
        for i, (label, spin) in enumerate(spins):
            lab = QLabel(label)
            lab.setBuddy(spin)
            grid.addWidget(lab, i // 3 * 2, i % 3)
            grid.addWidget(spin, i // 3 * 2 + 1, i % 3)
        for boost in (self.chapter_spin, self.scholar_spin, self.tradition_spin, self.reference_spin):
            boost.valueChanged.connect(self._weights_edited)
        self.cap_spin.valueChanged.connect(self._weights_edited)
        self.save_weights = QPushButton("Save as my weights")
        self.save_weights.clicked.connect(self.bench.whatif_job.save_weights)
        self.reset_weights = QPushButton("Reset")
        self.reset_weights.clicked.connect(self.bench.whatif_job.reset)
        buttons = QHBoxLayout()
        buttons.addWidget(self.save_weights)
        buttons.addWidget(self.reset_weights)
        buttons.addStretch(1)
        self.whatif_status = QLabel()
        self.whatif_status.setWordWrap(True)
        self.whatif_status.setAccessibleName("What-if status")
        self.ranking_model = RankingModel(self.bench.golden_job.grade, self, why=self.bench.golden_job.why)
        self.ranking = table(GradingView(self._judge_row), "What-if ranking (0–3 grades the selected result)",
                             self.ranking_model, stretch=RankingModel.TITLE, titles=RankingModel.TITLE)
        on_row(self.ranking, self._row_selected)
        self.why_edit = QLineEdit()
        self.why_edit.setAccessibleName("Why this grade")
        self.why_edit.setPlaceholderText("Select a graded result, then say why it has its grade")
        self.why_edit.setToolTip("The reason kept beside the grade in the golden set (its rationale); "
                                 "saved when you press Enter or leave the field")
        self.why_edit.editingFinished.connect(self._why_edited)
        self._why_chunk: str | None = None
        self.ranking.selectionModel().currentRowChanged.connect(lambda current, _p: self._show_why(current.row()))
        why_label = QLabel("Why this grade:")
        why_label.setBuddy(self.why_edit)
        why_row = QHBoxLayout()
        why_row.addWidget(why_label)
        why_row.addWidget(self.why_edit, 1)
        self.scores_label = QLabel()
        self.scores_label.setWordWrap(True)
        self.scores_label.setAccessibleName("Question scores")
        v = QVBoxLayout(self)
        v.addLayout(grid)
        v.addLayout(buttons)
        v.addWidget(self.whatif_status)
        v.addWidget(self.ranking, 1)
        v.addLayout(why_row)
        v.addWidget(self.scores_label)

    def _judge_row(self, row: int, grade: int | None) -> bool:
        chunk_id = self.ranking_model.key(row) if 0 <= row < self.ranking_model.rowCount() else None
        return chunk_id is not None and self.bench.golden_job.judge(chunk_id, grade)

    def _show_why(self, row: int) -> None:
        """The reason for the selected result's grade in the field (not while the curator is typing one)."""
        chunk_id = self.ranking_model.key(row) if 0 <= row < self.ranking_model.rowCount() else None
        if chunk_id == self._why_chunk and self.why_edit.hasFocus():
            return
        self._why_chunk = chunk_id
        self.why_edit.setText(self.bench.golden_job.why(chunk_id) if chunk_id is not None else "")
        self.why_edit.setEnabled(chunk_id is not None)

    def _why_edited(self) -> None:
        if self._why_chunk is not None and self.why_edit.isModified():
            self.why_edit.setModified(False)
            self.bench.golden_job.set_why(self._why_chunk, self.why_edit.text())

    def _row_selected(self, row: int) -> None:
        r = self.ranking_model.chunk(row)
        if r is not None:
            self.bench.preview.show(r.chunk_id, r.candidate)

    def _weights_edited(self) -> None:
        if self._syncing:
            return
        cap = self.cap_spin.value()
        self.bench.whatif_job.set_weights(BoostWeights(
            chapter=self.chapter_spin.value(), scholar=self.scholar_spin.value(),
            tradition=self.tradition_spin.value(), per_scholar_cap=cap or None,
            reference=self.reference_spin.value()))

    def focus_ranking(self) -> None:
        self.ranking.setFocus(Qt.FocusReason.ShortcutFocusReason)
        if not self.ranking.currentIndex().isValid() and self.ranking_model.rowCount():
            self.ranking.setCurrentIndex(self.ranking_model.index(0, 0))

    def refresh(self) -> None:
        b = self.bench
        self._sync_spins(b.whatif_job.weights)
        current = self.ranking.currentIndex()
        key = self.ranking_model.key(current.row()) if current.isValid() and self.ranking_model.rowCount() else None
        self.ranking_model.set_whatif(b.whatif_job.whatif)
        if key is not None and (row := self.ranking_model.row_of(key)) >= 0:
            self.ranking.setCurrentIndex(self.ranking_model.index(row, current.column()))
        self._show_why(self.ranking.currentIndex().row())
        self.save_weights.setEnabled(b.whatif_job.dirty)
        self.reset_weights.setEnabled(b.whatif_job.dirty)
        self.whatif_status.setText(self._whatif_text())
        scores = b.golden_job.question_scores()
        mean = b.eval_job.report.mean if b.eval_job.report is not None else None
        parts = []
        if scores is not None:
            parts.append(f"This question: nDCG@10 {scores['ndcg@10']:.3f} · MRR@10 {scores['mrr@10']:.3f} · "
                         f"grading as {b.golden_job.judge_name}")
        elif b.golden_job.golden is not None and b.question is not None:
            parts.append("This question is not in the golden set yet: grading a result adds it.")
        if mean is not None:
            parts.append(f"Set mean: nDCG@10 {mean['ndcg@10']:.3f} · MRR@10 {mean['mrr@10']:.3f}")
        self.scores_label.setText("\n".join(parts))

    def _whatif_text(self) -> str:
        w = self.bench.whatif_job.whatif
        if w is None:
            return "Ask a question: its ranking appears here and re-ranks as you change the weights."
        policy = w.result.context.policy if w.result.context is not None else None
        saved = describe.weights_text(self.bench.whatif_job.saved_weights, policy)
        if not self.bench.whatif_job.dirty:
            return f"Ranked with your saved weights ({saved}). Change one to see what moves."
        moved = sum(1 for r in w.result.results if w.move(r.chunk_id, r.rank) != 0)
        return (f"What-if: {describe.weights_text(w.weights, policy)}. {moved} of {len(w.result.results)} ranks differ "
                f"from your saved weights ({saved}); re-ranked the same {len(w.result.candidates)} candidates "
                f"in {w.ms:.2f} ms, no new search.")

    def _sync_spins(self, w: BoostWeights) -> None:
        self._syncing = True
        try:
            self.chapter_spin.setValue(w.chapter)
            self.scholar_spin.setValue(w.scholar)
            self.tradition_spin.setValue(w.tradition)
            self.reference_spin.setValue(w.reference)
            self.cap_spin.setValue(w.per_scholar_cap or 0)
        finally:
            self._syncing = False

"""The workbench's *A/B* tab: two configurations (mode, weights, profile, chapter) answer the question
on screen, side by side, with how much they agree. Alt+M compares; selecting a result on one side
finds it on the other."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableView,
    QWidget,
)

from ...core.query import NO_BOOSTS, RetrievalContext, SearchMode
from ...present import describe
from ...session.workbench import Side, Workbench
from .common import table
from .models import SideModel

WEIGHT_CHOICES = ("saved weights", "what-if weights", "no boosts, no cap")


class ABTab(QWidget):
    """Side A and side B, *Compare A and B*, the agreement and both rankings."""

    def __init__(self, bench: Workbench, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bench = bench
        self._syncing = False
        box_a, self.a_mode, self.a_weights, self.a_profile, self.a_chapter = self._side_box("A")
        box_b, self.b_mode, self.b_weights, self.b_profile, self.b_chapter = self._side_box("B")
        self.a_mode.setCurrentIndex(self.a_mode.findData(SearchMode.HYBRID.value))
        self.b_mode.setCurrentIndex(self.b_mode.findData(SearchMode.SEMANTIC.value))
        self.compare_button = QPushButton("Co&mpare A and B")
        self.compare_button.clicked.connect(self.compare)
        self.ab_status = QLabel("Ask a question, choose two configurations and compare.")
        self.ab_status.setWordWrap(True)
        self.ab_status.setAccessibleName("A/B agreement")
        self.a_model, self.b_model = SideModel("B", self), SideModel("A", self)
        self.a_view = table(QTableView(), "A results")
        self.b_view = table(QTableView(), "B results")
        self.a_view.setModel(self.a_model)
        self.b_view.setModel(self.b_model)
        self.a_view.selectionModel().currentRowChanged.connect(
            lambda cur, _prev: self._link(cur, self.a_model, self.b_view, self.b_model))
        self.b_view.selectionModel().currentRowChanged.connect(
            lambda cur, _prev: self._link(cur, self.b_model, self.a_view, self.a_model))
        g = QGridLayout(self)
        g.addWidget(box_a, 0, 0)
        g.addWidget(box_b, 0, 1)
        g.addWidget(self.compare_button, 1, 0)
        g.addWidget(self.ab_status, 2, 0, 1, 2)
        g.addWidget(self.a_view, 3, 0)
        g.addWidget(self.b_view, 3, 1)
        g.setRowStretch(3, 1)

    def _side_box(self, title: str) -> tuple[QGroupBox, QComboBox, QComboBox, QCheckBox, QCheckBox]:
        box = QGroupBox(title)
        mode = QComboBox()
        for m in SearchMode:
            mode.addItem(m.value, m.value)
        mode.setAccessibleName(f"{title}: search mode")
        weights = QComboBox()
        weights.addItems(list(WEIGHT_CHOICES))
        weights.setAccessibleName(f"{title}: weights")
        profile = QCheckBox("my profile")
        profile.setChecked(True)
        chapter = QCheckBox("open chapter")
        chapter.setChecked(True)
        form = QFormLayout(box)
        form.addRow("Mode:", mode)
        form.addRow("Weights:", weights)
        row = QHBoxLayout()
        row.addWidget(profile)
        row.addWidget(chapter)
        form.addRow(row)
        return box, mode, weights, profile, chapter

    def _side(self, label: str, mode: QComboBox, weights: QComboBox, profile: QCheckBox, chapter: QCheckBox) -> Side:
        chosen = {0: self.bench.saved_weights, 1: self.bench.weights, 2: NO_BOOSTS}[weights.currentIndex()]
        return self.bench.side(SearchMode(mode.currentData()), chosen, profile=profile.isChecked(),
                               chapter=chapter.isChecked(), label=label)

    def compare(self) -> None:
        a = self._side("A", self.a_mode, self.a_weights, self.a_profile, self.a_chapter)
        b = self._side("B", self.b_mode, self.b_weights, self.b_profile, self.b_chapter)
        self.bench.compare(a, b)

    def _link(self, current: QModelIndex, model: SideModel, other_view: QTableView, other: SideModel) -> None:
        """Select in one list, highlight the same chunk in the other (without taking the focus)."""
        if self._syncing or not current.isValid():
            return
        chunk_id = model.key(current.row())
        row = other.row_of(chunk_id) if chunk_id else -1
        self._syncing = True
        try:
            if row < 0:
                other_view.clearSelection()
            else:
                other_view.setCurrentIndex(other.index(row, 0))
                other_view.scrollTo(other.index(row, 0))
        finally:
            self._syncing = False

    def refresh(self) -> None:
        ab = self.bench.ab
        self.compare_button.setEnabled(not self.bench.ab_running)
        if self.bench.ab_running:
            self.ab_status.setText("Searching for both sides…")
        if ab is None:
            if self.a_model.rowCount() or self.b_model.rowCount():
                self.a_model.set_rows((), {})
                self.b_model.set_rows((), {})
                self.ab_status.setText("Ask a question, choose two configurations and compare.")
            return
        self.a_model.set_rows(ab.a.results, ab.ranks_b)
        self.b_model.set_rows(ab.b.results, ab.ranks_a)
        if not self.bench.ab_running:
            shared = len(set(ab.ranks_a) & set(ab.ranks_b))
            self.ab_status.setText(
                f"A: {_side_words(ab.a.context)} · B: {_side_words(ab.b.context)}. "
                f"overlap@10 (Jaccard) {ab.overlap:.2f}, rank-biased overlap (p 0.9) {ab.rbo:.2f}; "
                f"{shared} results in both. Select a result on one side to find it on the other.")


def _side_words(ctx: RetrievalContext | None) -> str:
    if ctx is None:
        return ""
    chapter = str(ctx.chapter) if ctx.chapter else "no chapter"
    return f"{ctx.mode.value}, {describe.weights_text(ctx.weights)}, {chapter}"

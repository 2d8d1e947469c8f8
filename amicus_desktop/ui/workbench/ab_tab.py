"""The workbench's *A/B* tab: two configurations (mode, weights, profile, chapter) answer the question
on screen, side by side, with how much they agree and how much of each side the golden set judges (a side
is never seen to win on results no one has judged without the line saying so). Alt+M compares; selecting a
result on one side finds it on the other and shows it in the preview."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QWidget,
)

from ...core.query import NO_BOOSTS, RetrievalContext, SearchMode
from ...core.results import RetrievalResult
from ...evaluate.metrics import judged_share
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
        self.a_view = table(QTableView(), "A results", self.a_model, stretch=SideModel.TITLE, titles=SideModel.TITLE)
        self.b_view = table(QTableView(), "B results", self.b_model, stretch=SideModel.TITLE, titles=SideModel.TITLE)
        self.a_view.selectionModel().currentRowChanged.connect(
            lambda cur, _prev: self._link(cur, self.a_model, self.b_view, self.b_model))
        self.b_view.selectionModel().currentRowChanged.connect(
            lambda cur, _prev: self._link(cur, self.b_model, self.a_view, self.a_model))
        # side by side when there is room for the titles, one above the other in a narrow dock (1000 px)
        self.lists = QSplitter(Qt.Orientation.Horizontal)
        self.lists.addWidget(self.a_view)
        self.lists.addWidget(self.b_view)
        self.lists.setChildrenCollapsible(False)
        g = QGridLayout(self)
        g.addWidget(box_a, 0, 0)
        g.addWidget(box_b, 0, 1)
        g.addWidget(self.compare_button, 1, 0)
        g.addWidget(self.ab_status, 2, 0, 1, 2)
        g.addWidget(self.lists, 3, 0, 1, 2)
        g.setRowStretch(3, 1)

    #: narrower than this, the two lists stack (each then has the tab's width for its titles)
    SIDE_BY_SIDE = 760

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        wanted = Qt.Orientation.Horizontal if self.width() >= self.SIDE_BY_SIDE else Qt.Orientation.Vertical
        if self.lists.orientation() != wanted:
            self.lists.setOrientation(wanted)

    def _side_box(self, title: str) -> tuple[QGroupBox, QComboBox, QComboBox, QCheckBox, QCheckBox]:
        box = QGroupBox(title)
        mode = QComboBox()
        for m in SearchMode:
            mode.addItem(m.value, m.value)
        mode.setAccessibleName(f"{title}: search mode")
        weights = QComboBox()
        weights.addItems(list(WEIGHT_CHOICES))
        weights.setAccessibleName(f"{title}: weights")
        for combo in (mode, weights):  # narrow enough for a 1000 px window beside the results
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(8)
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
        whatif = self.bench.whatif_job
        chosen = {0: whatif.saved_weights, 1: whatif.weights, 2: NO_BOOSTS}[weights.currentIndex()]
        return self.bench.ab_job.side(SearchMode(mode.currentData()), chosen, profile=profile.isChecked(),
                               chapter=chapter.isChecked(), label=label)

    def compare(self) -> None:
        a = self._side("A", self.a_mode, self.a_weights, self.a_profile, self.a_chapter)
        b = self._side("B", self.b_mode, self.b_weights, self.b_profile, self.b_chapter)
        self.bench.ab_job.compare(a, b)

    def _link(self, current: QModelIndex, model: SideModel, other_view: QTableView, other: SideModel) -> None:
        """Select in one list, highlight the same chunk in the other (without taking the focus)."""
        if self._syncing or not current.isValid():
            return
        r = model.chunk(current.row())
        if r is not None and self.isVisible():
            self.bench.preview.show(r.chunk_id, r.candidate)
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
        ab = self.bench.ab_job.ab
        self.compare_button.setEnabled(not self.bench.ab_job.ab_running)
        if self.bench.ab_job.ab_running:
            self.ab_status.setText("Searching for both sides…")
        if ab is None:
            if self.a_model.rowCount() or self.b_model.rowCount():
                self.a_model.set_rows((), {})
                self.b_model.set_rows((), {})
                self.ab_status.setText("Ask a question, choose two configurations and compare.")
            return
        self.a_model.set_rows(ab.a.results, ab.ranks_b)
        self.b_model.set_rows(ab.b.results, ab.ranks_a)
        if not self.bench.ab_job.ab_running:
            shared = len(set(ab.ranks_a) & set(ab.ranks_b))
            self.ab_status.setText(
                f"A: {_side_words(ab.a.context)} · B: {_side_words(ab.b.context)}. "
                f"overlap@10 (Jaccard) {ab.overlap:.2f}, rank-biased overlap (p 0.9) {ab.rbo:.2f}; "
                f"{shared} results in both. {self._judged(ab.a, ab.b)} "
                "Select a result on one side to find it on the other.")

    def _judged(self, a: RetrievalResult, b: RetrievalResult) -> str:
        """How much of each side the golden set judges: unjudged results count as not relevant."""
        q = self.bench.golden_job.current_query()
        if q is None:
            return "This question is not in the golden set: neither side is judged."
        share_a = judged_share([r.chunk_id for r in a.results], q.judgments) or 0.0
        share_b = judged_share([r.chunk_id for r in b.results], q.judgments) or 0.0
        warn = " — judge the rest before calling a winner." if min(share_a, share_b) < 1 else "."
        return f"Judged: A {share_a:.0%}, B {share_b:.0%} of the top 10{warn}"


def _side_words(ctx: RetrievalContext | None) -> str:
    if ctx is None:
        return ""
    chapter = str(ctx.chapter) if ctx.chapter else "no chapter"
    return f"{ctx.mode.value}, {describe.weights_text(ctx.weights, ctx.policy)}, {chapter}"

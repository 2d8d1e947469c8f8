"""The curator workbench dock: What-if & judge, A/B, Evaluate, Snapshots — four tabs over one
:class:`~amicus_desktop.session.workbench.Workbench`.

Only rendering and key handling live here; every number comes from the workbench. Keyboard: the
tabs have mnemonics (Alt+W, Alt+B, Alt+L, Alt+S), the ranking takes 0–3 to grade the result under
the cursor (Delete removes the grade) and moves to the next row; the weights are Alt+R (chapter),
Alt+O (scholar), Alt+T (tradition), Alt+N (reference), Alt+P (cap); Alt+M compares A and B, Alt+U
evaluates the set, every control is in the tab order.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from PySide6.QtCore import QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...core.query import NO_BOOSTS, BoostWeights, RetrievalContext, SearchMode
from ...present import describe
from ...session.workbench import Progress, Side, Workbench
from .chart import EvalChart
from .models import ChangesModel, ChunkIdRole, RankingModel, SideModel

WEIGHT_CHOICES = ("saved weights", "what-if weights", "no boosts, no cap")


class WorkbenchSignals(QObject):
    """The workbench's events as Qt signals (dropped by Qt when the panel goes away)."""

    changed = Signal()
    notice = Signal(str)
    progress = Signal(object)  # Progress

    def __init__(self, bench: Workbench, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._disconnects = [
            bench.changed.connect(lambda _v: self.changed.emit()),
            bench.notice.connect(self.notice.emit),
            bench.progress.connect(self.progress.emit),
        ]

    def detach(self) -> None:
        for disconnect in self._disconnects:
            disconnect()
        self._disconnects = []


class RankingView(QTableView):
    """A results table that grades with the number keys: 0–3 grade, Delete removes; after a grade
    is saved the cursor moves to the next row."""

    KEYS: ClassVar[dict[Qt.Key, int | None]] = {Qt.Key.Key_0: 0, Qt.Key.Key_1: 1, Qt.Key.Key_2: 2, Qt.Key.Key_3: 3,
            Qt.Key.Key_Delete: None, Qt.Key.Key_Backspace: None}

    def __init__(self, judge: Callable[[str, int | None], bool], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._judge = judge

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = Qt.Key(event.key())
        index = self.currentIndex()
        if key in self.KEYS and index.isValid() and event.modifiers() in (
                Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier):
            chunk_id = self.model().index(index.row(), 0).data(ChunkIdRole)
            if chunk_id:
                event.accept()
                if self._judge(str(chunk_id), self.KEYS[key]):
                    below = self.model().index(self.currentIndex().row() + 1, index.column())
                    if below.isValid():
                        self.setCurrentIndex(below)
                return
        super().keyPressEvent(event)


def _table(view: QTableView, name: str) -> QTableView:
    view.setAccessibleName(name)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setAlternatingRowColors(True)
    view.setShowGrid(False)
    view.verticalHeader().hide()
    view.setWordWrap(False)
    view.horizontalHeader().setStretchLastSection(True)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    return view


def _boost_spin(name: str) -> QDoubleSpinBox:
    spin = QDoubleSpinBox()
    spin.setRange(0.1, 10.0)
    spin.setDecimals(2)
    spin.setSingleStep(0.05)
    spin.setAccessibleName(name)
    spin.setKeyboardTracking(False)
    return spin


class WorkbenchPanel(QWidget):
    """The workbench's four tabs; :meth:`detach` before the workbench goes away."""

    def __init__(self, bench: Workbench, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bench = bench
        self.signals = WorkbenchSignals(bench, self)
        self._syncing = False
        self._shown_changes: object = None
        self.golden_label = QLabel()
        self.golden_label.setWordWrap(True)
        self.golden_label.setAccessibleName("Golden set")
        self.notice_label = QLabel()
        self.notice_label.setWordWrap(True)
        self.notice_label.setAccessibleName("Workbench notice")
        self.notice_label.hide()
        self.tabs = QTabWidget()
        self.tabs.setAccessibleName("Workbench tabs")
        self.tabs.addTab(self._whatif_tab(), "&What-if && judge")
        self.tabs.addTab(self._ab_tab(), "A/&B")
        self.tabs.addTab(self._eval_tab(), "Eva&luate")
        self.tabs.addTab(self._snapshot_tab(), "&Snapshots")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.golden_label)
        layout.addWidget(self.notice_label)
        layout.addWidget(self.tabs, 1)
        self.signals.changed.connect(self.refresh)
        self.signals.notice.connect(self.show_notice)
        self.signals.progress.connect(self._render_progress)
        self.tabs.currentChanged.connect(self._tab_changed)
        self.refresh()

    # -- construction ----------------------------------------------------------------------
    def _whatif_tab(self) -> QWidget:
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
        self.save_weights.clicked.connect(self.bench.save_weights)
        self.reset_weights = QPushButton("Reset")
        self.reset_weights.clicked.connect(self.bench.reset)
        buttons = QHBoxLayout()
        buttons.addWidget(self.save_weights)
        buttons.addWidget(self.reset_weights)
        buttons.addStretch(1)
        self.whatif_status = QLabel()
        self.whatif_status.setWordWrap(True)
        self.whatif_status.setAccessibleName("What-if status")
        self.ranking_model = RankingModel(self.bench.grade, self)
        self.ranking = _table(RankingView(self.bench.judge), "What-if ranking (0–3 grades the selected result)")
        self.ranking.setModel(self.ranking_model)
        self.scores_label = QLabel()
        self.scores_label.setWordWrap(True)
        self.scores_label.setAccessibleName("Question scores")
        page = QWidget()
        v = QVBoxLayout(page)
        v.addLayout(grid)
        v.addLayout(buttons)
        v.addWidget(self.whatif_status)
        v.addWidget(self.ranking, 1)
        v.addWidget(self.scores_label)
        return page

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

    def _ab_tab(self) -> QWidget:
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
        self.a_view = _table(QTableView(), "A results")
        self.b_view = _table(QTableView(), "B results")
        self.a_view.setModel(self.a_model)
        self.b_view.setModel(self.b_model)
        self.a_view.selectionModel().currentRowChanged.connect(
            lambda cur, _prev: self._link(cur, self.a_model, self.b_view, self.b_model))
        self.b_view.selectionModel().currentRowChanged.connect(
            lambda cur, _prev: self._link(cur, self.b_model, self.a_view, self.a_model))
        page = QWidget()
        g = QGridLayout(page)
        g.addWidget(box_a, 0, 0)
        g.addWidget(box_b, 0, 1)
        g.addWidget(self.compare_button, 1, 0)
        g.addWidget(self.ab_status, 2, 0, 1, 2)
        g.addWidget(self.a_view, 3, 0)
        g.addWidget(self.b_view, 3, 1)
        g.setRowStretch(3, 1)
        return page

    def _eval_tab(self) -> QWidget:
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
        page = QWidget()
        v = QVBoxLayout(page)
        v.addLayout(row)
        v.addWidget(self.eval_status)
        v.addWidget(scroll, 1)
        v.addWidget(self.missing_label)
        return page

    def _snapshot_tab(self) -> QWidget:
        self.snapshot_name = QLineEdit()
        self.snapshot_name.setPlaceholderText("a name, e.g. before-tuning")
        self.snapshot_name.setAccessibleName("Snapshot name")
        self.snapshot_save = QPushButton("Save snapshot")
        self.snapshot_save.clicked.connect(self.save_snapshot)
        self.snapshot_name.returnPressed.connect(self.save_snapshot)
        self.snap_a = QComboBox()
        self.snap_a.setAccessibleName("Snapshot A")
        self.snap_b = QComboBox()
        self.snap_b.setAccessibleName("Snapshot B")
        self.snap_compare = QPushButton("Compare snapshots")
        self.snap_compare.clicked.connect(self.compare_snapshots)
        self.snap_status = QLabel("Evaluate the set, save a snapshot, change something, evaluate and save again.")
        self.snap_status.setWordWrap(True)
        self.snap_status.setAccessibleName("Snapshot comparison summary")
        self.changes_model = ChangesModel(self)
        self.changes = _table(QTableView(), "Snapshot changes per question")
        self.changes.setModel(self.changes_model)
        top = QHBoxLayout()
        top.addWidget(self.snapshot_name, 1)
        top.addWidget(self.snapshot_save)
        pick = QHBoxLayout()
        pick.addWidget(QLabel("A:"))
        pick.addWidget(self.snap_a, 1)
        pick.addWidget(QLabel("B:"))
        pick.addWidget(self.snap_b, 1)
        pick.addWidget(self.snap_compare)
        page = QWidget()
        v = QVBoxLayout(page)
        v.addLayout(top)
        v.addLayout(pick)
        v.addWidget(self.snap_status)
        v.addWidget(self.changes, 1)
        return page

    # -- intents ---------------------------------------------------------------------------
    def _weights_edited(self) -> None:
        if self._syncing:
            return
        cap = self.cap_spin.value()
        self.bench.set_weights(BoostWeights(
            chapter=self.chapter_spin.value(), scholar=self.scholar_spin.value(),
            tradition=self.tradition_spin.value(), per_scholar_cap=cap or None,
            reference=self.reference_spin.value()))

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

    def save_snapshot(self) -> None:
        if self.bench.save_snapshot(self.snapshot_name.text()) is not None:
            self.snapshot_name.clear()

    def compare_snapshots(self) -> None:
        a, b = self.snap_a.currentData(), self.snap_b.currentData()
        if not a or not b:
            self.show_notice("Save two snapshots first, then choose them as A and B.")
            return
        self.bench.compare_snapshots(Path(a), Path(b))

    def _tab_changed(self, index: int) -> None:
        if index == 3:
            self.bench.refresh_snapshots()

    def show_notice(self, text: str) -> None:
        self.notice_label.setText(text)
        self.notice_label.setVisible(bool(text))

    def focus_ranking(self) -> None:
        self.tabs.setCurrentIndex(0)
        self.ranking.setFocus(Qt.FocusReason.ShortcutFocusReason)
        if not self.ranking.currentIndex().isValid() and self.ranking_model.rowCount():
            self.ranking.setCurrentIndex(self.ranking_model.index(0, 0))

    # -- rendering -------------------------------------------------------------------------
    def refresh(self) -> None:
        b = self.bench
        self._render_golden()
        self._sync_spins(b.weights)
        current = self.ranking.currentIndex()
        key = self.ranking_model.key(current.row()) if current.isValid() and self.ranking_model.rowCount() else None
        self.ranking_model.set_whatif(b.whatif)
        if key is not None and (row := self.ranking_model.row_of(key)) >= 0:
            self.ranking.setCurrentIndex(self.ranking_model.index(row, current.column()))
        self.save_weights.setEnabled(b.dirty)
        self.reset_weights.setEnabled(b.dirty)
        self.whatif_status.setText(self._whatif_text())
        scores = b.question_scores()
        mean = b.report.mean if b.report is not None else None
        parts = []
        if scores is not None:
            parts.append(f"This question: nDCG@10 {scores['ndcg@10']:.3f} · MRR@10 {scores['mrr@10']:.3f}")
        elif b.golden is not None and b.question is not None:
            parts.append("This question is not in the golden set yet: grading a result adds it.")
        if mean is not None:
            parts.append(f"Set mean: nDCG@10 {mean['ndcg@10']:.3f} · MRR@10 {mean['mrr@10']:.3f}")
        self.scores_label.setText("\n".join(parts))
        self._render_ab()
        self._render_eval()
        self._render_snapshots()

    def _whatif_text(self) -> str:
        w = self.bench.whatif
        if w is None:
            return "Ask a question: its ranking appears here and re-ranks as you change the weights."
        saved = describe.weights_text(self.bench.saved_weights)
        if not self.bench.dirty:
            return f"Ranked with your saved weights ({saved}). Change one to see what moves."
        moved = sum(1 for r in w.result.results if w.move(r.chunk_id, r.rank) != 0)
        return (f"What-if: {describe.weights_text(w.weights)}. {moved} of {len(w.result.results)} ranks differ "
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

    def _render_golden(self) -> None:
        b = self.bench
        if b.golden is None:
            self.golden_label.setText("No golden set open: File ▸ New golden set… or Open golden set…")
            return
        judged = sum(len(q.judgments) for q in b.golden.queries)
        where = b.golden_path.name if b.golden_path else ""
        self.golden_label.setText(f"Golden set “{b.golden.name}” ({where}): {len(b.golden.queries)} questions, "
                                  f"{judged} judgments.")

    def _render_ab(self) -> None:
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

    def _render_eval(self) -> None:
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

    def _render_progress(self, p: Progress) -> None:
        self.progress.setRange(0, p.total)
        self.progress.setValue(p.done)

    def _render_snapshots(self) -> None:
        files = self.bench.snapshot_files
        names = [str(p) for p in files]
        for combo, pick in ((self.snap_a, 1), (self.snap_b, 0)):
            if [combo.itemData(i) for i in range(combo.count())] == names:
                continue
            combo.clear()
            for p in files:
                combo.addItem(p.stem, str(p))
            if len(files) > pick:
                combo.setCurrentIndex(pick)
        if self.bench.changes is not None and self.bench.changes is not self._shown_changes:
            self._shown_changes = self.bench.changes
            name_a, name_b, changes = self.bench.changes
            self.changes_model.set_changes(changes)
            better = [c for c in changes if (c.delta or 0) > 1e-9]
            worse = [c for c in changes if (c.delta or 0) < -1e-9]
            total = sum(c.delta or 0 for c in changes)
            self.snap_status.setText(
                f"{name_b} against {name_a}: {len(better)} questions better, {len(worse)} worse, "
                f"{len(changes) - len(better) - len(worse)} the same; mean nDCG@10 change "
                f"{total / len(changes) if changes else 0:+.3f}.")

    def detach(self) -> None:
        self.signals.detach()


def _side_words(ctx: RetrievalContext | None) -> str:
    if ctx is None:
        return ""
    chapter = str(ctx.chapter) if ctx.chapter else "no chapter"
    return f"{ctx.mode.value}, {describe.weights_text(ctx.weights)}, {chapter}"


"""The curator workbench dock's contents: What-if & judge, A/B, Evaluate, Gaps, Judges, Weight search,
History, Snapshots, From use — nine tabs over one :class:`~amicus_desktop.session.workbench.Workbench`, each in its
own module — and under them the preview of the selected row's chunk (``preview.py``).

Only rendering and key handling live here; every number comes from the workbench. Keyboard: the tabs have
mnemonics (Alt+W, Alt+B, Alt+L, Alt+A gaps, Alt+J judges, Alt+I weight search, Alt+Y history, Alt+S), the
tables that grade take 0–3 for the row under the cursor (Delete removes the grade) and move to the next row,
Enter on a queued row asks its question; the weights are Alt+R (chapter), Alt+O (scholar), Alt+T (tradition),
Alt+N (reference), Alt+P (cap); Alt+M compares A and B, Alt+U evaluates the set, every control is in the tab
order.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import QLabel, QSplitter, QTabWidget, QVBoxLayout, QWidget

from ...core.results import Candidate
from ...session.workbench import Workbench
from .ab_tab import ABTab
from .common import WorkbenchSignals
from .eval_tab import EvalTab
from .gaps_tab import GapsTab
from .history_tab import HistoryTab
from .judges_tab import JudgesTab
from .preview import ChunkPreview
from .snapshot_tab import SnapshotTab
from .tune_tab import TuneTab
from .usage_tab import UsageTab
from .whatif_tab import WhatIfTab


class WorkbenchPanel(QWidget):
    """The golden set's name, a notice line, the workbench's tabs and the preview; :meth:`detach` before the
    workbench goes away. :attr:`askGolden` carries the id of a golden question to ask (Enter on a queued row,
    a double-click on a bar); :attr:`importRequested`/:attr:`exportRequested` ask for a judgments file."""

    askGolden = Signal(str)
    importRequested = Signal()
    exportRequested = Signal()

    WHATIF_TAB, AB_TAB, EVAL_TAB, GAPS_TAB, JUDGES_TAB, TUNE_TAB, HISTORY_TAB, SNAPSHOT_TAB, USAGE_TAB = range(9)

    def __init__(self, bench: Workbench, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bench = bench
        self.signals = WorkbenchSignals(bench, self)
        self.golden_label = QLabel()
        self.golden_label.setWordWrap(True)
        self.golden_label.setAccessibleName("Golden set")
        self.notice_label = QLabel()
        self.notice_label.setWordWrap(True)
        self.notice_label.setAccessibleName("Workbench notice")
        self.notice_label.hide()
        self.preview = ChunkPreview(bench)
        self.tabs = QTabWidget()
        self.tabs.setAccessibleName("Workbench tabs")
        self.tabs.setUsesScrollButtons(True)
        self.whatif_tab = WhatIfTab(bench)
        self.ab_tab = ABTab(bench)
        self.eval_tab = EvalTab(bench)
        self.gaps_tab = GapsTab(bench)
        self.judges_tab = JudgesTab(bench)
        self.tune_tab = TuneTab(bench)
        self.history_tab = HistoryTab(bench, self.preview)
        self.snapshot_tab = SnapshotTab(bench, self.show_notice)
        self.usage_tab = UsageTab(bench)
        for tab, label in ((self.whatif_tab, "&What-if && judge"), (self.ab_tab, "A/&B"), (self.eval_tab, "Eva&luate"),
                           (self.gaps_tab, "G&aps"), (self.judges_tab, "&Judges"), (self.tune_tab, "We&ight search"),
                           (self.history_tab, "Histor&y"), (self.snapshot_tab, "&Snapshots"),
                           (self.usage_tab, "From use")):
            self.tabs.addTab(tab, label)
        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.setObjectName("workbenchSplit")
        self.split.addWidget(self.tabs)
        self.split.addWidget(self.preview)
        self.split.setStretchFactor(0, 3)
        self.split.setStretchFactor(1, 1)
        self.split.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.golden_label)
        layout.addWidget(self.notice_label)
        layout.addWidget(self.split, 1)
        self.signals.changed.connect(self.refresh)
        self.signals.notice.connect(self.show_notice)
        self.signals.progress.connect(self.eval_tab.render_progress)
        self.signals.progress.connect(self.snapshot_tab.render_progress)
        self.signals.tune_progress.connect(self.tune_tab.render_progress)
        self.signals.previewed.connect(self._previewed)
        for tab in (self.eval_tab, self.gaps_tab, self.judges_tab):
            tab.askRequested.connect(self.askGolden.emit)
        self.eval_tab.gapsRequested.connect(self.focus_gaps)
        self.eval_tab.questionSelected.connect(self._question_selected)
        self.judges_tab.importRequested.connect(self.importRequested.emit)
        self.judges_tab.exportRequested.connect(self.exportRequested.emit)
        self.snapshot_tab.changes.selectionModel().currentRowChanged.connect(self._change_selected)
        self.tabs.currentChanged.connect(self._tab_changed)
        self.refresh()

    def _tab_changed(self, index: int) -> None:
        if index == self.SNAPSHOT_TAB:
            self.bench.snapshot_job.refresh_snapshots()

    def _previewed(self, candidate: Candidate | None) -> None:
        self.preview.show_chunk(candidate)

    def _question_selected(self, query_id: str) -> None:
        report = self.bench.eval_job.report
        q = next((q for q in report.queries if q.id == query_id), None) if report is not None else None
        if q is None:
            return
        s = q.scores
        self.preview.show_note(f"{q.id}: {q.query}", [
            f"nDCG@10 {s['ndcg@10']:.3f} · MRR@10 {s['mrr@10']:.3f} · Recall@10 {s['recall@10']:.3f} · "
            f"recall@{report.config.candidates if report else 40} of the candidate pool {q.pool_recall:.2f}",
            f"{q.relevant} relevant judged chunks: {q.misses[0]} not among the candidates (the search's miss), "
            f"{q.misses[1]} among them but not in the top 10 (the ranking's).",
            f"{len(q.unjudged)} of its top 10 unjudged." if q.unjudged else "Every result of its top 10 is judged.",
            "Double-click its bar or press Enter to ask it.",
        ])

    def _change_selected(self, current: QModelIndex, _previous: QModelIndex) -> None:
        change = self.snapshot_tab.changes_model.change(current.row()) if current.isValid() else None
        if change is not None:
            a = "–" if change.a is None else f"{change.a:.3f}"
            b = "–" if change.b is None else f"{change.b:.3f}"
            self.preview.show_note(f"{change.id}: {change.query}", [f"nDCG@10 {a} in A, {b} in B."])

    def show_notice(self, text: str) -> None:
        self.notice_label.setText(text)
        self.notice_label.setVisible(bool(text))

    def focus_ranking(self) -> None:
        self.tabs.setCurrentIndex(self.WHATIF_TAB)
        self.whatif_tab.focus_ranking()

    def focus_gaps(self) -> None:
        self.tabs.setCurrentIndex(self.GAPS_TAB)
        self.gaps_tab.focus_queue()

    # -- rendering -------------------------------------------------------------------------
    def refresh(self) -> None:
        self._render_golden()
        self.whatif_tab.refresh()
        self.ab_tab.refresh()
        self.eval_tab.refresh()
        self.gaps_tab.refresh()
        self.judges_tab.refresh()
        self.tune_tab.refresh()
        self.history_tab.refresh()
        self.snapshot_tab.refresh()
        self.usage_tab.refresh()

    def _render_golden(self) -> None:
        job = self.bench.golden_job
        golden, path = job.golden, job.golden_path
        if golden is None:
            self.golden_label.setText("No golden set open: File ▸ New golden set… or Open golden set…")
            return
        judged = sum(len(q.judgments) for q in golden.queries)
        where = path.name if path else ""
        if job.copied_from is not None:
            where += ", your copy of the shipped set"
        judges = golden.judges()
        who = f" by {', '.join(judges[:3])}{'…' if len(judges) > 3 else ''}" if judges else ""
        self.golden_label.setText(f"Golden set “{golden.name}” ({where}): {len(golden.queries)} questions, "
                                  f"{judged} judgments{who}.")
        self.golden_label.setToolTip(str(path) if path else "")

    def detach(self) -> None:
        self.signals.detach()

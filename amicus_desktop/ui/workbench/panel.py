"""The curator workbench dock's contents: What-if & judge, A/B, Evaluate, Snapshots — four tabs over
one :class:`~amicus_desktop.session.workbench.Workbench`, each in its own module (``whatif_tab.py``,
``ab_tab.py``, ``eval_tab.py``, ``snapshot_tab.py``).

Only rendering and key handling live here; every number comes from the workbench. Keyboard: the
tabs have mnemonics (Alt+W, Alt+B, Alt+L, Alt+S), the ranking takes 0–3 to grade the result under
the cursor (Delete removes the grade) and moves to the next row; the weights are Alt+R (chapter),
Alt+O (scholar), Alt+T (tradition), Alt+N (reference), Alt+P (cap); Alt+M compares A and B, Alt+U
evaluates the set, every control is in the tab order.
"""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from ...session.workbench import Workbench
from .ab_tab import ABTab
from .common import WorkbenchSignals
from .eval_tab import EvalTab
from .snapshot_tab import SnapshotTab
from .whatif_tab import WhatIfTab


class WorkbenchPanel(QWidget):
    """The golden set's name, a notice line and the workbench's four tabs; :meth:`detach` before the
    workbench goes away."""

    SNAPSHOT_TAB = 3

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
        self.tabs = QTabWidget()
        self.tabs.setAccessibleName("Workbench tabs")
        self.whatif_tab = WhatIfTab(bench)
        self.tabs.addTab(self.whatif_tab, "&What-if && judge")
        self.ab_tab = ABTab(bench)
        self.tabs.addTab(self.ab_tab, "A/&B")
        self.eval_tab = EvalTab(bench)
        self.tabs.addTab(self.eval_tab, "Eva&luate")
        self.snapshot_tab = SnapshotTab(bench, self.show_notice)
        self.tabs.addTab(self.snapshot_tab, "&Snapshots")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.golden_label)
        layout.addWidget(self.notice_label)
        layout.addWidget(self.tabs, 1)
        self.signals.changed.connect(self.refresh)
        self.signals.notice.connect(self.show_notice)
        self.signals.progress.connect(self.eval_tab.render_progress)
        self.tabs.currentChanged.connect(self._tab_changed)
        self.refresh()

    def _tab_changed(self, index: int) -> None:
        if index == self.SNAPSHOT_TAB:
            self.bench.refresh_snapshots()

    def show_notice(self, text: str) -> None:
        self.notice_label.setText(text)
        self.notice_label.setVisible(bool(text))

    def focus_ranking(self) -> None:
        self.tabs.setCurrentIndex(0)
        self.whatif_tab.focus_ranking()

    # -- rendering -------------------------------------------------------------------------
    def refresh(self) -> None:
        self._render_golden()
        self.whatif_tab.refresh()
        self.ab_tab.refresh()
        self.eval_tab.refresh()
        self.snapshot_tab.refresh()

    def _render_golden(self) -> None:
        b = self.bench
        if b.golden is None:
            self.golden_label.setText("No golden set open: File ▸ New golden set… or Open golden set…")
            return
        judged = sum(len(q.judgments) for q in b.golden.queries)
        where = b.golden_path.name if b.golden_path else ""
        self.golden_label.setText(f"Golden set “{b.golden.name}” ({where}): {len(b.golden.queries)} questions, "
                                  f"{judged} judgments.")

    def detach(self) -> None:
        self.signals.detach()

"""What the workbench's tabs share: the Qt side of the workbench's events and the look of its tables."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from ...session.workbench import Workbench


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


def table(view: QTableView, name: str) -> QTableView:
    """``view`` as the workbench's tables look: rows selected whole, no grid, columns fit their text."""
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

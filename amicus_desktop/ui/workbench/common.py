"""What the workbench's tabs share: the Qt side of the workbench's events, the look of its tables, and
the table that grades with the number keys."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget

from ...session.workbench import Workbench
from ..elided import TitleDelegate


class WorkbenchSignals(QObject):
    """The workbench's events as Qt signals (dropped by Qt when the panel goes away)."""

    changed = Signal()
    notice = Signal(str)
    progress = Signal(object)  # Progress
    tune_progress = Signal(object)  # TuneProgress
    previewed = Signal(object)  # Candidate | None

    def __init__(self, bench: Workbench, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._disconnects = [
            bench.changed.connect(lambda _v: self.changed.emit()),
            bench.notice.connect(self.notice.emit),
            bench.progress.connect(self.progress.emit),
            bench.tune_progress.connect(self.tune_progress.emit),
            bench.previewed.connect(self.previewed.emit),
        ]

    def detach(self) -> None:
        for disconnect in self._disconnects:
            disconnect()
        self._disconnects = []


def table(view: QTableView, name: str, model: QAbstractItemModel | None = None,
          stretch: int | None = None, *, titles: int | None = None) -> QTableView:
    """``view`` over ``model`` as the workbench's tables look: rows selected whole, no grid, columns fit their
    text. The ``stretch`` column takes the room left and elides in the middle; a column of chunk ``titles``
    elides the author and keeps the passage whole ("Matthew He… — Romans 9:6-13 (part 6 of 6)"); tooltips hold
    the whole text. (The model is set first: a header forgets the resize mode of a column it does not have yet.)"""
    if model is not None:
        view.setModel(model)
    view.setAccessibleName(name)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setAlternatingRowColors(True)
    view.setShowGrid(False)
    view.verticalHeader().hide()
    view.setWordWrap(False)
    view.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    if stretch is None:
        header.setStretchLastSection(True)
    else:
        header.setStretchLastSection(False)
        header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    header.setMinimumSectionSize(24)
    if titles is not None:
        view.setItemDelegateForColumn(titles, TitleDelegate(view))
    return view


def on_row(view: QTableView, handler: Callable[[int], None]) -> None:
    """Call ``handler(row)`` whenever the current row of ``view`` changes while it is on screen (the model set
    already): the preview follows the table the curator is looking at, not a hidden tab's refresh."""
    def changed(current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid() and view.isVisible():
            handler(current.row())

    view.selectionModel().currentRowChanged.connect(changed)


class GradingView(QTableView):
    """A table that grades the row under the cursor with the number keys: 0–3 grade, Delete removes;
    after a grade is saved the cursor moves to the next row. ``judge(row, grade)`` says whether it was."""

    KEYS: ClassVar[dict[Qt.Key, int | None]] = {Qt.Key.Key_0: 0, Qt.Key.Key_1: 1, Qt.Key.Key_2: 2, Qt.Key.Key_3: 3,
                                                Qt.Key.Key_Delete: None, Qt.Key.Key_Backspace: None}
    activatedRow = Signal(int)  # Enter on a row

    def __init__(self, judge: Callable[[int, int | None], bool], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._judge = judge
        self.doubleClicked.connect(lambda index: self.activatedRow.emit(index.row()))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = Qt.Key(event.key())
        index = self.currentIndex()
        plain = event.modifiers() in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier)
        if key in self.KEYS and index.isValid() and plain:
            event.accept()
            if self._judge(index.row(), self.KEYS[key]):
                below = self.model().index(self.currentIndex().row() + 1, index.column())
                if below.isValid():
                    self.setCurrentIndex(below)
            return
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and index.isValid() and plain:
            event.accept()
            self.activatedRow.emit(index.row())
            return
        super().keyPressEvent(event)

"""What the workbench's tabs share (``ui/workbench/common.py``): the grading table — 0–3 grade the row under the
cursor and move on when the grade was saved, Delete removes, Enter opens, modified keys are not grades — and the
look of its tables."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView, QTableView

from amicus_desktop.ui.workbench.common import GradingView, table


def test_the_number_keys_grade_the_row_and_move_on_when_it_was_saved(qapp: Any, qtbot: Any) -> None:
    model = QStandardItemModel(3, 2)
    for row in range(3):
        model.setItem(row, 0, QStandardItem(f"chunk {row}"))
    judged: list[tuple[int, int | None]] = []
    refuse = {2}

    def judge(row: int, grade: int | None) -> bool:
        judged.append((row, grade))
        return row not in refuse

    view = GradingView(judge)
    table(view, "Unjudged chunks", model, stretch=1)
    opened: list[int] = []
    view.activatedRow.connect(opened.append)
    qtbot.addWidget(view)
    view.show()
    view.setCurrentIndex(model.index(0, 0))
    qtbot.keyClick(view, Qt.Key.Key_3)
    assert judged == [(0, 3)] and view.currentIndex().row() == 1  # saved: the next row
    qtbot.keyClick(view, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)  # not a grade
    assert judged == [(0, 3)]
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert judged[-1] == (1, None) and view.currentIndex().row() == 2
    qtbot.keyClick(view, Qt.Key.Key_0)
    assert judged[-1] == (2, 0) and view.currentIndex().row() == 2  # not saved: the cursor stays
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert opened == [2]


def test_the_workbench_tables_select_whole_rows_and_name_themselves(qapp: Any) -> None:
    view = table(QTableView(), "Runs", QStandardItemModel(1, 3))
    assert view.accessibleName() == "Runs" and not view.showGrid() and view.verticalHeader().isHidden()
    assert view.selectionBehavior() is QAbstractItemView.SelectionBehavior.SelectRows
    assert view.editTriggers() == QAbstractItemView.EditTrigger.NoEditTriggers
    assert view.horizontalHeader().stretchLastSection()

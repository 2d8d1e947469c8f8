"""What the results table paints beyond text (``ui/results/paint.py``): the final score's bar, as long as its
fraction of the scale, behind the number; none without a fraction; and the mark of the reader's notes."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QColor, QFontMetrics, QImage, QPalette, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication, QTableView

from amicus_desktop.ui.results.paint import ScoreBarDelegate, ScoreFractionRole, note_mark
from amicus_desktop.ui.theme import blend


def test_the_bar_is_as_long_as_the_scores_fraction_and_absent_without_one(qapp: Any) -> None:
    model = QStandardItemModel(3, 1)
    for row, fraction in enumerate((0.9, 0.2, None)):
        item = QStandardItem(f"{fraction or 0:.4f}")
        if fraction is not None:
            item.setData(fraction, ScoreFractionRole)
        model.setItem(row, 0, item)
    view = QTableView()
    view.setModel(model)
    view.setItemDelegateForColumn(0, ScoreBarDelegate(view))
    view.setColumnWidth(0, 200)
    view.resize(260, 160)
    view.show()
    qapp.processEvents()
    image = view.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    palette = view.palette()
    bar = blend(palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Highlight), 0.30)

    def bar_pixels(row: int) -> int:
        y = view.rowViewportPosition(row) + view.rowHeight(row) // 2 + 3  # under the number's baseline
        return sum(1 for x in range(image.width()) if QColor(image.pixel(x, y)).rgb() == bar.rgb())

    long, short, none = bar_pixels(0), bar_pixels(1), bar_pixels(2)
    assert long > 3 * short > 0 and none == 0, (long, short, none)
    view.close()


def test_the_notes_mark_is_a_badge_the_height_of_a_line(qapp: Any) -> None:
    icon = note_mark()
    size = QFontMetrics(QApplication.font()).height()
    assert not icon.isNull() and icon.availableSizes()[0].height() == size

"""What the results table paints beyond text: the final score as a bar behind its number
(:class:`ScoreBarDelegate`, reading :data:`ScoreFractionRole`) and the mark of the reader's own notes
(:func:`note_mark`). The numbers and words are always drawn too: colour never carries meaning alone."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem

from ..theme import blend

#: A result's final score as a fraction of the table's scale (what the bar fills), from the results model.
ScoreFractionRole = Qt.ItemDataRole.UserRole + 3

Index = QModelIndex | QPersistentModelIndex


def note_mark() -> QIcon:
    """The mark of the reader's own notes among the results: ✎ on a badge of the highlight colour, darkened,
    so it shows on a selected row too (the title and its accessible text say "Your note" as well)."""
    size = QFontMetrics(QApplication.font()).height()
    pixmap = QPixmap(size, size)
    pixmap.fill(QColor(0, 0, 0, 0))
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    palette = QApplication.palette()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(palette.color(QPalette.ColorRole.Highlight).darker(135))
    painter.drawRoundedRect(pixmap.rect(), 3, 3)
    font = QFont(QApplication.font())
    font.setPixelSize(max(8, size - 4))
    font.setBold(True)
    painter.setFont(font)
    painter.setPen(palette.color(QPalette.ColorRole.HighlightedText))
    painter.drawText(pixmap.rect(), int(Qt.AlignmentFlag.AlignCenter), "✎")
    painter.end()
    return QIcon(pixmap)


class ScoreBarDelegate(QStyledItemDelegate):
    """Paints the final score as a bar behind its number (the number is always drawn)."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        text = opt.text
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        fraction = index.data(ScoreFractionRole)
        rect = opt.rect.adjusted(4, 5, -4, -5)
        painter.save()
        if isinstance(fraction, float) and rect.width() > 0:
            palette: QPalette = opt.palette
            selected = bool(opt.state & QStyle.StateFlag.State_Selected)
            base = palette.color(QPalette.ColorRole.Highlight if not selected else QPalette.ColorRole.HighlightedText)
            back = palette.color(QPalette.ColorRole.Base if not selected else QPalette.ColorRole.Highlight)
            bar = blend(back, base, 0.30)
            track = blend(back, base, 0.08)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(track)
            painter.drawRoundedRect(rect, 3, 3)
            filled = QRect(rect)
            filled.setWidth(max(2, round(rect.width() * max(0.0, min(1.0, fraction)))))
            painter.setBrush(bar)
            painter.drawRoundedRect(filled, 3, 3)
        on_highlight = bool(opt.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if on_highlight else QPalette.ColorRole.Text
        painter.setPen(opt.palette.color(role))
        painter.setFont(opt.font)
        right = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        painter.drawText(rect.adjusted(0, 0, -4, 0), right, text)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> Any:
        size = super().sizeHint(option, index)
        size.setWidth(max(size.width(), 110))
        return size


"""The per-question bar chart of "Evaluate set": one horizontal bar of nDCG@10 per golden question.

A QPainter picture, with every bar's question id and value written beside it (readable without
colour) and the set's mean drawn as a labelled vertical line.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QFontMetrics, QPainter, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ..theme import blend, muted_text

Bar = tuple[str, float]


class EvalChart(QWidget):
    """Bars of ``(question id, score in 0..1)``; :meth:`set_bars` replaces them."""

    ROW = 18

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._bars: list[Bar] = []
        self._mean: float | None = None
        self._metric = "nDCG@10"
        self.setAccessibleName("Per-question scores chart")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_bars(self, bars: list[Bar], mean: float | None, metric: str = "nDCG@10") -> None:
        self._bars, self._mean, self._metric = bars, mean, metric
        words = ", ".join(f"{qid} {v:.2f}" for qid, v in bars)
        self.setAccessibleDescription(f"{metric} per question: {words}" if bars else "No evaluation yet")
        self.setFixedHeight(self.sizeHint().height())
        self.update()

    @property
    def bars(self) -> list[Bar]:
        return list(self._bars)

    def sizeHint(self) -> QSize:
        return QSize(360, self.ROW * max(1, len(self._bars)) + 28)

    def paintEvent(self, _event: object) -> None:
        painter = QPainter(self)
        pal = self.palette()
        text = pal.color(QPalette.ColorRole.WindowText)
        window = pal.color(QPalette.ColorRole.Window)
        fm = QFontMetrics(self.font())
        if not self._bars:
            painter.setPen(muted_text(pal))
            painter.drawText(self.rect(), int(Qt.AlignmentFlag.AlignCenter),
                             "Evaluate the set to see each question's score here.")
            painter.end()
            return
        label_w = min(220, max(fm.horizontalAdvance(qid) for qid, _v in self._bars) + 10)
        value_w = fm.horizontalAdvance("0.000") + 8
        left = label_w
        width = max(40.0, self.width() - left - value_w - 6.0)
        bar = blend(window, pal.color(QPalette.ColorRole.Highlight), 0.6)
        track = blend(window, text, 0.07)
        y = 4
        for qid, value in self._bars:
            painter.setPen(text)
            painter.drawText(QRectF(0, y, label_w - 6, self.ROW),
                             int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                             fm.elidedText(qid, Qt.TextElideMode.ElideMiddle, label_w - 6))
            row = QRectF(left, y + 3, width, self.ROW - 6)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(track)
            painter.drawRect(row)
            painter.setBrush(bar)
            painter.drawRect(QRectF(row.left(), row.top(), row.width() * max(0.0, min(1.0, value)), row.height()))
            painter.setPen(text)
            painter.drawText(QRectF(left + width + 6, y, value_w, self.ROW),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), f"{value:.3f}")
            y += self.ROW
        if self._mean is not None:
            x = left + width * max(0.0, min(1.0, self._mean))
            painter.setPen(QPen(text, 1, Qt.PenStyle.DashLine))
            painter.drawLine(int(x), 2, int(x), y)
            painter.drawText(QRectF(left, y + 2, width, 20),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop),
                             f"mean {self._metric} {self._mean:.3f} (dashed line)")
        painter.end()

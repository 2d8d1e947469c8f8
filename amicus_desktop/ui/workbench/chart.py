"""The per-question bar chart of "Evaluate set": for each golden question its nDCG@10 (the ranking) as a
bar, and under it a thin bar of its pool recall (the search: the share of its relevant chunks among the
candidates), so a short bar over a long thin one is the ranking's miss and a short thin one the search's.

A QPainter picture, with every bar's question id and values written beside it (readable without colour)
and the set's mean drawn as a labelled vertical line. A bar is a question: hovering it shows the question
and its numbers, a click (or the arrow keys) selects it, a double-click (or Enter) asks it.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QFontMetrics, QHelpEvent, QKeyEvent, QMouseEvent, QPainter, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from ..theme import accent, blend, muted_text

Bar = tuple[str, float]


class EvalChart(QWidget):
    """Bars of ``(question id, score in 0..1)``; :meth:`set_bars` replaces them. :attr:`selected` (a click,
    the arrows) and :attr:`activated` (a double-click, Enter) carry the question id."""

    ROW = 20
    TOP = 4
    selected = Signal(str)
    activated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._bars: list[Bar] = []
        self._second: list[float | None] = []
        self._tips: list[str] = []
        self._mean: float | None = None
        self._metric = "nDCG@10"
        self.current = -1
        self.setAccessibleName("Per-question scores chart")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)

    def set_bars(self, bars: list[Bar], mean: float | None, metric: str = "nDCG@10", *,
                 second: list[float | None] | None = None, tips: list[str] | None = None) -> None:
        """``second``: each question's pool recall (the thin bar); ``tips``: what hovering a bar shows."""
        kept = self._bars[self.current][0] if 0 <= self.current < len(self._bars) else None
        self._bars, self._mean, self._metric = bars, mean, metric
        self._second = list(second) if second is not None else [None] * len(bars)
        self._tips = list(tips) if tips is not None else [f"{qid}: {metric} {v:.3f}" for qid, v in bars]
        self.current = next((i for i, (qid, _v) in enumerate(bars) if qid == kept), -1)
        words = ", ".join(f"{qid} {v:.2f}" for qid, v in bars)
        self.setAccessibleDescription(f"{metric} per question: {words}" if bars else "No evaluation yet")
        self.setFixedHeight(self.sizeHint().height())
        self.update()

    @property
    def bars(self) -> list[Bar]:
        return list(self._bars)

    def sizeHint(self) -> QSize:
        return QSize(360, self.ROW * max(1, len(self._bars)) + 28)

    def minimumSizeHint(self) -> QSize:
        return QSize(220, self.sizeHint().height())

    def row_at(self, y: float) -> int:
        row = int((y - self.TOP) // self.ROW)
        return row if 0 <= row < len(self._bars) and y >= self.TOP else -1

    def select(self, row: int) -> None:
        if 0 <= row < len(self._bars):
            self.current = row
            self.update()
            self.selected.emit(self._bars[row][0])

    # -- interaction -----------------------------------------------------------------------
    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            row = self.row_at(event.pos().y())
            if row >= 0:
                QToolTip.showText(event.globalPos(), self._tips[row], self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        row = self.row_at(event.position().y())
        if row >= 0:
            self.setFocus(Qt.FocusReason.MouseFocusReason)
            self.select(row)
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        row = self.row_at(event.position().y())
        if row >= 0:
            self.activated.emit(self._bars[row][0])

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Down, Qt.Key.Key_Up) and self._bars:
            step = 1 if key == Qt.Key.Key_Down else -1
            self.select(max(0, min(len(self._bars) - 1, self.current + step if self.current >= 0 else 0)))
            return
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and 0 <= self.current < len(self._bars):
            self.activated.emit(self._bars[self.current][0])
            return
        super().keyPressEvent(event)

    def row_top(self, row: int) -> int:
        return self.TOP + row * self.ROW

    # -- painting --------------------------------------------------------------------------
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
        label_w = min(200, max(fm.horizontalAdvance(qid) for qid, _v in self._bars) + 10)
        value_w = fm.horizontalAdvance("0.000 · 0.00") + 8
        left = label_w
        width = max(24.0, self.width() - left - value_w - 6.0)
        bar = blend(window, pal.color(QPalette.ColorRole.Highlight), 0.6)
        pool = blend(window, accent(pal, "ok"), 0.7)
        track = blend(window, text, 0.07)
        y = self.TOP
        for i, (qid, value) in enumerate(self._bars):
            if i == self.current:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(blend(window, pal.color(QPalette.ColorRole.Highlight), 0.18))
                painter.drawRect(QRectF(0, y, self.width(), self.ROW))
            painter.setPen(text)
            painter.drawText(QRectF(0, y, label_w - 6, self.ROW),
                             int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                             fm.elidedText(qid, Qt.TextElideMode.ElideMiddle, label_w - 6))
            row = QRectF(left, y + 3, width, self.ROW - 9)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(track)
            painter.drawRect(row)
            painter.setBrush(bar)
            painter.drawRect(QRectF(row.left(), row.top(), row.width() * max(0.0, min(1.0, value)), row.height()))
            second = self._second[i] if i < len(self._second) else None
            if second is not None:
                painter.setBrush(pool)
                painter.drawRect(QRectF(row.left(), row.bottom() + 1, row.width() * max(0.0, min(1.0, second)), 3))
            painter.setPen(text)
            words = f"{value:.3f}" + (f" · {second:.2f}" if second is not None else "")
            painter.drawText(QRectF(left + width + 6, y, value_w, self.ROW),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), words)
            y += self.ROW
        if self.hasFocus() and 0 <= self.current < len(self._bars):
            painter.setPen(QPen(text, 1, Qt.PenStyle.DotLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(QRectF(1, self.row_top(self.current), self.width() - 2, self.ROW - 1))
        if self._mean is not None:
            x = left + width * max(0.0, min(1.0, self._mean))
            painter.setPen(QPen(text, 1, Qt.PenStyle.DashLine))
            painter.drawLine(int(x), 2, int(x), y)
            painter.drawText(QRectF(left, y + 2, width + value_w, 20),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop),
                             f"mean {self._metric} {self._mean:.3f} (dashed line)")
        painter.end()

    def tip_at(self, pos: QPoint) -> str | None:
        """What hovering ``pos`` shows (``None`` off the bars)."""
        row = self.row_at(pos.y())
        return self._tips[row] if row >= 0 else None

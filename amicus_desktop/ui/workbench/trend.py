"""The trend of a golden set's runs: nDCG@10, MRR@10 and pool recall of every evaluation kept, oldest to
newest, as three lines told apart by their stroke (solid, dashed, dotted) and their legend — never by colour
alone — with the first and last dates under them and the newest values written at the right."""

from __future__ import annotations

import itertools

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QFontMetrics, QPainter, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ...evaluate.history import Run
from ..theme import accent, blend, muted_text

#: (metric key, legend, pen style)
LINES = (("ndcg@10", "nDCG@10", Qt.PenStyle.SolidLine), ("mrr@10", "MRR@10", Qt.PenStyle.DashLine),
         ("pool_recall", "pool recall", Qt.PenStyle.DotLine))


class TrendChart(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._runs: list[Run] = []
        self.setAccessibleName("Trend of the golden set's evaluations")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def set_runs(self, runs: list[Run]) -> None:
        self._runs = list(runs)
        words = "; ".join(f"{r.at[:10]} nDCG@10 {r.metrics.get('ndcg@10', 0):.3f}" for r in self._runs[-20:])
        self.setAccessibleDescription(words or "No evaluation kept yet")
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(360, 180)

    def minimumSizeHint(self) -> QSize:
        return QSize(220, 120)

    def paintEvent(self, _event: object) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        text, muted = pal.color(QPalette.ColorRole.WindowText), muted_text(pal)
        fm = QFontMetrics(self.font())
        if not self._runs:
            painter.setPen(muted)
            painter.drawText(self.rect(), int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap),
                             "Each evaluation of this set is kept; its trend appears here.")
            painter.end()
            return
        line = fm.height()
        value_w = fm.horizontalAdvance("0.000") + 8
        plot = QRectF(fm.horizontalAdvance("1.0") + 8, line + 8, max(40.0, self.width() - value_w - 40),
                      max(30.0, self.height() - 2 * line - 20))
        window = pal.color(QPalette.ColorRole.Window)
        painter.setPen(QPen(blend(window, text, 0.15), 1))
        for level in (0.0, 0.5, 1.0):
            y = plot.bottom() - plot.height() * level
            painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            painter.setPen(muted)
            painter.drawText(QRectF(0, y - line / 2, plot.left() - 4, line),
                             int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), f"{level:g}")
            painter.setPen(QPen(blend(window, text, 0.15), 1))
        n = len(self._runs)

        def point(i: int, value: float) -> QPointF:
            x = plot.left() + (plot.width() * i / (n - 1) if n > 1 else plot.width() / 2)
            return QPointF(x, plot.bottom() - plot.height() * max(0.0, min(1.0, value)))

        legend_x = plot.left()
        color = accent(pal, "info")
        ends: list[tuple[float, str, QPen]] = []  # the newest values, written apart from one another
        for key, label, style in LINES:
            points = [point(i, r.metrics[key]) for i, r in enumerate(self._runs) if key in r.metrics]
            pen = QPen(color if key == "ndcg@10" else text, 2 if key == "ndcg@10" else 1.4, style)
            painter.setPen(pen)
            for a, b in itertools.pairwise(points):
                painter.drawLine(a, b)
            for p in points:
                painter.drawEllipse(p, 2.5, 2.5)
            if points:
                ends.append((points[-1].y(), f"{self._runs[-1].metrics[key]:.3f}", pen))
            painter.drawLine(QPointF(legend_x, line / 2 + 2), QPointF(legend_x + 18, line / 2 + 2))
            painter.drawText(QRectF(legend_x + 22, 0, fm.horizontalAdvance(label) + 4, line + 4),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), label)
            legend_x += fm.horizontalAdvance(label) + 40
        last_y = float(-line)
        for y, words, pen in sorted(ends, key=lambda e: e[0]):
            y = max(y, last_y + line)
            last_y = y
            painter.setPen(pen)
            painter.drawText(QRectF(plot.right() + 6, y - line / 2, value_w + 30, line),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), words)
        painter.setPen(muted)
        first, last = self._runs[0].at[:10], self._runs[-1].at[:10]
        painter.drawText(QRectF(plot.left(), plot.bottom() + 4, plot.width(), line),
                         int(Qt.AlignmentFlag.AlignLeft), first)
        painter.drawText(QRectF(plot.left(), plot.bottom() + 4, plot.width(), line),
                         int(Qt.AlignmentFlag.AlignRight), f"{last} · {n} run{'s' if n != 1 else ''}")
        painter.end()

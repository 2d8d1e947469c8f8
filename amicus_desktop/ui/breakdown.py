"""The score breakdown of one chunk: a small waterfall chart and the same steps in words.

The panel scrolls vertically when it is shorter than its content (a 1000 × 650 window), so the
explanation never draws over the chart's last row.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QFontMetrics, QPainter, QPalette, QPen
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QSizePolicy, QVBoxLayout, QWidget

from ..core.names import Names
from ..core.query import RetrievalContext
from ..core.references import PassageRef
from ..core.results import RejectedChunk, RetrievedChunk
from ..present import describe
from ..present.breakdown import Step, breakdown_steps
from .theme import accent, blend, muted_text, scaled_font


class BreakdownChart(QWidget):
    """The base (distance → similarity, keyword score, fused base) → × chapter → × scholar → ×
    tradition → × reference → final, one bar per step.

    A boost's gain is drawn hatched on top of the running bar, and every row carries its label and
    value as text, so the chart reads without colour.
    """

    ROW = 22

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._steps: list[Step] = []
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAccessibleName("Score breakdown chart")
        self.setMinimumHeight(self.ROW * 6 + 8)

    def set_steps(self, steps: list[Step]) -> None:
        self._steps = steps
        self.setAccessibleDescription(" ".join(s.words for s in steps))
        # hybrid adds rows (keyword score, fused base): never let the words below overlap them
        self.setMinimumHeight(self.ROW * max(len(steps), 6) + 8)
        self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(320, self.ROW * max(len(self._steps), 6) + 8)

    #: the widest label a step can have (a source prior and a spread factor have four decimals)
    WIDEST_LABEL = "×0.7225 diversity"

    def minimumSizeHint(self) -> QSize:
        """Room for every row and for the widest label and value beside a 24 px bar: at this width no
        number is ever clipped (at 1000 px they were)."""
        fm = QFontMetrics(scaled_font(self.font(), 1.0, bold=True))
        width = fm.horizontalAdvance(self.WIDEST_LABEL) + 12 + fm.horizontalAdvance("0.0000") + 6 + 8 + 24
        return QSize(width, self.ROW * max(len(self._steps), 6) + 8)

    def paintEvent(self, _event: object) -> None:
        if not self._steps:
            return
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        fm = QFontMetrics(scaled_font(self.font(), 1.0, bold=True))  # the widest face a row uses
        label_w = max(fm.horizontalAdvance(s.label) for s in self._steps) + 12
        value_w = max(fm.horizontalAdvance(f"{s.value:.4f}") for s in self._steps) + 6
        left = label_w
        # the bar takes what the label and the value leave, never the value's room (no number is clipped)
        width = max(0, self.width() - left - value_w - 8)
        scale_max = max(1.0, *(s.value for s in self._steps)) * 1.02
        text = pal.color(QPalette.ColorRole.WindowText)
        muted = muted_text(pal)
        window = pal.color(QPalette.ColorRole.Window)
        bar = blend(window, pal.color(QPalette.ColorRole.Highlight), 0.55)
        gain = accent(pal, "ok")
        loss = accent(pal, "warning")
        track = blend(window, text, 0.07)
        prev = 0.0
        y = 4
        for step in self._steps:
            row = QRectF(left, y + 4, width, self.ROW - 8)
            painter.setPen(muted if step.label == "distance" else text)
            bold = step.label in ("similarity", "base", "final")
            painter.setFont(scaled_font(self.font(), 1.0, bold=bold))
            right = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            painter.drawText(QRectF(0, y, label_w - 8, self.ROW), right, step.label)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(track)
            painter.drawRoundedRect(row, 2, 2)
            if step.label == "distance":
                painter.setBrush(blend(window, text, 0.22))
                bar_w = row.width() * min(step.value, scale_max) / scale_max
                painter.drawRoundedRect(QRectF(row.left(), row.top(), bar_w, row.height()), 2, 2)
            else:
                base = min(prev, step.value) if step.factor is not None else step.value
                painter.setBrush(bar)
                bar_w = row.width() * base / scale_max
                painter.drawRoundedRect(QRectF(row.left(), row.top(), bar_w, row.height()), 2, 2)
                if step.factor is not None and step.factor != 1.0:
                    lo, hi = sorted((prev, step.value))
                    seg = QRectF(row.left() + row.width() * lo / scale_max, row.top(),
                                 row.width() * (hi - lo) / scale_max, row.height())
                    color = gain if step.factor > 1.0 else loss
                    painter.setBrush(blend(window, color, 0.45))
                    painter.drawRect(seg)
                    painter.setBrush(Qt.BrushStyle.BDiagPattern)
                    painter.setPen(QPen(color, 1))
                    painter.drawRect(seg)
                    painter.setPen(Qt.PenStyle.NoPen)
                prev = step.value
            painter.setPen(text)
            painter.drawText(QRectF(left + width + 6, y, value_w, self.ROW),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), f"{step.value:.4f}")
            y += self.ROW
        painter.end()


class BreakdownPanel(QFrame):
    """Header, chart and words for the selected result (or rejected candidate)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel("Why this rank")
        self.title.setFont(scaled_font(self.font(), 1.0, bold=True))
        self.subtitle = QLabel("Select a result to see how its score was made.")
        self.subtitle.setWordWrap(True)
        self.subtitle.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.chart = BreakdownChart()
        self.words = QLabel()
        self.words.setWordWrap(True)
        self.words.setTextFormat(Qt.TextFormat.PlainText)
        self.words.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.words.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.words.setAccessibleName("Score breakdown in words")
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(12, 10, 12, 10)
        layout.setSpacing(6)
        layout.addWidget(self.title)
        layout.addWidget(self.subtitle)
        layout.addWidget(self.chart)
        layout.addWidget(self.words, 1)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidget(body)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # reachable by Tab; arrows scroll it
        self.scroll_area.setAccessibleName("Why this rank")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.scroll_area)
        self.clear()

    def keep_numbers_whole(self) -> None:
        """Never narrower than the chart's labels and numbers need (a splitter beside it gives way first)."""
        self.scroll_area.setMinimumWidth(self.chart.minimumSizeHint().width() + 24
                                         + self.scroll_area.verticalScrollBar().sizeHint().width())

    def clear(self, message: str = "Select a result to see how its score was made.") -> None:
        self.title.setText("Why this rank")
        self.subtitle.setText(message)
        self.chart.set_steps([])
        self.chart.hide()
        self.words.clear()

    def show_chunk(
        self,
        item: RetrievedChunk | RejectedChunk,
        ctx: RetrievalContext | None,
        names: Names,
        *,
        total: int = 0,
        reason: str | None = None,
        references: tuple[PassageRef, ...] = (),
    ) -> None:
        breakdown = item.breakdown
        ref = names.reference(item.candidate.metadata) or item.candidate.chunk_id
        if isinstance(item, RetrievedChunk):
            self.title.setText("Why this rank")
            self.subtitle.setText(f"#{item.rank} of {total} · {ref}")
        else:
            self.title.setText("Why not this one")
            self.subtitle.setText(f"Not shown · {ref} — {reason or describe.reject_short(item)}")
        if breakdown is None:  # below threshold: never scored
            self.chart.hide()
            similarity = item.similarity if isinstance(item, RejectedChunk) else None
            self.words.setText(describe.never_scored(similarity) if similarity is not None else "")
            return
        steps = breakdown_steps(breakdown, item.candidate, ctx, names, references)
        self.chart.set_steps(steps)
        self.chart.show()
        lines = [s.words for s in steps if s.label != "distance"]
        if isinstance(item, RejectedChunk) and reason:
            lines.append(describe.not_shown(reason))
        if ctx is not None:
            lines.append(f"Weights in force: {describe.weights_text(ctx.weights, ctx.policy)}.")
        self.words.setText("\n".join(lines))

""""Why #1 beat #2": two results' score breakdowns side by side, with the difference in words.

Shown in place of the passage and breakdown panes while exactly two results are selected
(Ctrl+click, Shift+arrow, or Ctrl+D for the current result and the next one), in the spirit of
Splainer's side-by-side explanations.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ..core.names import Names
from ..core.query import RetrievalContext
from ..core.results import RetrievedChunk
from ..present import factors
from ..present.titles import title
from .breakdown import BreakdownPanel
from .theme import scaled_font


class ComparePanel(QWidget):
    """Two :class:`BreakdownPanel`, the better-ranked on the left, under a summary of why it won."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = QLabel()
        self.heading.setFont(scaled_font(self.font(), 1.0, bold=True))
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setAccessibleName("Why the first beat the second")
        self.left = BreakdownPanel()
        self.right = BreakdownPanel()
        self.left.scroll_area.setAccessibleName("Why this rank: the better result")
        self.right.scroll_area.setAccessibleName("Why this rank: the other result")
        row = QHBoxLayout()
        row.setSpacing(8)
        row.addWidget(self.left, 1)
        row.addWidget(self.right, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 6, 6, 4)
        layout.setSpacing(4)
        layout.addWidget(self.heading)
        layout.addWidget(self.summary)
        layout.addLayout(row, 1)
        self.pair: tuple[RetrievedChunk, RetrievedChunk] | None = None

    def show_pair(self, a: RetrievedChunk, b: RetrievedChunk, ctx: RetrievalContext | None,
                  names: Names, total: int) -> None:
        first, second = sorted((a, b), key=lambda r: r.rank)
        self.pair = (first, second)
        self.heading.setText(f"Why #{first.rank} beat #{second.rank}")
        self.summary.setText(factors.compare_text(first, second))
        for panel, item in ((self.left, first), (self.right, second)):
            panel.show_chunk(item, ctx, names, total=total)
            panel.title.setText(f"#{item.rank} · {title(item.candidate, names)}")
            panel.title.setWordWrap(True)

"""Under the results: *Copy as Amicus context*, its token budget, and *Export results…*.

The buttons only ask: the pane re-emits them and the window does the work (``ui/export.py``). In a narrow
results column (the Study dock open beside the reader at 1000 px) the row says less — *Copy context*, no
"Budget:" label, each keeping its whole name in its tooltip and accessible name — so the column can give the
reader's text the room instead of holding it at the row's full width.
"""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSpinBox

from ...settings import MAX_CONTEXT_BUDGET, MIN_CONTEXT_BUDGET

COPY = "Copy as Amicus context"
#: the copy button's text when the row is narrower than it is with every word
COPY_SHORT = "Copy context"


class BundleBar(QHBoxLayout):
    """A row of the results column (a layout, so it adds no widget of its own to the window)."""

    def __init__(self) -> None:
        super().__init__()
        self.copy_context_button = QPushButton(COPY)
        self.copy_context_button.setAccessibleName(COPY)
        self.copy_context_button.setToolTip(f"{COPY}: the results as a prompt-ready block with citations, "
                                            "within the token budget")
        self.budget = QSpinBox()
        self.budget.setRange(MIN_CONTEXT_BUDGET, MAX_CONTEXT_BUDGET)
        self.budget.setSingleStep(500)
        self.budget.setGroupSeparatorShown(True)
        self.budget.setSuffix(" tokens")
        self.budget.setAccessibleName("Context budget in tokens")
        self.budget.setToolTip("Budget: the most tokens the copied context may use (counted with the model's "
                               "tokenizer)")
        self.budget_label = QLabel("Budget:")
        self.budget_label.setBuddy(self.budget)
        self.export_button = QPushButton("Export…")
        self.export_button.setToolTip("Export results… (the bundle as JSON, or a CSV table of the results and "
                                      "rejections)")
        self.export_button.setAccessibleName("Export results")
        self.setContentsMargins(0, 4, 0, 4)
        self.setSpacing(4)
        self.addWidget(self.copy_context_button)
        self.addWidget(self.budget_label)
        self.addWidget(self.budget)
        self.addStretch(1)
        self.addWidget(self.export_button)
        self.compact = False
        self._hold_short_width()

    def _hold_short_width(self) -> None:
        """The row's minimum is its short form's: the copy button no narrower than *Copy context*, the label
        free to go (it is hidden before it would be squeezed)."""
        fm = self.copy_context_button.fontMetrics()
        self._saved = fm.horizontalAdvance(COPY) - fm.horizontalAdvance(COPY_SHORT)
        shown = self.copy_context_button.text()
        self.copy_context_button.setText(COPY_SHORT)
        self.copy_context_button.setMinimumWidth(self.copy_context_button.sizeHint().width())
        self.copy_context_button.setText(shown)
        self.budget_label.setMinimumWidth(1)

    def full_width(self) -> int:
        """The row's width with every word shown."""
        width = self.sizeHint().width()
        if self.compact:
            width += self._saved + self.budget_label.sizeHint().width() + self.spacing()
        return width

    def setGeometry(self, rect: QRect) -> None:
        self.set_compact(rect.width() < self.full_width())
        super().setGeometry(rect)

    def set_compact(self, compact: bool) -> None:
        """Say less (*Copy context*, no "Budget:") or every word."""
        if compact != self.compact:
            self.compact = compact
            self.copy_context_button.setText(COPY_SHORT if compact else COPY)
            self.budget_label.setVisible(not compact)

    def set_budget(self, tokens: int) -> None:
        """Show the saved context budget (without announcing a change)."""
        if not self.budget.hasFocus():
            self.budget.blockSignals(True)
            self.budget.setValue(tokens)
            self.budget.blockSignals(False)

    def set_enabled(self, enabled: bool) -> None:
        """Both buttons need results on screen."""
        self.copy_context_button.setEnabled(enabled)
        self.export_button.setEnabled(enabled)

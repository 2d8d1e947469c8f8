"""Under the results: *Copy as Amicus context*, its token budget, and *Export results…*.

The buttons only ask: the pane re-emits them and the window does the work (``ui/export.py``).
"""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSpinBox

from ...settings import MAX_CONTEXT_BUDGET, MIN_CONTEXT_BUDGET


class BundleBar(QHBoxLayout):
    """A row of the results column (a layout, so it adds no widget of its own to the window)."""

    def __init__(self) -> None:
        super().__init__()
        self.copy_context_button = QPushButton("Copy as Amicus context")
        self.copy_context_button.setToolTip("Copy the results as a prompt-ready block with citations, "
                                            "within the token budget")
        self.budget = QSpinBox()
        self.budget.setRange(MIN_CONTEXT_BUDGET, MAX_CONTEXT_BUDGET)
        self.budget.setSingleStep(500)
        self.budget.setGroupSeparatorShown(True)
        self.budget.setSuffix(" tokens")
        self.budget.setAccessibleName("Context budget in tokens")
        self.budget.setToolTip("The most tokens the copied context may use (counted with the model's tokenizer)")
        budget_label = QLabel("Budget:")
        budget_label.setBuddy(self.budget)
        self.export_button = QPushButton("Export…")  # short: the row fits beside the Study dock at 1000 px
        self.export_button.setToolTip("Export results… (the bundle as JSON, or a CSV table of the results and "
                                      "rejections)")
        self.export_button.setAccessibleName("Export results")
        self.setContentsMargins(0, 4, 0, 4)
        self.setSpacing(4)
        self.addWidget(self.copy_context_button)
        self.addWidget(budget_label)
        self.addWidget(self.budget)
        self.addStretch(1)
        self.addWidget(self.export_button)

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

"""The search mode switch beside the question box: Semantic | Hybrid | Keyword.

A segmented control of three checkable buttons, each reachable with Tab and named for screen
readers ("Search mode: Hybrid"); the checked one is the mode the next question uses. It only shows
and requests: the mode itself lives in the session (``session/search.py``), which saves it.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QToolButton, QWidget

from ..core.query import SearchMode
from ..present import describe
from ..session import MODES


class ModeSwitch(QWidget):
    """Emits :attr:`modeChosen` (a :class:`SearchMode`) when the user picks another mode."""

    modeChosen = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Search mode")
        self.group = QButtonGroup(self)
        self.group.setExclusive(True)
        self.buttons: dict[SearchMode, QToolButton] = {}
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        for mode in MODES:
            button = QToolButton()
            button.setText(mode.label)
            button.setCheckable(True)
            button.setAutoRaise(False)
            button.setMinimumHeight(32)
            button.setAccessibleName(f"Search mode: {mode.label}")
            button.setToolTip(f"{describe.MODE_HELP[mode]}\nCtrl+M switches to the next mode.")
            button.clicked.connect(lambda _checked=False, m=mode: self._clicked(m))
            self.group.addButton(button)
            layout.addWidget(button)
            self.buttons[mode] = button
        self._mode = SearchMode.HYBRID
        self.set_mode(self._mode)

    @property
    def mode(self) -> SearchMode:
        return self._mode

    def set_mode(self, mode: SearchMode) -> None:
        """Show ``mode`` as the checked one (no signal)."""
        self._mode = mode
        self.buttons[mode].setChecked(True)
        self.setAccessibleDescription(describe.MODE_HELP[mode])

    def _clicked(self, mode: SearchMode) -> None:
        if mode is not self._mode:
            self._mode = mode
            self.modeChosen.emit(mode)

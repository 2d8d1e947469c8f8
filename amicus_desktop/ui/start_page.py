"""The page shown instead of the workspace: welcome (no database yet) or a database error."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QStyle, QVBoxLayout, QWidget

from ..present import states
from .theme import scaled_font, serif_font


class StartPage(QWidget):
    """A calm centred card with a title, what happened, what to do, and buttons."""

    def __init__(self, actions: dict[str, Callable[[], None]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._actions = actions
        self.code = ""
        self.card = QFrame()
        self.card.setObjectName("startCard")
        self.card.setMaximumWidth(680)
        # palette() roles keep the card right in light and dark schemes.
        self.card.setStyleSheet(
            "#startCard { background-color: palette(base); border: 1px solid palette(mid); border-radius: 10px; }"
        )
        self.icon = QLabel()
        self.title = QLabel()
        self.title.setFont(serif_font(max(18.0, self.font().pointSizeF() * 1.9)))
        self.title.setWordWrap(True)
        self.body = QLabel()
        self.body.setWordWrap(True)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body.setFont(scaled_font(self.font(), 1.08))
        self.advice = QLabel()
        self.advice.setWordWrap(True)
        self.advice.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.advice.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.buttons = QHBoxLayout()
        self.buttons.setSpacing(10)
        self._buttons: dict[str, QPushButton] = {}

        card = QVBoxLayout(self.card)
        card.setContentsMargins(36, 32, 36, 32)
        card.setSpacing(14)
        head = QHBoxLayout()
        head.setSpacing(14)
        head.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignTop)
        head.addWidget(self.title, 1)
        card.addLayout(head)
        card.addWidget(self.body)
        card.addWidget(self.advice)
        card.addSpacing(8)
        card.addLayout(self.buttons)

        outer = QVBoxLayout(self)
        outer.addStretch(2)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.card, 4)
        row.addStretch(1)
        outer.addLayout(row)
        outer.addStretch(3)

    def show_state(self, text: states.StateText, code: str = "") -> None:
        self.code = code
        icon = {"info": QStyle.StandardPixmap.SP_MessageBoxInformation,
                "warning": QStyle.StandardPixmap.SP_MessageBoxWarning,
                "error": QStyle.StandardPixmap.SP_MessageBoxCritical}[text.kind]
        self.icon.setPixmap(self.style().standardIcon(icon).pixmap(40, 40))
        self.icon.setVisible(text.kind != "info")
        self.title.setText(text.title)
        self.body.setText(text.body)
        self.advice.setText(text.advice)
        self.advice.setVisible(bool(text.advice))
        self.setAccessibleName(text.title)
        while self.buttons.count():
            item = self.buttons.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self._buttons = {}
        for i, action in enumerate(text.actions):
            button = QPushButton(states.ACTION_LABELS[action])
            button.setAccessibleName(states.ACTION_LABELS[action].rstrip("…"))
            button.setMinimumHeight(34)
            if i == 0:
                button.setDefault(True)
                button.setAutoDefault(True)
            callback = self._actions.get(action)
            if callback is not None:
                button.clicked.connect(callback)
            self.buttons.addWidget(button)
            self._buttons[action] = button
        self.buttons.addStretch(1)

    def button(self, action: str) -> QPushButton | None:
        return self._buttons.get(action)

"""A message strip across the top of the workspace: what is wrong and what to do, with buttons.

Its kind (info / warning / error) is carried by an icon and the words, with a tint of the palette's
own window colour as a secondary cue, so it reads the same in light and dark schemes.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QStyle, QVBoxLayout, QWidget

from .theme import accent, scaled_font, tint

ICONS = {
    "info": QStyle.StandardPixmap.SP_MessageBoxInformation,
    "warning": QStyle.StandardPixmap.SP_MessageBoxWarning,
    "error": QStyle.StandardPixmap.SP_MessageBoxCritical,
}


class Banner(QFrame):
    """``show_message(kind, title, body, actions)``; ``clear()`` hides it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = "info"
        self.setObjectName("banner")
        self.setAutoFillBackground(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setAccessibleName("Status message")
        self.stripe = QFrame()
        self.stripe.setFixedWidth(4)
        self.stripe.setAutoFillBackground(True)
        self.icon = QLabel()
        self.icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.title = QLabel()
        self.title.setFont(scaled_font(self.font(), 1.05, bold=True))
        self.title.setWordWrap(True)
        self.body = QLabel()
        self.body.setWordWrap(True)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.detail.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        texts = QVBoxLayout()
        self.texts = texts
        texts.setSpacing(3)
        texts.addWidget(self.title)
        texts.addWidget(self.body)
        texts.addWidget(self.detail)
        self.buttons = QHBoxLayout()
        self.buttons.setSpacing(6)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 12, 0)
        row.setSpacing(12)
        row.addWidget(self.stripe)
        inner = QHBoxLayout()
        self.inner = inner
        inner.setContentsMargins(0, 10, 0, 10)
        inner.setSpacing(12)
        inner.addWidget(self.icon)
        inner.addLayout(texts, 1)
        inner.addLayout(self.buttons)
        row.addLayout(inner, 1)
        self._buttons: dict[str, QPushButton] = {}
        self.hide()

    def show_message(
        self,
        kind: str,
        title: str,
        body: str,
        actions: list[tuple[str, Callable[[], None]]] = (),  # type: ignore[assignment]
        detail: str = "",
        *,
        compact: bool = False,
    ) -> None:
        """``compact`` puts the title and body on one line with tighter margins (a note, not an alarm)."""
        self.kind = kind
        self.inner.setContentsMargins(0, 5 if compact else 10, 0, 5 if compact else 10)
        if compact:
            self.title.setFont(self.font())
            self.title.setTextFormat(Qt.TextFormat.RichText)
            self.title.setText(f"<b>{html.escape(title)}</b>&nbsp; {html.escape(body)}")
            self.body.clear()
        else:
            self.title.setFont(scaled_font(self.font(), 1.05, bold=True))
            self.title.setTextFormat(Qt.TextFormat.PlainText)
            self.title.setText(title)
            self.body.setText(body)
        self.body.setVisible(bool(self.body.text()))
        self.set_detail(detail)
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize) + 8
        self.icon.setPixmap(self.style().standardIcon(ICONS[kind]).pixmap(size, size))
        self.icon.setAccessibleName(kind)
        self.setAccessibleDescription(f"{kind}: {title} {body}")
        labels = [text for text, _cb in actions]
        if labels != list(self._buttons):
            for button in self._buttons.values():
                self.buttons.removeWidget(button)
                button.deleteLater()
            self._buttons = {}
            for text, callback in actions:
                button = QPushButton(text)
                button.setAccessibleName(text.replace("&", ""))
                button.clicked.connect(callback)
                self.buttons.addWidget(button, 0, Qt.AlignmentFlag.AlignVCenter)
                self._buttons[text] = button
        else:  # same buttons: keep them (and their focus), rebind the actions
            for (_text, callback), button in zip(actions, self._buttons.values(), strict=True):
                button.clicked.disconnect()
                button.clicked.connect(callback)
        self._apply_colors()
        self.show()

    def set_detail(self, detail: str) -> None:
        self.detail.setText(detail)
        self.detail.setVisible(bool(detail))

    def button(self, text: str) -> QPushButton | None:
        return self._buttons.get(text)

    def clear(self) -> None:
        self.hide()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.ApplicationPaletteChange:
            self._apply_colors()
        super().changeEvent(event)

    def _apply_colors(self) -> None:
        from PySide6.QtWidgets import QApplication

        base = QApplication.palette()
        pal = QPalette(base)
        pal.setColor(QPalette.ColorRole.Window, tint(base, self.kind))
        self.setPalette(pal)
        stripe = QPalette(base)
        stripe.setColor(QPalette.ColorRole.Window, accent(base, self.kind))
        self.stripe.setPalette(stripe)

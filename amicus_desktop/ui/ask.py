"""The ask box: the current context, the profile, the search mode, the question and the busy state."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QGraphicsOpacityEffect,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..core.preset import APP
from ..core.query import Profile
from ..overlays import Overlay
from .mode_switch import ModeSwitch
from .theme import scaled_font, show_as_error

#: the question box's narrowest beside the search modes; narrower, the modes go above it (a narrow column)
QUESTION_ROOM = 200


class StackingRow(QBoxLayout):
    """``first`` beside ``second`` — or above it when the row is narrower than both side by side need, with
    ``second`` at least ``room`` wide. Its minimum width is the stacked one, so the column holding it can be
    narrow (the Study dock open beside the text in a 1000-px window) without squeezing the question box."""

    def __init__(self, first: QWidget, second: QHBoxLayout, *, room: int) -> None:
        super().__init__(QBoxLayout.Direction.LeftToRight)
        self.setContentsMargins(0, 0, 0, 0)
        self.addWidget(first, 0, Qt.AlignmentFlag.AlignLeft)
        self.addLayout(second, 1)
        self._first, self._second, self._room = first, second, room

    @property
    def stacked(self) -> bool:
        return self.direction() is QBoxLayout.Direction.TopToBottom

    def minimumSize(self) -> QSize:
        size = super().minimumSize()
        stacked = max(self._first.minimumSizeHint().width(), self._second.minimumSize().width())
        return QSize(stacked, size.height())

    def setGeometry(self, rect: QRect) -> None:
        beside = (self._first.sizeHint().width() + self.spacing()
                  + max(self._room, self._second.minimumSize().width()))
        want = QBoxLayout.Direction.LeftToRight if rect.width() >= beside else QBoxLayout.Direction.TopToBottom
        if self.direction() != want:
            self.setDirection(want)
        super().setGeometry(rect)


class AskBar(QFrame):
    """Emits :attr:`askRequested` with the question text."""

    askRequested = Signal(str)
    profileClicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.context_label = QLabel("Context: none")
        self.context_label.setAccessibleName("Current chapter context")
        self.set_chapter_boost(APP.weights.chapter)
        self.context_label.setFont(scaled_font(self.font(), 1.0, bold=True))
        self.profile_button = QToolButton()
        self.profile_button.setAutoRaise(True)
        self.profile_button.setAccessibleName("Edit profile")
        self.profile_button.setToolTip("Choose preferred scholars and traditions")
        self.profile_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.status_label = QLabel()
        self.status_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.status_label.setAccessibleName("Search status")

        self.mode_switch = ModeSwitch()
        self.edit = QLineEdit()
        self.edit.setPlaceholderText("Ask a question about the text…")
        self.edit.setAccessibleName("Question")
        self.edit.setClearButtonEnabled(True)
        self.edit.setMinimumHeight(32)
        self.button = QPushButton("Ask")
        self.button.setDefault(True)
        self.button.setAccessibleName("Ask")
        self.button.setMinimumHeight(32)
        self.button.setMinimumWidth(84)
        self.busy = BusyBar()
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setAccessibleName("Question problem")
        self.error_label.hide()

        top = QHBoxLayout()
        top.setSpacing(10)
        top.addWidget(self.context_label)
        top.addWidget(_dot())
        top.addWidget(self.profile_button)
        top.addStretch(1)
        top.addWidget(self.status_label)
        field = QHBoxLayout()
        field.setSpacing(8)
        field.addWidget(self.edit, 1)
        field.addWidget(self.button)
        row = StackingRow(self.mode_switch, field, room=QUESTION_ROOM)
        row.setSpacing(8)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 8)
        layout.setSpacing(6)
        layout.addLayout(top)
        layout.addLayout(row)
        layout.addWidget(self.busy)
        layout.addWidget(self.error_label)

        self.button.clicked.connect(self._ask)
        self.edit.returnPressed.connect(self._ask)
        self.edit.textChanged.connect(self._text_changed)
        self.profile_button.clicked.connect(self.profileClicked)
        self._enabled = True
        self._update_button()

    # -- state -----------------------------------------------------------------------------
    def set_context(self, label: str) -> None:
        self.context_label.setText(f"Context: {label}" if label else "Context: no chapter")

    def set_chapter_boost(self, boost: float) -> None:
        """Say the reader's chapter boost in the context's tooltip (the settings change it)."""
        self.context_label.setToolTip(f"Results from this chapter get the chapter boost (×{boost:g})")

    def set_profile(self, profile: Profile, overlay: Overlay | None = None) -> None:
        parts = []
        if profile.preferred_scholars:
            parts.append(_plural(len(profile.preferred_scholars), "scholar"))
        if profile.preferred_traditions:
            parts.append(_plural(len(profile.preferred_traditions), "tradition"))
        if overlay is not None:
            parts.append(f"overlay {overlay.role_id}")
        self.profile_button.setText("Profile: " + (", ".join(parts) if parts else "no preferences"))
        names = sorted(profile.preferred_scholars) + sorted(profile.preferred_traditions)
        self.profile_button.setToolTip(
            ("Preferred: " + ", ".join(names) if names else "No preferred scholars or traditions")
            + (f"\nOverlay: {overlay.role_id}" if overlay is not None else "\nNo overlay")
            + "\nClick to edit (Ctrl+Shift+P)"
        )

    def set_available(self, available: bool, reason: str = "") -> None:
        """Enable or disable asking; ``reason`` replaces the placeholder while disabled."""
        self._enabled = available
        self.edit.setEnabled(available)
        self.edit.setPlaceholderText("Ask a question about the text…" if available else reason)
        self._update_button()

    def set_busy(self, busy: bool, text: str = "Searching…") -> None:
        self.busy.set_active(busy)
        if busy:
            self.status_label.setText(text)
        elif self.status_label.text() == text:
            self.status_label.setText("")

    def set_status(self, text: str) -> None:
        self.status_label.setText(text)

    def show_error(self, message: str) -> None:
        self.error_label.setText(message)
        show_as_error(self.error_label)
        self.error_label.show()

    def clear_error(self) -> None:
        self.error_label.hide()

    def focus(self) -> None:
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.edit.selectAll()

    # -- internals -------------------------------------------------------------------------
    def _ask(self) -> None:
        if not self._enabled:
            return
        self.askRequested.emit(self.edit.text())

    def _text_changed(self, _text: str) -> None:
        self.clear_error()
        self._update_button()

    def _update_button(self) -> None:
        self.button.setEnabled(self._enabled and bool(self.edit.text().strip()))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _dot() -> QLabel:
    dot = QLabel("·")
    dot.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    return dot


class BusyBar(QProgressBar):
    """The thin "searching" bar under the question box: always laid out, painted only while busy.

    Showing and hiding a widget makes Qt lay the whole window out again, which cost the UI thread
    20–40 ms at the start of every question (``tests/ui/test_stall.py``); fading this bar in and out
    repaints three pixel rows instead.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextVisible(False)
        self.setFixedHeight(3)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._fade = QGraphicsOpacityEffect(self)
        self.setGraphicsEffect(self._fade)
        self.active = False
        self.set_active(False)

    def set_active(self, active: bool) -> None:
        """Busy: an endless animation; idle: a still, invisible bar (no animation timer running)."""
        self.active = active
        self.setRange(0, 0 if active else 1)
        self._fade.setOpacity(1.0 if active else 0.0)
        self.setAccessibleName("Searching" if active else "")

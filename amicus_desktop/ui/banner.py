"""A message strip: what is wrong and what to do, with buttons.

The window keeps its banners at the bottom of the results column, so one appearing or going never
moves what the reader is looking at (docs/UI.md). It is compact for that place: the title on its
first line with the countdown to the next check at its right, then the body and the advice, each
on one elided line (the whole of them in their tooltips and in the banner's accessible description),
and the buttons at the right of the text, or, when the banner is too narrow for that, on the
advice's line, or, narrower still (a results column beside the Study dock), on a line of their own.
The countdown has a fixed width and the lines under the title one line each, so ticking never changes
the height.

Its kind (info / warning / error) is carried by an icon and the words, with a tint of the palette's
own window colour as a secondary cue, so it reads the same in light and dark schemes.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStyle,
    QWidget,
)

from .elided import ElidedLabel
from .theme import accent, tint

ICONS = {
    "info": QStyle.StandardPixmap.SP_MessageBoxInformation,
    "warning": QStyle.StandardPixmap.SP_MessageBoxWarning,
    "error": QStyle.StandardPixmap.SP_MessageBoxCritical,
}

#: The text beside the buttons is never narrower than this (else the buttons go under the title).
MIN_TEXT_BESIDE = 380


class Banner(QFrame):
    """``show_message(kind, title, body, actions, detail, countdown=)``; ``clear()`` hides it.

    ``title``, ``body``, ``detail`` and ``countdown`` are its labels (``text()`` is always the whole
    text, the detail's too). ``countdown_samples`` are the shapes the countdown takes; it keeps room
    for the widest.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = "info"
        self.countdown_samples: Sequence[str] = ()
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
        self._title_font()
        self.title.setWordWrap(True)
        self.countdown = QLabel()
        self.countdown.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.countdown.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        self.countdown.hide()
        self.body = ElidedLabel()
        self.detail = ElidedLabel()
        self.detail.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        head = QWidget()  # the title and, at its right, the countdown
        hl = QHBoxLayout(head)
        hl.setContentsMargins(0, 0, 0, 0)
        hl.setSpacing(12)
        hl.addWidget(self.title, 1)
        hl.addWidget(self.countdown, 0, Qt.AlignmentFlag.AlignTop)
        self.head = head
        self.button_box = QWidget()
        self.buttons = QHBoxLayout(self.button_box)
        self.buttons.setContentsMargins(0, 0, 0, 0)
        self.buttons.setSpacing(6)
        grid = QGridLayout()
        self.grid = grid
        grid.setContentsMargins(0, 6, 0, 6)
        grid.setHorizontalSpacing(10)
        grid.setVerticalSpacing(2)
        grid.addWidget(self.icon, 0, 0, 3, 1, Qt.AlignmentFlag.AlignTop)
        grid.setColumnStretch(1, 1)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 10, 0)
        row.setSpacing(10)
        row.addWidget(self.stripe)
        row.addLayout(grid, 1)
        self._buttons: dict[str, QPushButton] = {}
        self._place: str | None = None
        self._arrange(place="beside")
        self.hide()

    def show_message(
        self,
        kind: str,
        title: str,
        body: str,
        actions: Sequence[tuple[str, Callable[[], None]]] = (),
        detail: str = "",
        *,
        compact: bool = False,
        countdown: str = "",
    ) -> None:
        """``compact`` puts the title and body on one line (a note, not an alarm)."""
        self.kind = kind
        self.grid.setContentsMargins(0, 3 if compact else 6, 0, 3 if compact else 6)
        if compact:
            self.title.setFont(self.font())
            self.title.setTextFormat(Qt.TextFormat.RichText)
            self.title.setText(f"<b>{html.escape(title)}</b>&nbsp; {html.escape(body)}")
            self.body.clear()
        else:
            self._title_font()
            self.title.setTextFormat(Qt.TextFormat.PlainText)
            self.title.setText(title)
            self.body.setText(body)
        self.body.setVisible(bool(self.body.text()))
        self.set_detail(detail)
        self.set_countdown(countdown)
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize) + 4
        self.icon.setPixmap(self.style().standardIcon(ICONS[kind]).pixmap(size, size))
        self.icon.setAccessibleName(kind)
        self.setAccessibleDescription(" ".join(part for part in (f"{kind}: {title}", body, detail) if part))
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
        self.button_box.setVisible(bool(self._buttons))
        # as narrow as the buttons on a line of their own: the narrower places are chosen as it narrows
        self.setMinimumWidth(self._margins() + self.button_box.sizeHint().width() if self._buttons else 0)
        self._apply_colors()
        self._arrange()
        self.show()

    def set_detail(self, detail: str) -> None:
        """The advice line (elided; the whole of it in the tooltip)."""
        self.detail.setText(detail)
        self.detail.setVisible(bool(detail))

    def set_countdown(self, text: str) -> None:
        """The countdown at the title's right; its width is that of the widest of
        :attr:`countdown_samples` (and of ``text``), so the title never re-wraps as it ticks."""
        fm = self.countdown.fontMetrics()
        widest = max((fm.horizontalAdvance(t) for t in (text, *self.countdown_samples)), default=0)
        self.countdown.setMinimumWidth(widest + 2)
        self.countdown.setText(text)
        self.countdown.setVisible(bool(text))

    def button(self, text: str) -> QPushButton | None:
        return self._buttons.get(text)

    def clear(self) -> None:
        self.hide()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.ApplicationPaletteChange:
            self._apply_colors()
        super().changeEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._arrange()

    # -- layout --------------------------------------------------------------------------------
    def _title_font(self) -> None:
        font = self.font()
        font.setBold(True)
        self.title.setFont(font)

    def _margins(self) -> int:
        """The strip's own width outside the text: the stripe, the spacing, the right margin."""
        return self.stripe.width() + 10 + 10

    def _text_room(self) -> int:
        """The width the text would have with the buttons beside it."""
        fixed = self._margins() + self.icon.sizeHint().width() + 10 * 2 + 4
        return self.width() - fixed - (self.button_box.sizeHint().width() if self._buttons else 0)

    def _arrange(self, place: str | None = None) -> None:
        """The buttons beside the text when the title still fits on one line there (``beside``), else on the
        advice's line under a full-width title and body (``under``), else, when the advice's line cannot hold
        them and a few letters of advice, on a line of their own (``alone``)."""
        if place is None:
            plain = self.title.textFormat() != Qt.TextFormat.RichText
            title_width = self.title.fontMetrics().horizontalAdvance(self.title.text()) if plain else 0
            countdown = self.countdown.minimumWidth() + 12 if self.countdown.isVisibleTo(self) else 0
            room = self._text_room()
            if not self._buttons or room >= max(MIN_TEXT_BESIDE, title_width + countdown):
                place = "beside"
            else:
                place = "under" if room >= self.detail.minimumSizeHint().width() else "alone"
        if place == self._place:
            return
        self._place = place
        grid = self.grid
        for w in (self.head, self.body, self.detail, self.button_box):
            grid.removeWidget(w)
        span = 1 if place == "beside" else 2
        grid.addWidget(self.head, 0, 1, 1, span)
        grid.addWidget(self.body, 1, 1, 1, span)
        grid.addWidget(self.detail, 2, 1, 1, 1 if place == "under" else span)
        if place == "beside":
            grid.addWidget(self.button_box, 0, 2, 3, 1, Qt.AlignmentFlag.AlignVCenter)
        elif place == "under":
            grid.addWidget(self.button_box, 2, 2, 1, 1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        else:
            grid.addWidget(self.button_box, 3, 0, 1, 3, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

    def _apply_colors(self) -> None:
        base = QApplication.palette()
        pal = QPalette(base)
        pal.setColor(QPalette.ColorRole.Window, tint(base, self.kind))
        self.setPalette(pal)
        stripe = QPalette(base)
        stripe.setColor(QPalette.ColorRole.Window, accent(base, self.kind))
        self.stripe.setPalette(stripe)

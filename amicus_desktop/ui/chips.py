"""Reference chips: the scripture references found in the question, above the results.

Each detected reference (``result.trace.references``) is a small flat button — "Romans 9:6-13" —
with accessible text saying what pressing it does; pressing one opens the passage in the reader
(the same :attr:`passageRequested` signal the passage pane's link emits). Hidden when the question
names no passage. At most :data:`~amicus_desktop.present.bounds.MAX_CHIPS` chips are shown, then "and
N more" (the rest in its tooltip); the row never widens the window (its width is the window's, not
the sum of its chips).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QToolButton, QWidget

from ..core.names import Names
from ..core.references import PassageRef
from ..present import bounds


class ReferenceChips(QWidget):
    """Emits :attr:`passageRequested` ``(book_id, chapter, first verse or 0, last verse or 0)``."""

    passageRequested = Signal(str, int, int, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("References in the question")
        self.label = QLabel("In your question:")
        self.label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.more = QLabel()
        self.more.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.more.hide()
        self.row = QHBoxLayout(self)
        self.row.setContentsMargins(0, 0, 0, 0)
        self.row.setSpacing(6)
        self.row.addWidget(self.label)
        self.row.addWidget(self.more)
        self.row.addStretch(1)
        # The window's width is the reader's: chips that do not fit are cut off, never widen it.
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.chips: list[QToolButton] = []
        self.hide()

    def set_references(self, refs: tuple[PassageRef, ...], names: Names) -> None:
        """Show one chip per reference (hidden when there are none)."""
        for chip in self.chips:
            self.row.removeWidget(chip)
            chip.deleteLater()
        self.chips = []
        labels = [names.passage(ref).replace("-", "–") for ref in refs]
        for ref, text in zip(refs[:bounds.MAX_CHIPS], labels, strict=False):
            chip = QToolButton()
            chip.setText(text)
            chip.setCursor(Qt.CursorShape.PointingHandCursor)
            chip.setAccessibleName(f"Open {text} in the reader")
            chip.setToolTip(f"Your question names {text} (written “{ref.text}”): open it in the reader.\n"
                            "Chunks covering it got the reference boost.")
            chip.clicked.connect(lambda _checked=False, r=ref: self._open(r))
            self.row.insertWidget(self.row.count() - 2, chip)
            self.chips.append(chip)
        rest = labels[bounds.MAX_CHIPS:]
        self.more.setText(bounds.more(len(rest)))
        self.more.setToolTip(bounds.and_more(rest, bounds.MAX_LISTED * 3))
        self.more.setVisible(bool(rest))
        self.setVisible(bool(refs))

    def _open(self, ref: PassageRef) -> None:
        self.passageRequested.emit(ref.book_id, ref.chapter, ref.verse_start or 0, ref.verse_end or 0)

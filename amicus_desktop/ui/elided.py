"""Text shortened to fit: a one-line label that elides its text to the width it is given (the whole text in its
tooltip), and a chunk title elided so that its passage stays whole (:func:`elide_title`, :class:`TitleDelegate`).

``text()`` is always the whole text (tests, accessibility and copy see every word); only the painting
is shortened, with Qt's :meth:`QFontMetrics.elidedText`. Its height is one line whatever the text, so
a text that changes while it is shown (a countdown) never changes the height of what holds it.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt
from PySide6.QtGui import QFontMetrics, QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QStyledItemDelegate, QStyleOptionViewItem, QWidget

#: The narrowest an elided label gets: a few letters and the ellipsis.
MIN_CHARS = 6
#: The letters of a title's first part (its author, or a word study's word) kept however narrow the column.
TITLE_LEAD = 8


class ElidedLabel(QLabel):
    """A plain-text :class:`QLabel` on one line, shortened with "…" when narrower than its text."""

    def __init__(self, text: str = "", parent: QWidget | None = None,
                 mode: Qt.TextElideMode = Qt.TextElideMode.ElideRight) -> None:
        super().__init__(parent)
        self._mode = mode
        self._own_tip = ""
        self._shorter: tuple[str, ...] = ()
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(False)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setText(text)

    def setText(self, text: str) -> None:
        super().setText(" ".join(text.split()))  # one line: newlines would not be painted
        self._update_tip()
        self.updateGeometry()

    def setToolTip(self, tip: str) -> None:
        """A tooltip of its own; while elided, the whole text is added to it."""
        self._own_tip = tip
        self._update_tip()

    def set_shorter(self, *texts: str) -> None:
        """Shorter forms of the text, painted (the first that fits) before any is elided: "My notes (3)"
        says more in a narrow pane than "My notes on Roma…"."""
        self._shorter = texts
        self._update_tip()
        self.update()

    def shown_text(self) -> str:
        """The text as painted now: the text, else the first shorter form that fits, else the last elided."""
        width, fm = self.contentsRect().width(), self.fontMetrics()
        variants = (self.text(), *self._shorter)
        fits = next((v for v in variants if fm.horizontalAdvance(v) <= width), None)
        return fits if fits is not None else fm.elidedText(variants[-1], self._mode, width)

    def is_elided(self) -> bool:
        return self.shown_text() != self.text()

    def sizeHint(self) -> QSize:
        m = self.contentsMargins()
        fm = self.fontMetrics()
        return QSize(fm.horizontalAdvance(self.text()) + m.left() + m.right() + 2,
                     fm.height() + m.top() + m.bottom())

    def minimumSizeHint(self) -> QSize:
        m = self.contentsMargins()
        fm = self.fontMetrics()
        width = min(fm.horizontalAdvance(self.text()), fm.averageCharWidth() * MIN_CHARS)
        return QSize(width + m.left() + m.right() + 2, fm.height() + m.top() + m.bottom())

    def heightForWidth(self, _width: int) -> int:
        return self.sizeHint().height()

    def hasHeightForWidth(self) -> bool:
        return False

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._update_tip()

    def paintEvent(self, _event: QPaintEvent) -> None:
        painter = QPainter(self)
        rect = self.contentsRect()
        align = self.alignment() | Qt.AlignmentFlag.AlignVCenter
        self.style().drawItemText(painter, rect, int(align), self.palette(), self.isEnabled(), self.shown_text(),
                                  self.foregroundRole())

    def _update_tip(self) -> None:
        parts = [self._own_tip] if self._own_tip else []
        if self.is_elided() and self.text() != self._own_tip:
            parts.insert(0, self.text())
        super().setToolTip("\n".join(parts))


#: a title's "(part 2 of 3)": given up before the reference when a column is narrow
_PART = re.compile(r" \(part \d+ of \d+\)$")


def elide_title(text: str, fm: QFontMetrics, width: int) -> str:
    """``text`` shortened to ``width`` the way a chunk's title should be: its passage is what tells two rows
    apart, so the part before " — " (the author, or a word study's word) is elided first, down to its first
    few letters ("Matthew He… — Romans 9:6-13 (part 6 of 6)"), then "(part 6 of 6)" goes, then the author
    shrinks to its first letter ("M… — Romans 9:6-13") and at last goes ("Romans 9:6-13"); a column too narrow
    for the bare passage keeps the author's first letters and cuts the end ("Matthew… — Rom…")."""
    if fm.horizontalAdvance(text) <= width:
        return text
    who, sep, what = text.partition(" — ")
    if not sep:
        return fm.elidedText(text, Qt.TextElideMode.ElideRight, width)
    part = _PART.search(what)
    # the whole passage first; then without "(part 2 of 3)", which matters less than the reference
    tails: list[str] = [sep + what] + ([sep + what[:part.start()]] if part else [])
    for lead in (who[:TITLE_LEAD] + "…", who[:1] + "…"):
        least = fm.horizontalAdvance(lead)
        for tail in tails:
            room = width - fm.horizontalAdvance(tail)
            if room >= least:
                return fm.elidedText(who, Qt.TextElideMode.ElideRight, room) + tail
    passage = tails[-1][len(sep):]
    if fm.horizontalAdvance(passage) <= width:
        return passage
    return fm.elidedText(who[:TITLE_LEAD] + "…" + tails[-1], Qt.TextElideMode.ElideRight, width)


class TitleDelegate(QStyledItemDelegate):
    """Paints a column of chunk titles with :func:`elide_title` (the passage kept, the author elided)."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        if option.text:
            width = option.rect.width() - 2 * option.fontMetrics.horizontalAdvance(" ")
            option.text = elide_title(option.text, option.fontMetrics, width)

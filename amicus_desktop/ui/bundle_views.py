"""The retrieval bundle beside the results: the warning strip and the *How this was searched* panel.

:class:`WarningStrip` shows one row per warning of the answer on screen: an icon whose accessible
name and tooltip say what kind of warning it is, the engine's sentence (what happened and what to
do), and for a misspelt question a *Did you mean …?* button that asks the re-spelt question. The
kind is never told by colour alone. :class:`SearchedPanel` is a collapsible, keyboard-reachable
panel with the trace, diagnostics and stage timings, written out by :func:`.describe.searched_rows`.
"""

from __future__ import annotations

import html
from collections import Counter

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..core.names import DEFAULT_NAMES, Names
from ..core.results import RetrievalResult, RetrievalWarning, WarningCode
from ..present import bounds, describe, states
from ..present.sentences import shorten


class WarningRow(QFrame):
    """One warning: icon, sentence, and the suggestion's button when there is one."""

    def __init__(self, warning: RetrievalWarning, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.warning = warning
        label = states.WARNING_LABELS.get(warning.code, warning.code.value)
        self.setObjectName(f"warning-{warning.code.value}")
        self.setAccessibleName(f"Warning: {label}")
        self.icon = QLabel()
        pixmap = QStyle.StandardPixmap.SP_MessageBoxWarning
        size = self.fontMetrics().height()
        self.icon.setPixmap(self.style().standardIcon(pixmap).pixmap(size, size))
        self.icon.setToolTip(label)
        self.icon.setAccessibleName(label)
        self.icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.text = QLabel(f"<b>{html.escape(label, quote=False)}:</b> "
                           f"{html.escape(states.warning_sentence(warning.message, warning.suggestion), quote=False)}")
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text.setAccessibleName(warning.message)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 2, 0, 2)
        row.setSpacing(8)
        row.addWidget(self.icon, 0, Qt.AlignmentFlag.AlignTop)
        row.addWidget(self.text, 1)
        self.suggestion: QPushButton | None = None
        if warning.suggestion:
            # the button's words are bounded: a long question must not widen the window
            self.suggestion = QPushButton(states.did_you_mean(shorten(warning.suggestion, 60)))
            self.suggestion.setAccessibleName(states.did_you_mean(warning.suggestion))
            self.suggestion.setToolTip("Ask this question instead")
            self.suggestion.setCursor(Qt.CursorShape.PointingHandCursor)
            row.addWidget(self.suggestion, 0, Qt.AlignmentFlag.AlignTop)


class WarningStrip(QFrame):
    """The warnings of the answer on screen, one row each; hidden when there are none.

    ``suggestionChosen(str)``: the reader chose a re-spelt question; the window asks it.
    """

    suggestionChosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("warningStrip")
        self.setAccessibleName("Warnings about these results")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(8, 4, 8, 4)
        self._layout.setSpacing(2)
        self.more = QLabel()
        self.more.setObjectName("moreWarnings")
        self.more.setWordWrap(True)
        self.more.hide()
        self._layout.addWidget(self.more)
        self.rows: list[WarningRow] = []
        self.hide()

    def show_warnings(self, warnings: tuple[RetrievalWarning, ...] | list[RetrievalWarning]) -> None:
        """One row each for the first warnings, then one saying how many more (ten thousand missing
        pins made ten thousand rows, and as tall a window)."""
        for row in self.rows:
            self._layout.removeWidget(row)
            row.deleteLater()
        self.rows = []
        # what the ranking says first; the long lists (passages not in the library, missing pins) after
        every = sorted(warnings, key=lambda w: w.code in _LISTS)
        shown = every if len(every) <= bounds.MAX_WARNING_ROWS else every[: bounds.MAX_WARNING_ROWS - 1]
        rest = every[len(shown):]
        self.more.setText(bounds.more(len(rest), "warnings") + (": " + _kinds(rest) if rest else ""))
        self.more.setVisible(bool(rest))
        for w in shown:
            row = WarningRow(w, self)
            if row.suggestion is not None and w.suggestion:
                text = w.suggestion
                row.suggestion.clicked.connect(lambda _checked=False, t=text: self.suggestionChosen.emit(t))
            self._layout.insertWidget(self._layout.count() - 1, row)
            self.rows.append(row)
        self.setVisible(bool(self.rows))

    def codes(self) -> list[WarningCode]:
        return [r.warning.code for r in self.rows]


#: warnings that come one per passage or pin, and so can number in the thousands
_LISTS = (WarningCode.REFERENCE_NOT_IN_CORPUS, WarningCode.PIN_NOT_FOUND)


def _kinds(warnings: list[RetrievalWarning]) -> str:
    """``"355 Passage not in the library, 1 Pinned chunk missing"``: the warnings not shown, by kind."""
    counts = Counter(states.WARNING_LABELS.get(w.code, w.code.value) for w in warnings)
    return ", ".join(f"{n:,} {label}" for label, n in counts.items())


class SearchedPanel(QWidget):
    """*How this was searched*: a toggle button (keyboard-reachable) over a form of the bundle's facts."""

    TITLE = "How this was searched"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.toggle = QToolButton()
        self.toggle.setText(self.TITLE)
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setAutoRaise(True)
        self.toggle.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.toggle.setAccessibleName(self.TITLE)
        self.toggle.setAccessibleDescription("Shows the mode, references, filters, pins, candidate counts, "
                                             "rejections and timings of this search")
        self.toggle.toggled.connect(self.set_expanded)
        inner = QWidget()
        self.grid = QGridLayout(inner)
        self.grid.setContentsMargins(22, 0, 8, 0)
        self.grid.setHorizontalSpacing(12)
        self.grid.setVerticalSpacing(1)
        self.grid.setColumnStretch(1, 1)
        self.grid.setColumnStretch(3, 1)
        # In a scroll area: opening the panel never makes the window taller than the screen allows.
        self.body = QScrollArea()
        self.body.setObjectName("searchedBody")
        self.body.setAccessibleName(self.TITLE)
        self.body.setWidget(inner)
        self.body.setWidgetResizable(True)
        self.body.setFrameShape(QFrame.Shape.NoFrame)
        self.body.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.body.setMaximumHeight(self.fontMetrics().lineSpacing() * 9 + 12)
        self.body.setMinimumHeight(self.fontMetrics().lineSpacing() * 3)
        self.body.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.body)
        self.values: dict[str, QLabel] = {}

    @property
    def expanded(self) -> bool:
        return self.toggle.isChecked()

    def set_expanded(self, expanded: bool) -> None:
        if self.toggle.isChecked() != expanded:
            self.toggle.setChecked(expanded)  # comes back here through toggled
            return
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow)
        self.body.setVisible(expanded)

    def toggle_expanded(self) -> None:
        """Open or close the panel when it is shown (the ``searched`` shortcut); opened, it has the focus."""
        if self.isVisible():
            self.set_expanded(not self.expanded)
            if self.expanded:
                self.toggle.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def show_result(self, result: RetrievalResult | None, names: Names = DEFAULT_NAMES) -> None:
        while self.grid.count():
            item = self.grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.values = {}
        if result is None:
            self.hide()
            return
        rows = dict(describe.searched_rows(result, names))
        line = 0
        for left, right in PAIRED:  # short facts two to a line, long ones across
            self._add(line, 0, left, rows.pop(left), span=1)
            self._add(line, 2, right, rows.pop(right), span=1)
            line += 1
        for label, value in rows.items():
            self._add(line, 0, label, value, span=3)
            line += 1
        self.show()

    def _add(self, line: int, col: int, label: str, value: str, *, span: int) -> None:
        name = QLabel(f"{label}:")
        text = QLabel(value)
        text.setWordWrap(True)
        text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        text.setAccessibleName(f"{label}: {value}")
        name.setBuddy(text)
        self.grid.addWidget(name, line, col, Qt.AlignmentFlag.AlignTop)
        self.grid.addWidget(text, line, col + 1, 1, span)
        self.values[label] = text


#: Facts short enough to share a line in *How this was searched*.
PAIRED = (("Mode", "Question vector"), ("References", "Filters"), ("Pins", "Keywords"), ("Candidates", "Found"))

"""The Verses tab: the Bible verses that match the question, beside the library's chunks.

A list of verses (rank, reference, score, text) over the selected verse's "why this rank" — each signal
that counts, where it came from (the commentary note, the Strong's word, the neighbouring verse), the sum
and the score. Enter or a double-click opens the verse in the reader (:attr:`VersesView.verseOpened`);
Ctrl+C copies the selected verse with its reference and translation ("— John 3:16 (WEB)"). The states
(nothing asked, searching, no verse vectors, nothing found) are sentences from ``present/verses.py``.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeyEvent, QKeySequence, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSplitter,
    QStackedWidget,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..core.references import PassageRef
from ..present import verses as words
from ..session.verses import VerseView
from ..states import AskFailure
from ..verses import VerseHit
from .theme import muted_text, scaled_font, serif_font


class VersesView(QWidget):
    """Renders the session's :class:`~amicus_desktop.session.VerseView` (or its failure)."""

    #: open this verse (or these adjacent verses) in the reader
    verseOpened = Signal(object)  # PassageRef
    #: a status-bar sentence (what was copied)
    message = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._view: VerseView | None = None
        self.title = QLabel()
        self.title.setFont(scaled_font(self.font(), 1.0, bold=True))
        self.title.setWordWrap(True)
        self.list = QTreeWidget()
        self.list.setAccessibleName("Matching verses")
        self.list.setHeaderLabels(["#", "Verse", "Score", "Text"])
        self.list.setRootIsDecorated(False)
        self.list.setUniformRowHeights(True)
        self.list.setAlternatingRowColors(True)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.list.header()
        for column, mode in enumerate((QHeaderView.ResizeMode.ResizeToContents,) * 3):
            header.setSectionResizeMode(column, mode)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        header.setStretchLastSection(True)
        self.why = QTextBrowser()
        self.why.setAccessibleName("Why this verse ranks here")
        self.why.setOpenLinks(False)
        self.state = QLabel(words.EMPTY)
        self.state.setWordWrap(True)
        self.state.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.state.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.state.setMargin(30)
        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.setObjectName("versesSplit")
        self.split.addWidget(self.list)
        self.split.addWidget(self.why)
        self.split.setStretchFactor(0, 3)
        self.split.setStretchFactor(1, 2)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.state)
        self.stack.addWidget(self.split)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 6, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(self.title)
        layout.addWidget(self.stack, 1)
        self.title.hide()
        self.list.currentItemChanged.connect(lambda item, _old: self._explain(item))
        self.list.itemActivated.connect(lambda item, _column: self._open(item))
        self.list.installEventFilter(self)

    # -- rendering -----------------------------------------------------------------------------
    def show_busy(self, busy: bool) -> None:
        if busy and self._view is None:
            self._show_state(words.BUSY)

    def show_view(self, view: VerseView | None) -> None:
        self._view = view
        self.list.clear()
        if view is None:
            self.title.hide()
            self._show_state(words.EMPTY)
            return
        result = view.result
        self.title.setText(words.title(result))
        self.title.show()
        if not result.results:
            self._show_state(words.NONE_FOUND)
            return
        for hit in result.results:
            item = QTreeWidgetItem([str(hit.rank), hit.reference, f"{hit.score:.3f}", hit.text])
            item.setData(0, Qt.ItemDataRole.UserRole, hit.rank - 1)
            item.setToolTip(3, hit.text)
            item.setFont(3, serif_font(self.font().pointSizeF()))
            self.list.addTopLevelItem(item)
        self.stack.setCurrentWidget(self.split)
        first = self.list.topLevelItem(0)
        if first is not None:
            self.list.setCurrentItem(first)

    def show_failure(self, failure: AskFailure) -> None:
        self._view = None
        self.list.clear()
        self.title.hide()
        self._show_state(words.failure_text(failure))

    def _show_state(self, text: str) -> None:
        self.state.setText(text)
        self.stack.setCurrentWidget(self.state)

    # -- the selected verse ----------------------------------------------------------------------
    def selected_hit(self) -> VerseHit | None:
        item = self.list.currentItem()
        if item is None or self._view is None:
            return None
        return self._view.result.results[int(item.data(0, Qt.ItemDataRole.UserRole))]

    def _explain(self, item: QTreeWidgetItem | None) -> None:
        hit = self.selected_hit() if item is not None else None
        if hit is None or self._view is None:
            self.why.clear()
            return
        result = self._view.result
        muted = muted_text(self.palette()).name()
        lines = words.why(hit.breakdown, result.trace.weights.to_json())
        reference = words.hit_reference(hit, result.translation_abbreviation)
        self.why.setHtml(
            f"<p style='font-weight:600; margin-bottom:2px'>{html.escape(reference)}"
            f" <span style='color:{muted}; font-weight:normal'>— {html.escape(words.OPEN_HINT)}</span></p>"
            f"<p style='line-height:140%'>{html.escape(hit.text)}</p>"
            + "".join(f"<div style='margin-left:8px'>{html.escape(line)}</div>" for line in lines)
        )

    def _open(self, item: QTreeWidgetItem | None) -> None:
        hit = self.selected_hit() if item is not None else None
        if hit is not None:
            self.verseOpened.emit(PassageRef(hit.book_id, hit.chapter_num, hit.verse_start, hit.verse_end))

    def copy_selected(self) -> bool:
        """Copy the selected verse(s) with reference and translation; ``False`` when none is selected."""
        hit = self.selected_hit()
        if hit is None or self._view is None:
            return False
        abbreviation = self._view.result.translation_abbreviation
        QGuiApplication.clipboard().setText(
            words.copied(hit.reference, abbreviation, [(v, t) for v, t, _s in hit.verses]))
        self.message.emit(words.copied_status(hit.reference, abbreviation))
        return True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.list and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            if event.matches(QKeySequence.StandardKey.Copy):
                return self.copy_selected()
        return super().eventFilter(watched, event)

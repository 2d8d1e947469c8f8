"""The cross-references of the selected verse: a list, best first, each with its sources; a filter by source.

One click (or Enter) opens a cross-reference in the reader (:attr:`XrefsPane.passageRequested`);
:meth:`XrefsPane.step` opens the next or previous one (F8 / Shift+F8 in the window). Each row says where
the cross-reference comes from — Henry, Scofield's note or chain, Nave's topic — and one found by
meaning alone is marked "similar in meaning", not as a citation. Fed by :class:`~.control.StudyControl`
with :class:`~amicus_desktop.study.CrossReferences` (read off the UI thread).
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from ...core.names import DEFAULT_NAMES, NamesSource
from ...core.references import PassageRef
from ...study import CrossReference, CrossReferences, XrefSource
from ..theme import muted_text

ALL_SOURCES = ""
REF_ROLE = Qt.ItemDataRole.UserRole + 1


def source_words(item: CrossReference) -> str:
    """``"Nave's topic · Scofield's chain"``, or ``"similar in meaning (0.83)"`` for one found by meaning alone."""
    if item.sources == (XrefSource.MEANING,):
        return f"similar in meaning — {item.evidence[0].detail}"
    return " · ".join(s.label for s in item.sources)


class XrefsPane(QWidget):
    passageRequested = Signal(object)  # PassageRef
    #: the source filter changed (``""``: all)
    filterChanged = Signal(str)

    def __init__(self, parent: QWidget | None = None, names: NamesSource = lambda: DEFAULT_NAMES) -> None:
        super().__init__(parent)
        self._names = names  # the open library's: "Song of Solomon 2:1", not the id read as words
        self.result: CrossReferences | None = None
        self._opened = -1  # the row last opened (F8 goes on from there)
        self.title = QLabel("Cross-references")
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        font = self.title.font()
        font.setBold(True)
        self.title.setFont(font)
        self.source = QComboBox()
        self.source.setAccessibleName("Cross-reference source")
        self.source.addItem("All sources", ALL_SOURCES)
        for s in XrefSource:
            self.source.addItem(s.label, s.value)
        self.source.currentIndexChanged.connect(lambda _i: self._refill())
        self.notice = QLabel()
        self.notice.setWordWrap(True)
        self.notice.hide()
        self.list = QListWidget()
        self.list.setAccessibleName("Cross-references")
        self.list.setWordWrap(True)
        self.list.setAlternatingRowColors(True)
        self.list.itemActivated.connect(self._open)
        self.list.itemClicked.connect(self._open)

        self.title.setWordWrap(True)  # a narrow dock wraps the verse's name rather than widen the window
        self.source.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.source.setMinimumContentsLength(8)
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        head.addWidget(self.source)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(head)
        layout.addWidget(self.notice)
        layout.addWidget(self.list, 1)
        self.show_message("Choose a verse in the reader: right-click it and pick Cross-references.")

    @property
    def wanted(self) -> XrefSource | None:
        value = self.source.currentData()
        return XrefSource(value) if value else None

    def show_message(self, text: str) -> None:
        self.result = None
        self.list.clear()
        self.notice.setText(text)
        self.notice.show()

    def show_loading(self, verse: PassageRef) -> None:
        self.title.setText(f"Cross-references of {self._names().passage(verse)}")
        self.show_message("Reading the library's notes… (once per library: up to a minute or two for the whole "
                          "Bible; a book added later takes a second)")

    def show_result(self, result: CrossReferences) -> None:
        self.result = result
        self.title.setText(f"Cross-references of {self._names().passage(result.verse)}")
        self._refill()

    def items(self) -> list[CrossReference]:
        """The cross-references the filter lets through, in the list's order."""
        if self.result is None:
            return []
        wanted = self.wanted
        return [x for x in self.result.items if wanted is None or wanted in x.sources]

    def _refill(self) -> None:
        self._opened = -1
        self.list.clear()
        result = self.result
        if result is None:
            return
        shown = self.items()
        muted = muted_text(self.palette()).name()
        for x in shown:
            item = QListWidgetItem()
            item.setData(REF_ROLE, x.ref)
            item.setText(f"{self._names().passage(x.ref)}  —  {source_words(x)}\n{x.text[:220]}")
            tip = "".join(f"<div><b>{html.escape(e.source.label)}</b>: {html.escape(e.detail)}</div>"
                          for e in x.evidence)
            item.setToolTip(f"<div style='color:{muted}'>score {x.score:.2f}</div>{tip}")
            self.list.addItem(item)
        empty = not shown
        words = result.notice
        if empty:
            which = f" from {self.wanted.label}" if self.wanted else ""
            words = (f"No cross-references{which} for {self._names().passage(result.verse)}. " + words).strip()
        self.notice.setText(words)
        self.notice.setVisible(bool(words))
        if shown:
            self.list.setCurrentRow(0)
        self.filterChanged.emit(self.source.currentData() or "")

    def _open(self, item: QListWidgetItem) -> None:
        self._opened = self.list.row(item)
        ref = item.data(REF_ROLE)
        if isinstance(ref, PassageRef):
            self.passageRequested.emit(ref)

    def step(self, delta: int) -> PassageRef | None:
        """Select and open the next (``delta`` 1) or previous (-1) cross-reference, wrapping round."""
        count = self.list.count()
        if not count:
            return None
        row = (self._opened + delta) % count if self._opened >= 0 else (0 if delta > 0 else count - 1)
        self.list.setCurrentRow(row)
        item = self.list.item(row)
        self._open(item)
        ref = item.data(REF_ROLE)
        return ref if isinstance(ref, PassageRef) else None

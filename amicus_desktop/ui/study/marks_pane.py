"""The reader's bookmarks and highlights in the current workspace: listed, searched (labels, passage, kind),
filtered by label, opened (:attr:`MarksPane.passageRequested`), relabelled or removed. Fed by
:class:`~.control.StudyControl`, which reads and writes the notes store off the UI thread."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ...core.names import DEFAULT_NAMES, NamesSource
from ...notes.marks import Mark, MarkKind

#: a highlight colour's shade (light enough for black text, dark enough to see on white)
SHADES = {"yellow": "#f7e27a", "green": "#a8dca0", "blue": "#a6c8ef", "pink": "#f2b2cf", "orange": "#f6c08a"}
ALL_LABELS = ""
MARK_ROLE = Qt.ItemDataRole.UserRole + 2


def swatch(colour: str | None) -> QIcon:
    pix = QPixmap(14, 14)
    pix.fill(QColor(SHADES.get(colour or "", "#00000000")))
    return QIcon(pix)


class MarksPane(QWidget):
    passageRequested = Signal(object)  # PassageRef
    removeRequested = Signal(str)  # mark id
    labelRequested = Signal(str)  # mark id: edit its labels

    def __init__(self, parent: QWidget | None = None, names: NamesSource = lambda: DEFAULT_NAMES) -> None:
        super().__init__(parent)
        self._names = names  # the open library's: "Song of Solomon 2:1", not the id read as words
        self.marks: list[Mark] = []
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search labels and passages")
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName("Search bookmarks")
        self.search.textChanged.connect(lambda _t: self._refill())
        self.label = QComboBox()
        self.label.setAccessibleName("Label")
        self.label.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.label.setMinimumContentsLength(8)  # a long label elides rather than widen the dock
        self.label.currentIndexChanged.connect(lambda _i: self._refill())
        self.list = QListWidget()
        self.list.setAccessibleName("Bookmarks and highlights")
        self.list.itemActivated.connect(self._open)
        self.list.itemClicked.connect(self._open)
        self.count = QLabel()
        self.count.setWordWrap(True)  # the empty state's sentence wraps rather than widen the dock
        self.relabel = QPushButton("Labels…")
        self.relabel.clicked.connect(lambda: self._with_current(self.labelRequested.emit))
        self.remove = QPushButton("Remove")
        self.remove.clicked.connect(lambda: self._with_current(self.removeRequested.emit))
        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.label)
        bottom = QHBoxLayout()
        bottom.addStretch(1)
        bottom.addWidget(self.relabel)
        bottom.addWidget(self.remove)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(top)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.count)  # a line of its own: the dock stays narrow enough for a 1000-px window
        layout.addLayout(bottom)
        self.set_marks([])

    def set_marks(self, marks: list[Mark]) -> None:
        self.marks = list(marks)
        chosen = self.label.currentData() or ALL_LABELS
        labels: dict[str, str] = {}
        for m in self.marks:
            for x in m.labels:
                labels.setdefault(x.casefold(), x)
        self.label.blockSignals(True)
        self.label.clear()
        self.label.addItem("Every label", ALL_LABELS)
        for x in sorted(labels.values(), key=str.casefold):
            self.label.addItem(x, x)
        self.label.setCurrentIndex(max(self.label.findData(chosen), 0))
        self.label.blockSignals(False)
        self._refill()

    def shown(self) -> list[Mark]:
        needle = " ".join(self.search.text().split()).casefold()
        label = (self.label.currentData() or "").casefold()
        out = []
        for m in self.marks:
            if label and label not in {x.casefold() for x in m.labels}:
                continue
            haystack = " ".join((*m.labels, self._names().passage(m.ref), m.kind.value, m.colour or "")).casefold()
            if needle and needle not in haystack:
                continue
            out.append(m)
        return out

    def _refill(self) -> None:
        self.list.clear()
        shown = self.shown()
        for m in shown:
            glyph = "⚑ " if m.kind is MarkKind.BOOKMARK else ""
            labels = f"  —  {', '.join(m.labels)}" if m.labels else ""
            item = QListWidgetItem(f"{glyph}{self._names().passage(m.ref)}{labels}")
            if m.kind is MarkKind.HIGHLIGHT:
                item.setIcon(swatch(m.colour))
            item.setData(MARK_ROLE, m)
            self.list.addItem(item)
        total = len(self.marks)
        self.count.setText(f"{len(shown)} of {total}" if len(shown) != total else
                           f"{total} bookmark{'s' * (total != 1)} and highlight{'s' * (total != 1)}" if total else
                           "No bookmarks or highlights yet: right-click a verse in the reader.")
        self.relabel.setEnabled(bool(shown))
        self.remove.setEnabled(bool(shown))

    def _with_current(self, emit: object) -> None:
        item = self.list.currentItem() or (self.list.item(0) if self.list.count() else None)
        mark = item.data(MARK_ROLE) if item is not None else None
        if isinstance(mark, Mark) and callable(emit):
            emit(mark.id)

    def _open(self, item: QListWidgetItem) -> None:
        mark = item.data(MARK_ROLE)
        if isinstance(mark, Mark):
            self.passageRequested.emit(mark.ref)

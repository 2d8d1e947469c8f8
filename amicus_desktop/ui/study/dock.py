"""The Study dock: the cross-references, the Strong's panel and the bookmarks, one tab each (on the right,
hidden until a study aid is asked for; its place and size kept with the window's state).

Beside the text, the dock's room comes from the question and results column first, then from the dock itself,
never by forcing the window wider (:class:`TextRoom`): in a 1000-px window the text keeps a reading width.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtWidgets import QTabWidget, QVBoxLayout, QWidget

from ...core.names import DEFAULT_NAMES, NamesSource
from ..docks.dock import Dock
from .marks_pane import MarksPane
from .strongs_panel import StrongsPanel
from .xrefs_pane import XrefsPane

if TYPE_CHECKING:
    from ..main_window import MainWindow

#: the dock's width when it opens (in a wide window; a quarter of a narrow one, at least MIN_WIDTH)
WIDTH = 420
#: the narrowest the dock gets: beside the text and the results in a 1000-px window (tests/ui/test_study_dock.py)
MIN_WIDTH = 220
#: the text's width the dock makes room for, taking it from the results column, then from its own width
TEXT_BESIDE = 360


class StudyPanel(QWidget):
    """The three panes in tabs."""

    def __init__(self, parent: QWidget | None = None, names: NamesSource = lambda: DEFAULT_NAMES) -> None:
        super().__init__(parent)
        self.xrefs = XrefsPane(names=names)
        self.strongs = StrongsPanel(names=names)
        self.marks = MarksPane(names=names)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.xrefs, "Cross-references")
        self.tabs.addTab(self.strongs, "Strong's")
        self.tabs.addTab(self.marks, "Bookmarks")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tabs)

    def sizeHint(self) -> QSize:
        return QSize(WIDTH, 480)

    def show_tab(self, pane: QWidget) -> None:
        self.tabs.setCurrentWidget(pane)


class StudyDock(Dock[StudyPanel]):
    """The :class:`StudyPanel` in a dock, made when a study aid is first asked for; ``made(panel)`` connects it."""

    def __init__(self, window: MainWindow, made: Callable[[StudyPanel], None]) -> None:
        self._made = made
        self._library = window.session.library
        super().__init__("Study", "study_dock", window, Qt.DockWidgetArea.RightDockWidgetArea)
        self.setMinimumWidth(MIN_WIDTH)

    def create_widget(self) -> StudyPanel:
        library = self._library
        return StudyPanel(names=lambda: library.names)

    def widget_created(self, panel: StudyPanel) -> None:
        self._made(panel)


class TextRoom(QObject):
    """The text's room beside the open dock: when the dock opens, and whenever the window is resized while it is
    open, the text gets back up to a reading width — from the question and results column down to its minimum,
    then from the dock down to :data:`MIN_WIDTH` — without ever raising a minimum (the window is never forced
    wider: with results on screen the column's minimum is larger, and the text takes what is left)."""

    def __init__(self, window: MainWindow, dock: StudyDock) -> None:
        super().__init__(dock)
        self._w, self._dock = window, dock
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._w and event.type() == QEvent.Type.Resize and self._dock.isVisible():
            QTimer.singleShot(0, self, lambda: self.fit(TEXT_BESIDE))
        return False

    def opened(self, text_before: int) -> None:
        """The dock was just shown: at a quarter of a narrow window (``WIDTH`` in a wide one), the text keeping
        its width before (``text_before``) or a reading width, whichever is more, as far as there is room."""
        def fit() -> None:
            width = min(WIDTH, max(MIN_WIDTH, self._w.width() // 4))
            self._w.resizeDocks([self._dock], [width], Qt.Orientation.Horizontal)
            self.fit(max(text_before, TEXT_BESIDE))

        QTimer.singleShot(0, self, fit)

    def fit(self, target: int) -> None:
        """Give the text up to ``target`` px: from the results column, then from the dock."""
        w, split = self._w, self._w.main_split
        self._settle()
        text, right = split.sizes()
        right_min = w.right.minimumSizeHint().width() if w.right.isVisible() else 0
        short = target - text - max(0, right - right_min)
        if short > 0 and self._dock.width() > MIN_WIDTH:
            w.resizeDocks([self._dock], [max(MIN_WIDTH, self._dock.width() - short)], Qt.Orientation.Horizontal)
            self._settle()
        total = sum(split.sizes())
        keep = min(target, total - right_min)
        if keep > split.sizes()[0]:
            split.setSizes([keep, total - keep])
        w.reader.keep_current_in_view()

    def _settle(self) -> None:
        layout = self._w.layout()
        if layout is not None:
            layout.activate()  # the central widget takes its new width now, not a pass later

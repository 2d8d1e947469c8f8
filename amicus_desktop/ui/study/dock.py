"""The Study dock: the cross-references, the Strong's panel and the bookmarks, one tab each (on the right,
hidden until a study aid is asked for; its place and size kept with the window's state)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QTabWidget, QVBoxLayout, QWidget

from ..docks.dock import Dock
from .marks_pane import MarksPane
from .strongs_panel import StrongsPanel
from .xrefs_pane import XrefsPane

if TYPE_CHECKING:
    from ..main_window import MainWindow

#: the dock's width when it opens (in a wide window; a quarter of a narrow one, at least MIN_WIDTH)
WIDTH = 420
#: the narrowest the dock gets: beside the text and the results in a 1000-px window (tests/ui/test_study_ui.py)
MIN_WIDTH = 220
#: the text's narrowest while the dock is open: a narrowed window takes the dock's and the results' room first
TEXT_BESIDE = 360


class StudyPanel(QWidget):
    """The three panes in tabs."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.xrefs = XrefsPane()
        self.strongs = StrongsPanel()
        self.marks = MarksPane()
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
        super().__init__("Study", "study_dock", window, Qt.DockWidgetArea.RightDockWidgetArea)
        self.setMinimumWidth(MIN_WIDTH)

    def create_widget(self) -> StudyPanel:
        return StudyPanel()

    def widget_created(self, panel: StudyPanel) -> None:
        self._made(panel)

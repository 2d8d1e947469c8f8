"""The curator workbench dock (Ctrl+Shift+W) and the golden-set dialogs that open it (File ▸ New
golden set…, Open golden set…). In a narrow window the reader steps aside while it is open."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QFileDialog, QInputDialog

from ... import paths, resources
from ...session.workbench import Workbench
from ..workbench import WorkbenchPanel
from .dock import Dock

if TYPE_CHECKING:
    from ..main_window import MainWindow

#: The dock's width when it opens.
WIDTH = 560


class WorkbenchDock(Dock[WorkbenchPanel]):
    """The :class:`~..workbench.WorkbenchPanel` over ``workbench`` in a dock."""

    def __init__(self, window: MainWindow, workbench: Workbench) -> None:
        self._window = window
        self.workbench = workbench
        # Made at once (not lazy): its tabs' mnemonics (Alt+S: Snapshots) must be registered before
        # the menu bar's (Alt+S: Search), and its controls keep their place in the Tab order.
        super().__init__("Curator workbench", "workbenchDock", window, lazy=False)
        self.visibilityChanged.connect(self._visibility)

    def create_widget(self) -> WorkbenchPanel:
        return WorkbenchPanel(self.workbench)

    def toggle(self) -> None:
        """Show the curator workbench with the focus on its ranking, or hide it."""
        if self.isVisible():
            self.setVisible(False)
            return
        window = self._window
        # In a narrow window (1000 px) the reader and the workbench cannot both fit beside the results:
        # the reader steps aside while the workbench is open (a curator works on the ranking) and
        # comes back when it closes. The window never grows past the screen.
        needed = window.main_split.minimumSizeHint().width() + self.panel.minimumSizeHint().width() + 24
        width = window.width()
        window.left_split.setVisible(width >= needed)
        self.setVisible(True)
        window.resizeDocks([self], [WIDTH], Qt.Orientation.Horizontal)
        if window.left_split.isHidden():  # showing the dock grew the window before the layout caught up
            QTimer.singleShot(50, self, lambda: self._shrink_to(width))
        self.panel.focus_ranking()
        QTimer.singleShot(0, self, self.panel.focus_ranking)  # once the re-shown dock can take it

    def _shrink_to(self, width: int) -> None:
        window = self._window
        layout = window.layout()
        if layout is not None:
            layout.activate()  # the minimum without the reader
        window.resize(width, window.height())

    def _visibility(self, visible: bool) -> None:
        if not visible:
            self._window.left_split.setVisible(True)

    # -- golden sets -------------------------------------------------------------------------
    def new_golden_set(self, name: str | None = None) -> None:
        if name is None:
            name, ok = QInputDialog.getText(self._window, "New golden set", "Name of the golden set:")
            if not ok:
                return
        if self.workbench.new_golden(name) is not None and not self.isVisible():
            self.toggle()

    def open_golden_set(self, path: str | None = None) -> None:
        if path is None:
            folder = paths.golden_dir()  # the curator's own sets; until there are some, the shipped one's folder
            start = folder if folder.is_dir() else resources.resource_path("golden")
            path, _ = QFileDialog.getOpenFileName(self._window, "Open a golden set", str(start),
                                                  "Golden sets (*.json);;All files (*)")
            if not path:
                return
        self.workbench.open_golden(path)
        if not self.isVisible():
            self.toggle()

    def detach(self) -> None:
        """The window is closing: the panel stops listening and the workbench's work under way stops."""
        if self.created:
            self.panel.detach()
        self.workbench.close()

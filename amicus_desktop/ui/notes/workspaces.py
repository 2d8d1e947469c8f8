"""Choosing the workspace: the switcher in the status bar and the *Workspace* menu.

The switcher is a combo box ("Workspace: Personal"): choosing another item switches at once, and
Ctrl+Alt+W opens it from anywhere. The menu lists the workspaces (the current one checked), and makes a
new one or renames the current one (a name; the id its notes are kept under follows from the first name
and never changes — it is shown, for ``amicus-desktop notes … --workspace ID``).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QComboBox, QInputDialog, QMenu, QMessageBox, QWidget

from ...session.workspaces import WorkspaceInfo, Workspaces


class WorkspaceSwitcher(QComboBox):
    """The workspaces by name, the current one shown; ``switch(id)`` is called when another is chosen."""

    def __init__(self, switch: Callable[[str], object], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._switch = switch
        self.setAccessibleName("Workspace")
        self.setToolTip("The workspace: its notes, pins, profile and overlay (Ctrl+Alt+W)")
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.activated.connect(self._chosen)

    def show_workspaces(self, workspaces: Workspaces) -> None:
        self.blockSignals(True)
        self.clear()
        for w in workspaces.all:
            self.addItem(f"Workspace: {w.name}", w.id)
            self.setItemData(self.count() - 1, f"Notes kept as workspace “{w.id}”", Qt.ItemDataRole.ToolTipRole)
        self.setCurrentIndex(self.findData(workspaces.current_id))
        self.setAccessibleDescription(workspaces.current.name)
        self.setMinimumWidth(self.sizeHint().width())  # the status bar squeezes it last: the name stays whole
        self.blockSignals(False)

    def open(self) -> None:
        self.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.showPopup()

    def _chosen(self, index: int) -> None:
        workspace_id = self.itemData(index)
        if isinstance(workspace_id, str):
            self._switch(workspace_id)


class WorkspaceMenu:
    """The *Workspace* menu of ``parent``: the workspaces (one checked), *New workspace…*, *Rename…*."""

    def __init__(self, menu: QMenu, workspaces: Workspaces, switch: Callable[[str], object],
                 parent: QWidget) -> None:
        self.menu = menu
        self._workspaces = workspaces
        self._switch = switch
        self._parent = parent
        self.new_action = QAction("&New workspace…", parent)
        # (not the method itself: ``triggered`` would hand it ``checked`` as the name)
        self.new_action.triggered.connect(lambda: self.new_workspace())
        self.rename_action = QAction("&Rename this workspace…", parent)
        self.rename_action.triggered.connect(self.rename_workspace)
        menu.aboutToShow.connect(self.fill)
        self.fill()

    def fill(self) -> None:
        self.menu.clear()
        group = QActionGroup(self.menu)
        for w in self._workspaces.all:
            action = self.menu.addAction(w.name)
            action.setCheckable(True)
            action.setChecked(w.id == self._workspaces.current_id)
            action.setToolTip(f"Notes kept as workspace “{w.id}”")
            group.addAction(action)
            action.triggered.connect(lambda _c=False, wid=w.id: self._switch(wid))
        self.menu.addSeparator()
        self.menu.addAction(self.new_action)
        self.menu.addAction(self.rename_action)

    def new_workspace(self, name: str | None = None) -> WorkspaceInfo | None:
        """Ask for a name (unless given), make the workspace and switch to it."""
        if name is None:
            name, ok = QInputDialog.getText(self._parent, "New workspace",
                                            "Name of the new workspace (its own notes, pins, profile and overlay):")
            if not ok:
                return None
        try:
            info = self._workspaces.create(name)
        except ValueError as err:
            QMessageBox.warning(self._parent, "New workspace", str(err))
            return None
        self._switch(info.id)
        return info

    def rename_workspace(self) -> None:
        current = self._workspaces.current
        name, ok = QInputDialog.getText(self._parent, "Rename workspace",
                                        f"New name (its notes stay under “{current.id}”):", text=current.name)
        if ok:
            try:
                self._workspaces.rename(current.id, name)
            except ValueError as err:
                QMessageBox.warning(self._parent, "Rename workspace", str(err))

"""A dock whose widget is made when first needed: shown, or asked for through :attr:`Dock.panel`."""

from __future__ import annotations

from typing import Generic, TypeVar

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

W = TypeVar("W", bound=QWidget)


class Dock(QDockWidget, Generic[W]):
    """A hidden dock on ``window``'s ``area``, called ``name`` (the key of its place in the saved
    window state). Subclasses make the widget in :meth:`create_widget`; until it is first shown or
    asked for the dock is empty and costs nothing — unless ``lazy`` is false.

    A widget made late joins the end of the window's Tab order, and registers its mnemonics after
    the menu bar's (Qt gives an ambiguous shortcut to the first registered): a dock whose place in
    either matters makes its widget at once.
    """

    def __init__(self, title: str, name: str, window: QMainWindow,
                 area: Qt.DockWidgetArea = Qt.DockWidgetArea.RightDockWidgetArea, *, lazy: bool = True) -> None:
        super().__init__(title, window)
        self.setObjectName(name)
        self._panel: W | None = None
        window.addDockWidget(area, self)
        self.hide()
        self.visibilityChanged.connect(self._made_visible)
        if not lazy:
            _ = self.panel

    @property
    def created(self) -> bool:
        """Whether the widget has been made."""
        return self._panel is not None

    @property
    def panel(self) -> W:
        """The dock's widget, made now if it has not been yet."""
        if self._panel is None:
            self._panel = self.create_widget()
            self.setWidget(self._panel)
        return self._panel

    def create_widget(self) -> W:
        raise NotImplementedError

    def _made_visible(self, visible: bool) -> None:
        if visible and self._panel is None:
            _ = self.panel

"""A dock whose widget is made when first needed: shown, or asked for through :attr:`Dock.panel`."""

from __future__ import annotations

from typing import Generic, TypeVar

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMenuBar, QWidget

W = TypeVar("W", bound=QWidget)


class Dock(QDockWidget, Generic[W]):
    """A hidden dock on ``window``'s ``area``, called ``name`` (the key of its place in the saved
    window state). Subclasses make the widget in :meth:`create_widget` and connect it in
    :meth:`widget_created`; until it is first shown or asked for the dock is empty and costs nothing —
    unless ``lazy`` is false.

    A widget made late would join the end of the window's Tab order and register its mnemonics after
    the menu bar's (Qt gives an ambiguous shortcut to the first registered). So it is moved into the
    dock's own place in the Tab order (:func:`place_in_tab_order`: where a widget made at once would
    be) and the menu bar's mnemonics are registered again after its own (:func:`regrab_menu_mnemonics`).
    """

    def __init__(self, title: str, name: str, window: QMainWindow,
                 area: Qt.DockWidgetArea = Qt.DockWidgetArea.RightDockWidgetArea, *, lazy: bool = True) -> None:
        super().__init__(title, window)
        self.setObjectName(name)
        self._panel: W | None = None
        self._window_of = window
        window.addDockWidget(area, self)
        self.hide()
        self.visibilityChanged.connect(self._made_visible)
        self._late = False
        if not lazy:
            _ = self.panel
        self._late = True

    @property
    def created(self) -> bool:
        """Whether the widget has been made."""
        return self._panel is not None

    @property
    def panel(self) -> W:
        """The dock's widget, made now if it has not been yet."""
        if self._panel is None:
            self._panel = panel = self.create_widget()
            self.setWidget(panel)
            if self._late:
                place_in_tab_order(self, panel)
                regrab_menu_mnemonics(self._window_of)
            self.widget_created(panel)
        return self._panel

    def create_widget(self) -> W:
        raise NotImplementedError

    def widget_created(self, panel: W) -> None:
        """Called once, when the widget has been made and placed: connect it here."""

    @Slot(bool)  # declared, not added to the class at connect time: PySide6 6.11 once failed to find that
    def _made_visible(self, visible: bool) -> None:  # dynamic slot at emission ("Slot 'LabelDock::' not found")
        if visible and self._panel is None:
            _ = self.panel


def _tabbable(widget: QWidget) -> bool:
    return bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus) and widget.focusProxy() is None


def focus_chain(window: QWidget) -> list[QWidget]:
    """Every widget of ``window``'s focus chain, in order (the window itself not included)."""
    chain: list[QWidget] = []
    widget = window.nextInFocusChain()
    while widget is not None and widget is not window and len(chain) < 100_000:
        chain.append(widget)
        widget = widget.nextInFocusChain()
    return chain


def place_in_tab_order(dock: QWidget, panel: QWidget) -> None:
    """Move ``panel``'s controls (which Qt put at the end of the window's focus chain when it was made) to
    follow the last control before ``dock`` in the chain: where they are when the panel is made with the dock."""
    chain = focus_chain(dock.window())
    mine = [w for w in chain if w is panel or panel.isAncestorOf(w)]
    inside = set(mine)
    previous: QWidget | None = None
    for widget in chain:
        if widget is dock:
            break
        if widget not in inside and _tabbable(widget):
            previous = widget
    for widget in (w for w in mine if _tabbable(w)):
        if previous is not None:
            QWidget.setTabOrder(previous, widget)
        previous = widget


def regrab_menu_mnemonics(window: QMainWindow) -> None:
    """Register the menu bar's mnemonics again (its titles set anew), after those of a widget just made, so
    a shortcut both claim (Alt+S: the workbench's *Snapshots* tab, the *Search* menu) goes where it went when
    the widget was made before the menu bar: to the widget while it shows."""
    bar = window.menuWidget()
    if not isinstance(bar, QMenuBar):
        return
    for action in bar.actions():
        text = action.text()
        if "&" in text:
            action.setText("")
            action.setText(text)

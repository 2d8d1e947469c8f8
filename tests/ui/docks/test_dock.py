"""The dock base (``ui/docks/dock.py``): a lazy dock makes its widget the first time it is shown or
asked for, once; an eager one at once. Real widgets, offscreen."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QLabel, QMainWindow

from amicus_desktop.ui.docks import Dock

from ..conftest import wait_for


class LabelDock(Dock[QLabel]):
    def __init__(self, window: QMainWindow, *, lazy: bool = True) -> None:
        self.made = 0
        super().__init__("Tool", "toolDock", window, lazy=lazy)

    def create_widget(self) -> QLabel:
        self.made += 1
        return QLabel("made")


def test_a_lazy_dock_makes_its_widget_when_first_shown_and_only_once(qtbot: Any) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    dock = LabelDock(window)
    window.show()
    assert dock.objectName() == "toolDock" and dock.isHidden()
    assert not dock.created and dock.widget() is None and dock.made == 0
    dock.show()
    wait_for(qtbot, lambda: dock.created)
    assert dock.widget() is dock.panel and dock.panel.text() == "made"
    dock.hide()
    dock.show()
    assert dock.made == 1


def test_asking_for_the_panel_makes_it_and_an_eager_dock_makes_it_at_once(qtbot: Any) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    lazy, eager = LabelDock(window), LabelDock(window, lazy=False)
    assert eager.created and eager.widget() is eager.panel and eager.isHidden()
    assert not lazy.created
    assert lazy.panel is lazy.widget() and lazy.made == 1 and lazy.isHidden()  # made, still hidden


def test_a_tabified_lazy_dock_is_made_when_its_tab_is_raised(qtbot: Any) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    first, second = LabelDock(window), LabelDock(window)
    window.tabifyDockWidget(first, second)
    first.show()
    second.show()
    first.raise_()
    window.show()
    wait_for(qtbot, lambda: first.created)
    assert not second.created  # behind the other's tab: not shown, not made
    second.raise_()
    wait_for(qtbot, lambda: second.created)
    assert second.widget() is second.panel and (first.made, second.made) == (1, 1)

"""The results pane's splitters: :class:`ResultsSplitter`, where the results never move for something
inside the window, and :func:`splitter`, the two-pane splitter both use."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QSplitter, QWidget


class ResultsSplitter(QSplitter):
    """The results over the detail panes, where the results never move for something inside the window.

    When the splitter's height changes while the window's does not (a banner under the results
    pane appeared or went), the results keep their height and the detail panes below, which
    scroll, take the whole change. A change of the window's own height is shared out by the
    stretch factors, as in any splitter.
    """

    def __init__(self, orientation: Qt.Orientation, parent: QWidget | None = None) -> None:
        super().__init__(orientation, parent)
        self._window_height: int | None = None

    def resizeEvent(self, event: QResizeEvent) -> None:
        top, bottom = self.widget(0), self.widget(1)
        first = self.sizes()[0] if self.count() else 0  # before the splitter shares the change out
        window = self.window().height()
        inside = (self._window_height == window and event.oldSize().height() > 0
                  and event.size().height() != event.oldSize().height())
        self._window_height = window
        super().resizeEvent(event)
        if inside and top is not None and bottom is not None and bottom.isVisibleTo(self):
            total = sum(self.sizes())
            keep = max(top.minimumSizeHint().height(), min(first, total - bottom.minimumSizeHint().height()))
            if keep != self.sizes()[0]:
                self.setSizes([keep, total - keep])


def splitter(orientation: Qt.Orientation, name: str, first: QWidget, second: QWidget, *,
             stretch: tuple[int, int], sizes: list[int], kind: type[QSplitter] = QSplitter) -> QSplitter:
    """``first`` and ``second`` in a splitter called ``name`` (its state is saved under that name)."""
    split = kind(orientation)
    split.setObjectName(name)
    split.addWidget(first)
    split.addWidget(second)
    split.setStretchFactor(0, stretch[0])
    split.setStretchFactor(1, stretch[1])
    split.setChildrenCollapsible(False)
    split.setSizes(sizes)
    return split

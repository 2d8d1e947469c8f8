"""The study drawer under the reader: the commentary, the reader's notes and (from ``ui/study/``) further
study panes, one at a time, opened on demand so that the Bible text keeps the room.

Closed, it is one row of tabs under the text ("Commentary (15)", "My notes (2)"); a click on a tab (or its
key: Ctrl+Shift+N for the commentary, Ctrl+5 for the notes) opens that pane under the text, a click on the
open pane's tab closes it again. The height the reader gives it is kept (:attr:`StudyDrawer.open_height`, saved
with the window's layout). Another pane joins with :meth:`StudyDrawer.add_pane`.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QSizePolicy, QStackedWidget, QTabBar, QVBoxLayout, QWidget

#: the drawer's share of the reader's column when it first opens, until the reader drags it
DEFAULT_SHARE = 0.4
_OPEN_MAX = 16777215


class StudyDrawer(QWidget):
    """A tab row and, when open, the chosen pane under it. :attr:`openChanged` says whether it is open."""

    openChanged = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("studyDrawer")
        self.tabs = QTabBar()
        self.tabs.setAccessibleName("Study panes")
        self.tabs.setDocumentMode(True)
        self.tabs.setExpanding(False)
        self.tabs.setDrawBase(True)
        self.stack = QStackedWidget()
        self.stack.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.tabs)
        layout.addWidget(self.stack, 1)
        self._titles: list[str] = []
        #: the height the reader last gave the open drawer (``None``: :data:`DEFAULT_SHARE`), kept between runs
        self.open_height: int | None = None
        self.tabs.tabBarClicked.connect(self._tab_clicked)
        self._close_size()

    # -- panes -------------------------------------------------------------------------------------
    def add_pane(self, widget: QWidget, title: str, tip: str = "") -> int:
        """Add a study pane (its tab reads ``title``); returns its index."""
        self.stack.addWidget(widget)
        self._titles.append(title)
        i = self.tabs.addTab(title)
        self.tabs.setTabToolTip(i, tip or f"Show or hide {title.lower()} under the text")
        return i

    def set_count(self, widget: QWidget, count: int | None) -> None:
        """Show ``count`` after the pane's title ("Commentary (15)"; ``None``: no count)."""
        i = self.stack.indexOf(widget)
        if i >= 0:
            self.tabs.setTabText(i, self._titles[i] + (f" ({count})" if count is not None else ""))

    @property
    def is_open(self) -> bool:
        return not self.stack.isHidden()

    @property
    def current(self) -> QWidget | None:
        return self.stack.currentWidget() if self.is_open else None

    def open(self, widget: QWidget) -> None:
        """Open the drawer on ``widget``'s pane."""
        i = self.stack.indexOf(widget)
        if i < 0:
            return
        self.stack.setCurrentIndex(i)
        self.tabs.setCurrentIndex(i)
        if not self.is_open:
            self.stack.show()
            self.setMaximumHeight(_OPEN_MAX)
            self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
            self.openChanged.emit(True)

    def close_drawer(self) -> None:
        if self.is_open:
            self.stack.hide()
            self._close_size()
            self.openChanged.emit(False)

    def toggle(self, widget: QWidget) -> bool:
        """Open on ``widget``, or close when it is the pane open now; ``True`` when it is open after."""
        if self.current is widget:
            self.close_drawer()
            return False
        self.open(widget)
        return True

    def _close_size(self) -> None:
        self.setMaximumHeight(self.tabs.sizeHint().height())
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def _tab_clicked(self, index: int) -> None:
        widget = self.stack.widget(index)
        if widget is not None:
            self.toggle(widget)

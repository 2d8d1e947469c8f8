"""The window's layout: where the Bible text gets the room, and how the layout is kept between runs.

The reader has the window's left column to itself; the study panes (the commentary, the reader's notes,
what ``ui/study/`` adds) sit in a drawer under it (:class:`~.study_drawer.StudyDrawer`), closed until asked
for, and the question and the results beside it. *Reading mode* (F11, :class:`ReadingLayout`) hides the
rest: the question and results column and the drawer go, the text takes the window; the same key brings
them back as they were.

What is kept between runs is in QSettings beside the settings file (``config_dir()/window.ini``): geometry,
dock state, the splitters' positions, which study pane was open and the drawer's height. Everything else
the user chooses is in the typed settings file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QSplitter, QWidget

from .. import paths
from .study_drawer import DEFAULT_SHARE

if TYPE_CHECKING:
    from .main_window import MainWindow


def window_settings() -> QSettings:
    """QSettings for geometry and splitters, beside the settings file (``AMICUS_HOME`` aware)."""
    return QSettings(str(paths.config_dir() / "window.ini"), QSettings.Format.IniFormat)


class ReadingLayout:
    """The reader's column (the text over the study drawer) and reading mode, for ``window``."""

    def __init__(self, window: MainWindow, right: QWidget) -> None:
        self._w = window
        self._right = right
        self._before: tuple[bool, QWidget | None] | None = None  # what reading mode hid: (right shown, drawer pane)
        drawer = window.drawer
        drawer.openChanged.connect(self._drawer_opened)
        window.left_split.splitterMoved.connect(lambda _pos, _i: self._remember_height())

    @property
    def reading(self) -> bool:
        """Whether reading mode is on (the text alone in the window)."""
        return self._before is not None

    @property
    def drawer_pane(self) -> QWidget | None:
        """The study pane open under the text (in reading mode: the one open before it, shown again after)."""
        return self._before[1] if self._before is not None else self._w.drawer.current

    def toggle_reading(self) -> None:
        """Reading mode on (the question, results and study panes hidden) or off (shown as they were)."""
        w = self._w
        if self._before is None:
            self._before = (not self._right.isHidden(), w.drawer.current)
            self._right.hide()
            w.drawer.close_drawer()
            w.drawer.hide()
            w.reader.text.setFocus(Qt.FocusReason.ShortcutFocusReason)
        else:
            right, pane = self._before
            self._before = None
            self._right.setVisible(right)
            w.drawer.show()
            if pane is not None:
                w.drawer.open(pane)
        w.actions_by_id["reading_mode"].setChecked(self.reading)
        w.reader.keep_current_in_view()

    def open_pane(self, pane: QWidget) -> None:
        """Open the drawer on ``pane`` (leaving reading mode first)."""
        if self.reading:
            self.toggle_reading()
        self._w.drawer.open(pane)

    def _drawer_opened(self, is_open: bool) -> None:
        w = self._w
        w.actions_by_id["commentary"].setChecked(w.drawer.current is w.commentary)
        if is_open:
            self.size_drawer()
        else:  # the text takes the room back (the splitter would keep the drawer's old share empty)
            split = w.left_split
            total = sum(split.sizes())
            row = w.drawer.maximumHeight()
            if total > row:
                split.setSizes([total - row, row])
        w.reader.keep_current_in_view()

    def size_drawer(self) -> None:
        """Give the open drawer its kept height (a share of the column the first time); once the window is laid
        out (the window calls this again when first shown)."""
        w, split = self._w, self._w.left_split
        total = sum(split.sizes())
        if w.drawer.is_open and total > 0:
            wanted = w.drawer.open_height or int(total * DEFAULT_SHARE)
            height = max(120, min(wanted, total - 200))
            split.setSizes([total - height, height])

    def _remember_height(self) -> None:
        w = self._w
        if w.drawer.is_open:
            w.drawer.open_height = w.left_split.sizes()[1]


def splitters(w: MainWindow) -> tuple[QSplitter, ...]:
    """The splitters whose positions are kept, each under its object name (the reader's column is kept as
    the drawer's height, below: its splitter's state changes with the drawer open or closed)."""
    return (w.main_split, w.commentary.split, *w.results.splitters)


def restore_layout(w: MainWindow, qs: QSettings) -> None:
    geometry = qs.value("window/geometry")
    if geometry is not None:
        w.restoreGeometry(geometry)
    state = qs.value("window/state")
    if state is not None:
        w.restoreState(state)
    for split in splitters(w):
        value = qs.value(f"splitters/{split.objectName()}")
        if value is not None:
            split.restoreState(value)
    height = qs.value("drawer/height")
    if height is not None and str(height).isdigit():
        w.drawer.open_height = int(str(height))
    pane = str(qs.value("drawer/pane", ""))
    if pane == "commentary":
        w.drawer.open(w.commentary)
    elif pane == "notes":
        w.drawer.open(w.notes_control.pane)


def save_layout(w: MainWindow, qs: QSettings) -> None:
    qs.setValue("window/geometry", w.saveGeometry())
    qs.setValue("window/state", w.saveState())
    for split in splitters(w):
        qs.setValue(f"splitters/{split.objectName()}", split.saveState())
    current = w.reading_layout.drawer_pane
    pane = "commentary" if current is w.commentary else "notes" if current is w.notes_control.pane else ""
    qs.setValue("drawer/pane", pane)
    if w.drawer.open_height is not None:
        qs.setValue("drawer/height", w.drawer.open_height)
    qs.sync()

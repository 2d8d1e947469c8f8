"""Where the window's layout is kept between runs: geometry, dock state, splitter positions and
whether the commentary shows, in QSettings beside the settings file (``config_dir()/window.ini``).
Everything else the user chooses is in the typed settings file."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QSplitter

from .. import paths

if TYPE_CHECKING:
    from .main_window import MainWindow


def window_settings() -> QSettings:
    """QSettings for geometry and splitters, beside the settings file (``AMICUS_HOME`` aware)."""
    return QSettings(str(paths.config_dir() / "window.ini"), QSettings.Format.IniFormat)


def splitters(w: MainWindow) -> tuple[QSplitter, ...]:
    """The splitters whose positions are kept, each under its object name."""
    return (w.main_split, w.left_split, w.commentary.split, *w.results.splitters)


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
    if str(qs.value("window/commentary", "true")).lower() == "false":
        w.toggle_commentary()


def save_layout(w: MainWindow, qs: QSettings) -> None:
    qs.setValue("window/geometry", w.saveGeometry())
    qs.setValue("window/state", w.saveState())
    for split in splitters(w):
        qs.setValue(f"splitters/{split.objectName()}", split.saveState())
    qs.setValue("window/commentary", "true" if w.commentary.isVisibleTo(w) else "false")
    qs.sync()

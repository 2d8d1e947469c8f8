"""The window's appearance: the colour scheme and the reading text size, from the settings.

The scheme goes first: a new application style sheet resets the fonts widgets were given, so the
reading size is applied after it (and after a scheme change the system makes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication

from ..settings import Settings
from . import theme

if TYPE_CHECKING:
    from .main_window import MainWindow


class Appearance(QObject):
    """Applies :class:`~amicus_desktop.settings.Settings`' ``font_size`` and ``color_scheme`` to the
    window, only when they change."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._window = window
        self._applied: tuple[int | None, str] | None = None

    def apply(self, settings: Settings) -> None:
        """Reading text size and colour scheme, from ``settings`` (applied only when they change)."""
        appearance = (settings.font_size, settings.color_scheme)
        if appearance == self._applied:
            return
        old, self._applied = self._applied, appearance
        if old is None or old[1] != settings.color_scheme:
            app = QApplication.instance()
            if isinstance(app, QApplication):
                theme.apply_scheme(app, settings.color_scheme)
                if old is None:
                    app.styleHints().colorSchemeChanged.connect(self.apply_reading_size)
            self._window.menus.render_scheme(settings.color_scheme)
        self.apply_reading_size()

    def apply_reading_size(self, *_args: object) -> None:
        w = self._window
        size = theme.reading_size(w.session.prefs.settings.font_size, w.font())
        w.reader.set_text_size(size)
        w.results.passage.set_text_size(size)
        w.commentary.set_text_size(size)

    def step_font_size(self, delta: int) -> None:
        """Ctrl+= / Ctrl+-: the reading text one point larger or smaller (saved)."""
        w = self._window
        current = theme.reading_size(w.session.prefs.settings.font_size, w.font())
        w.session.prefs.set_font_size(round(current) + delta)

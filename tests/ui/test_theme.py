"""Colours and fonts for either scheme (``ui/theme.py``): blends, tints that read in light and dark, the focus
ring, the reading size and the scheme asked for."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QPalette

from amicus_desktop.ui import theme


def test_a_blend_moves_part_of_the_way_and_a_tint_keeps_the_window_recognisable(qapp: Any) -> None:
    black, white = QColor(0, 0, 0), QColor(255, 255, 255)
    assert theme.blend(black, white, 0.0) == black and theme.blend(black, white, 1.0) == white
    assert theme.blend(black, white, 0.5) == QColor(128, 128, 128)
    dark = theme.dark_palette()
    assert theme.is_dark(dark) and not theme.is_dark(QPalette(QColor(240, 240, 240)))
    for palette in (dark, QPalette(QColor(240, 240, 240))):
        window = palette.color(QPalette.ColorRole.Window)
        for kind in theme.HUES:
            assert abs(theme.tint(palette, kind).lightness() - window.lightness()) < 80, kind
    assert theme.accent(dark, "error").lightness() > theme.accent(QPalette(QColor(240, 240, 240)), "error").lightness()


def test_the_focus_ring_is_drawn_in_its_colour(qapp: Any) -> None:
    palette = theme.dark_palette()
    sheet = theme.focus_stylesheet(palette)
    assert theme.focus_ring_color(palette).name() in sheet and ":focus" in sheet


def test_the_reading_size_is_the_readers_or_a_quarter_above_the_ui_font(qapp: Any) -> None:
    assert theme.reading_size(18, QFont()) == 18.0
    base = QFont()
    base.setPointSizeF(12.0)
    assert theme.reading_size(None, base) == 15.0
    base.setPointSizeF(8.0)
    assert theme.reading_size(None, base) == 12.0  # never under 12 points
    assert theme.scaled_font(base, 1.5, bold=True).pointSizeF() == 12.0


def test_the_scheme_is_the_environments_then_the_readers_then_the_systems(qapp: Any,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(theme.SCHEME_ENV, raising=False)
    assert theme.requested_scheme(qapp, "dark") == Qt.ColorScheme.Dark
    assert theme.requested_scheme(qapp, "light") == Qt.ColorScheme.Light
    assert theme.requested_scheme(qapp, "system") == qapp.styleHints().colorScheme()
    monkeypatch.setenv(theme.SCHEME_ENV, "dark")
    assert theme.requested_scheme(qapp, "light") == Qt.ColorScheme.Dark

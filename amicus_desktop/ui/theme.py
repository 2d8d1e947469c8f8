"""Fonts, palette-derived colours, the light/dark scheme and the focus ring.

Nothing here hard-codes a foreground/background pair: tints are the palette's own window colour
blended towards a hue, so they stay readable in light and dark schemes alike. The scheme is the
user's choice (View → Colour scheme, saved as ``Settings.color_scheme``), which
``AMICUS_COLOR_SCHEME`` overrides for one run. Every focusable control gets a visible focus ring
(:func:`focus_stylesheet`) in the palette's highlight colour, re-made when the scheme changes.
"""

from __future__ import annotations

import logging
import os

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QLabel

log = logging.getLogger("amicus.ui")

SCHEME_ENV = "AMICUS_COLOR_SCHEME"  # "light" | "dark": overrides the system (screenshots, testing)

SERIF_FAMILIES = ["Charter", "Iowan Old Style", "Georgia", "Palatino Linotype", "Cambria", "Noto Serif",
                  "Source Serif Pro", "DejaVu Serif", "Serif"]

# Accent hues (only ever blended with the palette, or used for thin strokes next to text).
HUES = {
    "info": QColor(52, 120, 198),
    "warning": QColor(214, 148, 30),
    "error": QColor(200, 60, 50),
    "ok": QColor(60, 150, 90),
}


def serif_font(point_size: float | None = None) -> QFont:
    font = QFont()
    font.setFamilies(SERIF_FAMILIES)
    font.setStyleHint(QFont.StyleHint.Serif)
    if point_size:
        font.setPointSizeF(point_size)
    return font


def reading_size(setting: int | None, base: QFont) -> float:
    """The reading text size in points: the user's (``Settings.font_size``) or 1.25 × the UI font."""
    if setting:
        return float(setting)
    return max(12.0, (base.pointSizeF() if base.pointSizeF() > 0 else 10.0) * 1.25)


def scaled_font(base: QFont, factor: float, *, bold: bool = False) -> QFont:
    font = QFont(base)
    size = base.pointSizeF() if base.pointSizeF() > 0 else 10.0
    font.setPointSizeF(size * factor)
    font.setBold(bold)
    return font


def blend(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved ``t`` (0..1) of the way towards ``b``."""
    return QColor(
        round(a.red() + (b.red() - a.red()) * t),
        round(a.green() + (b.green() - a.green()) * t),
        round(a.blue() + (b.blue() - a.blue()) * t),
    )


def is_dark(palette: QPalette | None = None) -> bool:
    palette = palette or QGuiApplication.palette()
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def tint(palette: QPalette, kind: str, amount: float | None = None) -> QColor:
    """A background for a ``kind`` banner or chip: the window colour tinted with its hue."""
    if amount is None:
        amount = 0.22 if is_dark(palette) else 0.14
    return blend(palette.color(QPalette.ColorRole.Window), HUES[kind], amount)


def accent(palette: QPalette, kind: str) -> QColor:
    """A stroke colour for ``kind`` that contrasts with the window in either scheme."""
    hue = HUES[kind]
    return hue.lighter(135) if is_dark(palette) else hue


def show_as_error(label: QLabel) -> None:
    """Colour ``label``'s text as an error that reads in either scheme (the palette's BrightText is
    white on Fusion's light palette: invisible on a light window)."""
    palette = QPalette(label.palette())
    palette.setColor(QPalette.ColorRole.WindowText, accent(QGuiApplication.palette(), "error"))
    label.setPalette(palette)


def muted_text(palette: QPalette) -> QColor:
    return blend(palette.color(QPalette.ColorRole.WindowText), palette.color(QPalette.ColorRole.Window), 0.38)


def dark_palette() -> QPalette:
    """A calm dark palette for Fusion, used when the system asks for dark but the style is light."""
    p = QPalette()
    window, base, text = QColor(37, 38, 41), QColor(28, 29, 31), QColor(224, 224, 222)
    disabled = QColor(128, 128, 128)
    roles = {
        QPalette.ColorRole.Window: window,
        QPalette.ColorRole.WindowText: text,
        QPalette.ColorRole.Base: base,
        QPalette.ColorRole.AlternateBase: QColor(44, 45, 48),
        QPalette.ColorRole.ToolTipBase: QColor(50, 51, 55),
        QPalette.ColorRole.ToolTipText: text,
        QPalette.ColorRole.PlaceholderText: QColor(140, 140, 140),
        QPalette.ColorRole.Text: text,
        QPalette.ColorRole.Button: QColor(48, 49, 53),
        QPalette.ColorRole.ButtonText: text,
        QPalette.ColorRole.BrightText: QColor(255, 120, 120),
        QPalette.ColorRole.Light: QColor(70, 70, 74),
        QPalette.ColorRole.Midlight: QColor(58, 58, 62),
        QPalette.ColorRole.Mid: QColor(44, 44, 48),
        QPalette.ColorRole.Dark: QColor(20, 20, 22),
        QPalette.ColorRole.Shadow: QColor(0, 0, 0),
        QPalette.ColorRole.Highlight: QColor(61, 118, 184),
        QPalette.ColorRole.HighlightedText: QColor(255, 255, 255),
        QPalette.ColorRole.Link: QColor(120, 170, 235),
        QPalette.ColorRole.LinkVisited: QColor(170, 140, 220),
    }
    for role, color in roles.items():
        p.setColor(role, color)
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    return p


#: The app property that remembers the user's scheme choice between system scheme changes.
_PREFERENCE = "amicusColorScheme"

#: Widgets that take keyboard focus, and the ring each gets when it has it.
_FOCUS_RULES = (
    ("QLineEdit:focus, QSpinBox:focus, QAbstractItemView:focus, QTextBrowser:focus, QScrollArea:focus"
     " {{ border: 2px solid {ring}; border-radius: 3px; }}"),
    "QPushButton:focus, QToolButton:focus {{ border: 2px solid {ring}; border-radius: 4px; padding: 2px 6px; }}",
    "QComboBox:focus {{ border: 2px solid {ring}; border-radius: 3px; padding: 1px 18px 1px 4px; }}",
    "QCheckBox:focus, QRadioButton:focus, QTabBar::tab:focus {{ border: 1px solid {ring}; border-radius: 3px; }}",
)


def focus_ring_color(palette: QPalette) -> QColor:
    """The focus ring's colour: the highlight, lightened on dark palettes so it stands out."""
    hl = palette.color(QPalette.ColorRole.Highlight)
    return hl.lighter(150) if is_dark(palette) else hl


def focus_stylesheet(palette: QPalette) -> str:
    """An application style sheet that draws a 2 px ring around whichever control has focus."""
    ring = focus_ring_color(palette).name()
    return "\n".join(rule.format(ring=ring) for rule in _FOCUS_RULES)


def requested_scheme(app: QApplication, preference: str | None = None) -> Qt.ColorScheme:
    """``AMICUS_COLOR_SCHEME`` if set, else the user's choice (``light``/``dark``), else the system's."""
    forced = os.environ.get(SCHEME_ENV, "").strip().lower()
    choice = forced or (preference if preference is not None else str(app.property(_PREFERENCE) or "system"))
    if choice == "dark":
        return Qt.ColorScheme.Dark
    if choice == "light":
        return Qt.ColorScheme.Light
    return app.styleHints().colorScheme()


def apply_scheme(app: QApplication, preference: str | None = None) -> None:
    """Apply the light/dark scheme (see :func:`requested_scheme`) and the focus ring for it.

    Platforms with a dark-aware theme already hand Fusion a dark palette; where they don't (the
    offscreen platform, some Linux desktops) a dark request gets :func:`dark_palette`. A light or
    unknown scheme after a dark one gets the style's own light palette back.
    """
    if preference is not None:
        app.setProperty(_PREFERENCE, preference)
    scheme = requested_scheme(app)
    style_palette = app.style().standardPalette()
    if scheme == Qt.ColorScheme.Dark:
        if not is_dark(app.palette()):
            app.setPalette(dark_palette())
    elif is_dark(app.palette()) and not is_dark(style_palette):
        app.setPalette(style_palette)
    app.setStyleSheet(focus_stylesheet(app.palette()))
    log.debug("colour scheme", extra={"scheme": scheme.name, "dark": is_dark(app.palette())})


def install_theme(app: QApplication) -> None:
    """The platform's style in the requested scheme, re-applied when the system's scheme changes."""
    apply_scheme(app)
    app.styleHints().colorSchemeChanged.connect(lambda _scheme: apply_scheme(app))

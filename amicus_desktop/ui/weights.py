"""The boost weights as the window edits them: a spin box per weight, in the range the settings accept
(the settings dialog, the workbench's what-if)."""

from __future__ import annotations

from PySide6.QtWidgets import QDoubleSpinBox

from ..settings_values import BOOST_RANGE


def boost_spin(name: str, value: float | None = None) -> QDoubleSpinBox:
    """A spin box for one boost (``name`` is what a screen reader says), in steps of 0.05."""
    spin = QDoubleSpinBox()
    spin.setRange(*BOOST_RANGE)
    spin.setDecimals(2)
    spin.setSingleStep(0.05)
    if value is not None:
        spin.setValue(value)
    spin.setAccessibleName(name)
    return spin

"""A boost's spin box (``ui/weights.py``): the range the settings accept, which is the knob table's."""

from __future__ import annotations

from typing import Any

from amicus_desktop.knobs import BY_NAME, SETTINGS_BOOST
from amicus_desktop.settings_values import BOOST_RANGE
from amicus_desktop.ui.weights import boost_spin


def test_a_boost_spin_box_takes_the_settings_range_in_steps_of_five_hundredths(qapp: Any) -> None:
    assert BOOST_RANGE == SETTINGS_BOOST == BY_NAME["chapter_boost"].settings_bounds()
    spin = boost_spin("Chapter boost", 1.5)
    assert (spin.minimum(), spin.maximum()) == BOOST_RANGE
    assert spin.value() == 1.5 and spin.singleStep() == 0.05 and spin.decimals() == 2
    assert spin.accessibleName() == "Chapter boost"
    spin.setValue(BOOST_RANGE[1] + 5)
    assert spin.value() == BOOST_RANGE[1]  # held to the range
    spin.stepUp()
    assert spin.value() == BOOST_RANGE[1]
    assert boost_spin("Scholar boost").value() == BOOST_RANGE[0]  # no value: the range's low end

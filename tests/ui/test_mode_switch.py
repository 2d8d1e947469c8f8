"""The search mode switch (``ui/mode_switch.py``): one checked button per mode, a signal only for the reader's
choice of another mode, and names for screen readers."""

from __future__ import annotations

from typing import Any

from amicus_desktop.core.query import SearchMode
from amicus_desktop.present import describe
from amicus_desktop.session import MODES
from amicus_desktop.ui.mode_switch import ModeSwitch


def test_a_click_on_another_mode_asks_for_it_and_setting_one_does_not(qapp: Any) -> None:
    switch = ModeSwitch()
    chosen: list[SearchMode] = []
    switch.modeChosen.connect(chosen.append)
    assert list(switch.buttons) == list(MODES) and switch.mode is SearchMode.HYBRID
    assert switch.buttons[SearchMode.HYBRID].isChecked()
    switch.buttons[SearchMode.KEYWORD].click()
    assert chosen == [SearchMode.KEYWORD] and switch.mode is SearchMode.KEYWORD
    switch.buttons[SearchMode.KEYWORD].click()  # the mode it is in: nothing to ask
    assert chosen == [SearchMode.KEYWORD]
    switch.set_mode(SearchMode.SEMANTIC)  # the session's mode shown: no signal
    assert chosen == [SearchMode.KEYWORD] and switch.buttons[SearchMode.SEMANTIC].isChecked()
    assert [b.isChecked() for b in switch.buttons.values()] == [True, False, False]
    assert switch.accessibleDescription() == describe.MODE_HELP[SearchMode.SEMANTIC]
    for mode, button in switch.buttons.items():
        assert button.accessibleName() == f"Search mode: {mode.label}" and "Ctrl+M" in button.toolTip()
    switch.deleteLater()

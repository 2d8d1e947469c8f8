"""The window's docks are made when first shown (docs/PERFORMANCE.md, "The app's start-up memory"): none of
the profile, the curator workbench or the study aids exists after start-up; each works when first shown, its
controls where a dock made at start puts them in the Tab order, its mnemonics before the menu bar's. The real
window on a random-vector library and the scripted proxy over real HTTP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from amicus_desktop.core.references import PassageRef
from amicus_desktop.ui.docks.dock import focus_chain
from tests.support.scripted_proxy import ScriptedProxy

from ..conftest import wait_for

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def _tabbable(chain: list[QWidget], inside: QWidget) -> list[int]:
    """The positions in ``chain`` of the controls of ``inside`` that Tab stops on."""
    return [i for i, w in enumerate(chain) if inside.isAncestorOf(w) and w.focusPolicy() & Qt.FocusPolicy.TabFocus
            and w.focusProxy() is None]


def test_no_dock_is_made_at_start_and_each_works_when_first_shown(harness: Any, qtbot: Any, small_db: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="romans:9")
        session = window.session
        wait_for(qtbot, lambda: session.can_ask and session.reader.loaded_chapter is not None)
        docks = (window.profile_dock, window.workbench_dock, window.study_control.dock)
        assert not any(d.created for d in docks) and all(d.widget() is None for d in docks)

        # The profile: made when shown, with the library's scholars the session loaded before it existed.
        window.actions_by_id["profile"].trigger()
        wait_for(qtbot, lambda: window.profile_dock.created and window.profile_dock.isVisible())
        scholars = window.profile_dock.panel.scholars
        assert scholars.count() > 0 and scholars.hasFocus()

        # The workbench (Ctrl+Shift+W): made when shown, its ranking focused, the session's golden-set state shown.
        qtbot.keyClick(window, Qt.Key.Key_W, CTRL_SHIFT)
        dock = window.workbench_dock
        wait_for(qtbot, lambda: dock.created and dock.isVisible())
        panel = dock.panel
        wait_for(qtbot, lambda: panel.whatif_tab.ranking.hasFocus())
        assert panel.golden_label.text().startswith("No golden set open")
        # Its controls follow the profile's in the Tab order and come before the status bar's (made after the
        # docks), as they did when the docks were made at start.
        chain = focus_chain(window)
        profile, bench = _tabbable(chain, window.profile_dock), _tabbable(chain, dock)
        switcher = chain.index(window.workspace_switcher)
        assert profile and bench and max(profile) < min(bench) and max(bench) < switcher
        # Alt+S is the workbench's Snapshots tab while it shows, not the Search menu registered before it.
        qtbot.keyClick(panel.whatif_tab.ranking, Qt.Key.Key_S, Qt.KeyboardModifier.AltModifier)
        wait_for(qtbot, lambda: panel.tabs.currentIndex() == panel.SNAPSHOT_TAB)
        assert not any(m.isVisible() for m in window.menuBar().findChildren(type(window.menus.edit_menu)))

        # The study aids: made when one is asked for, and it answers.
        study = window.study_control
        assert not study.dock.created
        study.show_xrefs(PassageRef("romans", 9, 1, 1))
        wait_for(qtbot, lambda: study.dock.created and study.dock.isVisible())
        assert study.panel.tabs.currentWidget() is study.panel.xrefs

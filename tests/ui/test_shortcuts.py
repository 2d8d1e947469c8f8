"""Every keyboard shortcut in one table (``ui/shortcuts.py``): ids and keys that do not collide, the window's
actions made from it, and the help window listing it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QWidget

from amicus_desktop.ui.shortcuts import BY_ID, SHORTCUTS, ShortcutsDialog, key_text, keys_of, make_actions, sequences


def test_each_shortcut_has_keys_and_no_two_window_shortcuts_share_one(qapp: Any) -> None:
    assert len(BY_ID) == len(SHORTCUTS)  # ids are unique
    seen: dict[str, str] = {}
    for sc in SHORTCUTS:
        assert sequences(sc), sc.id
        assert key_text(sc) and keys_of(sc.id) == key_text(sc)
        if sc.local:
            continue
        for seq in sequences(sc):
            text = seq.toString()
            assert text not in seen, f"{text}: {seen.get(text)} and {sc.id}"
            seen[text] = sc.id


def test_the_window_gets_an_action_per_handled_shortcut_and_its_keys_trigger_it(qapp: Any) -> None:
    parent = QWidget()
    called: list[str] = []
    window_wide = [sc for sc in SHORTCUTS if not sc.local][:3]

    def handler(shortcut_id: str) -> Callable[[], None]:
        return lambda *_: called.append(shortcut_id)  # a QAction's triggered passes "checked"

    actions = make_actions(parent, {sc.id: handler(sc.id) for sc in window_wide})
    assert list(actions) == [sc.id for sc in window_wide] and len(parent.actions()) == 3
    for sc in window_wide:
        assert actions[sc.id].shortcuts() == sequences(sc) and actions[sc.id].text() == sc.title
        actions[sc.id].trigger()
    assert called == [sc.id for sc in window_wide]
    parent.deleteLater()


def test_the_help_window_lists_every_shortcut_with_its_keys(qapp: Any) -> None:
    dialog = ShortcutsDialog()
    assert dialog.table.rowCount() == len(SHORTCUTS)
    for row, sc in enumerate(SHORTCUTS):
        cells = [dialog.table.item(row, c) for c in range(3)]
        assert [c.text() if c is not None else None for c in cells] == [sc.group, sc.title, key_text(sc)]
    dialog.deleteLater()

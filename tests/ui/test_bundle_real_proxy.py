"""Stale and failed states stay true, against the real local proxy (a subprocess) stopped and started.

A question asked while the proxy is down fails; when the proxy comes back the "last question failed"
note gives way to a one-key way to ask it again (Ctrl+R), and the stale note over the earlier results
says they are from before the outage instead of "before the proxy went away".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from amicus_desktop.connectivity import ProxyState
from amicus_desktop.present import states
from amicus_desktop.ui import shortcuts
from tests.support.proxy import ProxyProcess

from .conftest import Harness, wait_for

pytestmark = pytest.mark.slow

FIRST = "Why did God choose Jacob and not Esau?"
FAILED = "What does the potter and the clay mean?"


def test_failed_and_stale_notes_follow_the_proxy_down_and_up(harness: Harness, qtbot: Any, real_db: Path,
                                                              proxy_ready: ProxyProcess) -> None:
    proxy = proxy_ready
    window = harness.open(db=real_db, proxy=proxy.url, chapter="romans:9")
    session = window.session
    wait_for(qtbot, lambda: session.can_ask, timeout=15)
    window.ask.edit.setText(FIRST)
    window.ask.button.click()
    wait_for(qtbot, lambda: session.question.view is not None, timeout=20)

    proxy.kill()
    window.ask.edit.setText(FAILED)
    window.ask.button.click()
    wait_for(qtbot, lambda: session.connection.state.state is ProxyState.OFFLINE, timeout=15)
    wait_for(qtbot, lambda: session.question.failed_text == FAILED, timeout=15)
    assert window.ask.status_label.text() == states.ASK_FAILED
    note = window.results.stale_note
    assert note.isVisible() and "before the proxy went away" in note.title.text()
    assert "needs the proxy" in note.title.text()  # a compact note: title and body on one line

    proxy.start()
    wait_for(qtbot, lambda: session.connection.state.state is ProxyState.ONLINE, timeout=15)
    # the failure note is gone; the failed question is one key away; the stale note says so
    assert window.ask.status_label.text() == states.ask_again_hint(FAILED, shortcuts.keys_of("ask_again"))
    assert "Ctrl+R" in window.ask.status_label.text() and states.ASK_FAILED not in window.ask.status_label.text()
    assert note.isVisible() and "before the outage" in note.title.text() and "before the proxy went away" not in \
        note.title.text()
    assert "ask again to refresh" in note.title.text()

    window.ask.edit.setText("something else in the box")
    qtbot.keyClick(window, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    wait_for(qtbot, lambda: session.question.view is not None and session.question.view.result.query == FAILED
             and session.question.view.cause == "ask", timeout=20)
    assert session.question.failed_text is None and window.ask.edit.text() == FAILED
    assert not session.question.view.stale and not note.isVisible()
    assert window.ask.status_label.text().endswith(" ms")  # "N results · T ms": no failure note left

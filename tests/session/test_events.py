"""The session's observer lists (``session/events.py``)."""

from __future__ import annotations

import logging

import pytest

from amicus_desktop.session import Event


def test_a_failing_listener_does_not_stop_the_others(caplog: pytest.LogCaptureFixture) -> None:
    event: Event[int] = Event("numbers")
    got: list[int] = []

    def broken(_value: int) -> None:
        raise RuntimeError("listener bug")

    event.connect(broken)
    disconnect = event.connect(got.append)
    with caplog.at_level(logging.ERROR, logger="amicus.session"):
        event.emit(1)
    assert got == [1] and "listener failed" in caplog.text
    disconnect()
    event.emit(2)
    assert got == [1]

"""Qt's own messages in the app's log (``ui/qtlog.py``): a warning as a warning of ``amicus.qt``, the offscreen
plugin's chatter about size hints only as debug."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from PySide6.QtCore import qInstallMessageHandler, qWarning

from amicus_desktop.ui.qtlog import install_qt_message_handler


def test_qt_warnings_reach_the_log_and_the_plugins_chatter_is_debug(qapp: Any,
                                                                      caplog: pytest.LogCaptureFixture) -> None:
    previous = qInstallMessageHandler(None)  # pytest-qt's, put back below
    try:
        install_qt_message_handler()
        with caplog.at_level(logging.DEBUG, logger="amicus.qt"):
            qWarning("QFont: point size <= 0")
            qWarning("This plugin does not support propagateSizeHints()")
    finally:
        qInstallMessageHandler(previous)
    got = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "amicus.qt"]
    assert got == [(logging.WARNING, "QFont: point size <= 0"),
                   (logging.DEBUG, "This plugin does not support propagateSizeHints()")]

"""Qt's own messages (qWarning & co.) routed into the ``amicus.qt`` logger."""

from __future__ import annotations

import logging

from PySide6.QtCore import QMessageLogContext, QtMsgType, qInstallMessageHandler

log = logging.getLogger("amicus.qt")

_LEVELS = {
    QtMsgType.QtDebugMsg: logging.DEBUG,
    QtMsgType.QtInfoMsg: logging.INFO,
    QtMsgType.QtWarningMsg: logging.WARNING,
    QtMsgType.QtCriticalMsg: logging.ERROR,
    QtMsgType.QtFatalMsg: logging.CRITICAL,
}


#: Platform-plugin chatter that says nothing about the app (the offscreen plugin used for
#: screenshots and tests reports every top-level window's size hints it cannot pass on).
_NOISE = ("This plugin does not support propagateSizeHints()",)


def _handler(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
    category = context.category or "qt"
    level = _LEVELS.get(kind, logging.WARNING)
    if level == logging.WARNING and message.startswith(_NOISE):
        level = logging.DEBUG
    log.log(level, "%s", message, extra={"category": category})


def install_qt_message_handler() -> None:
    """Install the handler (the app does this; tests leave pytest-qt's capture in place)."""
    qInstallMessageHandler(_handler)

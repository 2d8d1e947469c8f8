"""Logging setup: named loggers per area, a rotating file under ``paths.log_dir()``. No Qt.

Loggers are ``amicus.<area>`` (``amicus.ui``, ``amicus.qt``, ``amicus.retrieval``, ``amicus.embedding``,
``amicus.store``, ``amicus.connectivity``, ``amicus.settings``, ``amicus.proxy``, …); :func:`setup_logging`
attaches handlers to the ``amicus`` parent (and to the library loggers a process names, such as the
proxy's uvicorn), so other libraries and tests keep their own configuration.

The desktop app writes ``amicus-desktop.log``; the embed proxy, a separate process that often runs
beside it, writes ``amicus-proxy.log`` in the same folder (two processes rotating one file would
rename it under each other); the retrieval service ``amicus-serve-PORT.log``, the MCP server
``amicus-mcp.log``.

What is never logged: query text, tokens, API keys. Call sites log lengths and codes, not text; as a
second line of defence :class:`RedactFilter` drops ``extra`` fields with sensitive names and masks
bearer tokens, ``key=…``-shaped secrets and the passwords and secrets of URLs in messages.
"""

from __future__ import annotations

import contextlib
import logging
import logging.handlers
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from . import paths
from .http.urls import redact_urls

LOG_FILE = "amicus-desktop.log"
PROXY_LOG_FILE = "amicus-proxy.log"
#: the retrieval service's log, one file per port (replicas on one machine never share a file)
SERVE_LOG_FILE = "amicus-serve-{port}.log"
#: the MCP server's log (its stdout belongs to the protocol)
MCP_LOG_FILE = "amicus-mcp.log"
MAX_BYTES = 1_000_000
BACKUPS = 3

#: ``extra`` keys that are never written, whatever their value.
SENSITIVE_KEYS = frozenset({"query", "text", "token", "api_key", "key", "authorization", "password", "secret"})

_STANDARD_ATTRS = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message", "asctime", "taskName",
    "color_message",  # uvicorn: the same message with terminal colours
}

_SECRETS = (
    (re.compile(r"(?i)\b(bearer)\s+[A-Za-z0-9._~+/=-]+"), r"\1 ***"),
    (re.compile(r"(?i)\b(token|api[_-]?key|password|secret)(\s*[=:]\s*)[^\s&,;'\"]+"), r"\1\2***"),
    (re.compile(r"\bsk-[A-Za-z0-9_-]{8,}"), "sk-***"),
)


def redact(text: str) -> str:
    """``text`` with bearer tokens, ``token=…``-style secrets and URLs' user-info and secret
    parameters (:func:`~amicus_desktop.http.urls.redact_url`) masked."""
    text = redact_urls(text)
    for pattern, repl in _SECRETS:
        text = pattern.sub(repl, text)
    return text


class RedactFilter(logging.Filter):
    """Masks secrets in the message and removes sensitive ``extra`` fields from the record."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key in list(vars(record)):
            if key.lower() in SENSITIVE_KEYS and key not in _STANDARD_ATTRS:
                delattr(record, key)
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # a malformed call: keep it, masked, rather than lose it
            message = f"{record.msg} {record.args}"
        # Format first, then mask: masking the template could break its placeholders.
        record.msg = redact(message)
        record.args = None
        return True


class ExtraFormatter(logging.Formatter):
    """``time level logger: message key=value …`` — the ``extra`` fields are the useful part."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        base = super().format(record)
        extras = {k: v for k, v in vars(record).items() if k not in _STANDARD_ATTRS and not k.startswith("_")}
        if extras:
            base += " " + " ".join(f"{k}={v}" for k, v in sorted(extras.items()))
        return redact(base)


_installed: list[logging.Handler] = []
_loggers: list[logging.Logger] = []


def setup_logging(
    level: int = logging.INFO,
    *,
    log_dir: Path | None = None,
    stderr_level: int | None = logging.WARNING,
    file_name: str = LOG_FILE,
    also: Sequence[str] = (),
) -> Path | None:
    """Attach a rotating file handler (and a stderr handler) to the ``amicus`` logger.

    ``also`` names library loggers (``"uvicorn"``) that get the same handlers, filter and level.
    Returns the log file path, or ``None`` when the log directory cannot be written (the app then
    logs to stderr only and keeps running). Calling it again replaces the handlers it added.
    """
    shutdown_logging()
    _loggers.extend(logging.getLogger(name) for name in ("amicus", *also))
    for logger in _loggers:
        logger.setLevel(level)
        logger.propagate = False
    root = logging.getLogger("amicus")
    formatter = ExtraFormatter()
    log_path: Path | None = None
    directory = log_dir if log_dir is not None else paths.log_dir()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        log_path = directory / file_name
        file_handler = logging.handlers.RotatingFileHandler(
            log_path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8"
        )
    except OSError:
        log_path = None
    else:
        file_handler.setFormatter(formatter)
        file_handler.addFilter(RedactFilter())
        _installed.append(file_handler)
    if stderr_level is not None:
        console = logging.StreamHandler(sys.stderr)
        console.setLevel(stderr_level)
        console.setFormatter(formatter)
        console.addFilter(RedactFilter())
        _installed.append(console)
    for logger in _loggers:
        for handler in _installed:
            logger.addHandler(handler)
    if log_path is None:
        root.warning("log directory %s is not writable; logging to stderr only", directory)
    return log_path


def log_file() -> Path | None:
    """The file :func:`setup_logging` is writing to, or ``None`` (not set up, or stderr only)."""
    for handler in _installed:
        if isinstance(handler, logging.handlers.RotatingFileHandler):
            return Path(handler.baseFilename)
    return None


def shutdown_logging() -> None:
    """Detach and close the handlers :func:`setup_logging` added."""
    for logger in _loggers:
        for handler in _installed:
            logger.removeHandler(handler)
        logger.propagate = True
    for handler in _installed:
        with contextlib.suppress(Exception):
            handler.close()
    _installed.clear()
    _loggers.clear()

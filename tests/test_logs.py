"""Logging (``logs.py``): no secrets and no question text in the log, stderr when the log folder cannot
be written."""

from __future__ import annotations

import logging
from pathlib import Path

from amicus_desktop import paths
from amicus_desktop.logs import RedactFilter, redact, setup_logging, shutdown_logging


def test_redaction() -> None:
    assert "abc123" not in redact("Authorization: Bearer abc123")
    assert "hunter2" not in redact("token=hunter2 and more")
    assert "sk-" in redact("key sk-ABCDEFGHIJKLMNOP") and "ABCDEFGH" not in redact("key sk-ABCDEFGHIJKLMNOP")


def test_log_file_never_holds_tokens_or_query_text(amicus_home: Path) -> None:
    path = setup_logging(stderr_level=None)
    try:
        assert path is not None and path.parent == paths.log_dir()
        log = logging.getLogger("amicus.ui")
        log.info("asked", extra={"query": "what is grace", "query_chars": 13, "token": "s3cret"})
        log.warning("upstream said Bearer s3cret-token")
        for handler in logging.getLogger("amicus").handlers:
            handler.flush()
        text = path.read_text()
        assert "query_chars=13" in text
        assert "what is grace" not in text and "s3cret" not in text
    finally:
        shutdown_logging()


def test_unwritable_log_dir_falls_back_to_stderr(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    try:
        assert setup_logging(log_dir=blocker / "logs") is None
    finally:
        shutdown_logging()


def test_redact_filter_keeps_records_flowing() -> None:
    record = logging.LogRecord("amicus.x", logging.INFO, __file__, 1, "token=%s", ("abc",), None)
    record.query = "secret question"
    assert RedactFilter().filter(record)
    assert not hasattr(record, "query") and "abc" not in record.getMessage()

"""Trace ids: the one every answer of the retrieval service carries, in its ``X-Trace-Id`` header and its
error body's ``trace_id``. No Qt, no I/O."""

from __future__ import annotations

import json
import secrets

#: the header an answer's trace id is sent in
TRACE_HEADER = "X-Trace-Id"


def new_trace_id() -> str:
    return secrets.token_hex(8)


def error_body(code: str, message: str, trace: str) -> bytes:
    """The contract's error body, ``{"error": {"code", "message"}, "trace_id"}``, as JSON."""
    return json.dumps({"error": {"code": code, "message": message}, "trace_id": trace}).encode("utf-8")

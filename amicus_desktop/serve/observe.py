"""Every answer traceable, every request logged — without the question, a token or a note.

:class:`Observe` is the outermost layer of the service (it wraps the whole Starlette app, error
handling included):

* it gives each request a trace id (``scope["state"]["trace_id"]``, read by the handlers), and puts it
  on **every** answer as ``X-Trace-Id``; an error body (status ≥ 400, JSON object) that lacks
  ``trace_id`` — a refusal made by a middleware that knows nothing of trace ids, such as the proxy's
  request limits — gets it added, so the header and the body always agree;
* it writes **one log line per request**: method, path (never the query string, where ``q`` is),
  status, duration and trace id. A client that went away before its answer is logged as status 499;
* anything that escapes the app is logged by its type alone (no traceback, whose text could hold
  request data) and answered ``500 INTERNAL`` if no answer had started.

Answers the HTTP server makes before the app sees a request (a head h11 cannot read, or still incomplete
past the head limit) come from the connection's protocol (:mod:`amicus_desktop.http.limits`): the same
JSON error and ``X-Trace-Id``, and a log line with the trace id.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..http.trace import TRACE_HEADER, new_trace_id
from .errors import internal

log = logging.getLogger("amicus.serve")

#: log status of a request whose client went away before the answer (nginx's convention)
CLIENT_GONE = 499
#: characters of a path kept in the log
MAX_LOGGED_PATH = 120


def trace_id_of(scope: Scope) -> str:
    """The trace id :class:`Observe` gave this request (a fresh one outside it, e.g. in a bare test app)."""
    state = scope.setdefault("state", {})
    trace: str = state.setdefault("trace_id", new_trace_id())
    return trace


def loggable_path(path: str) -> str:
    """``path`` safe for a log line: printable characters only, at most :data:`MAX_LOGGED_PATH`."""
    clean = "".join(ch if ch.isprintable() and ch not in "\"\\" else "?" for ch in path)
    return clean if len(clean) <= MAX_LOGGED_PATH else clean[: MAX_LOGGED_PATH - 1] + "…"


class Observe:
    """ASGI wrapper: trace id on every answer and in its body, one log line per request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        trace = new_trace_id()
        scope.setdefault("state", {})["trace_id"] = trace
        started = time.perf_counter()
        status = 0
        held: Message | None = None  # an error answer's start, held until its body is in
        body = b""
        gone = False

        async def send_traced(message: Message) -> None:
            nonlocal status, held, body, gone
            if message["type"] == "http.response.start":
                status = int(message["status"])
                headers = MutableHeaders(scope=message)
                headers[TRACE_HEADER] = trace
                if status >= 400 and headers.get("content-type", "").startswith("application/json"):
                    held = message
                    return
            elif message["type"] == "http.response.body" and held is not None:
                body += message.get("body", b"")
                if message.get("more_body", False):
                    return
                start, held = held, None
                body = _with_trace_id(body, trace)
                MutableHeaders(scope=start)["content-length"] = str(len(body))
                await _send(send, start)
                message = {"type": "http.response.body", "body": body, "more_body": False}
            if not await _send(send, message):
                gone = True

        try:
            await self.app(scope, receive, send_traced)
        except Exception as exc:  # a bug: its type in the log, no traceback, a plain 500 if nothing was sent
            log.error("internal error (%s)", type(exc).__name__, extra={"trace_id": trace})
            if status == 0:
                await _plain_500(send_traced, trace)
        finally:
            ms = (time.perf_counter() - started) * 1000
            shown = CLIENT_GONE if gone or status == 0 else status
            log.info("%s %s %d %.1f ms", scope.get("method", "?"), loggable_path(scope.get("path", "")), shown, ms,
                     extra={"trace_id": trace})


async def _send(send: Send, message: Message) -> bool:
    """Send ``message``; ``False`` when the client has gone (the answer is dropped, not an error)."""
    try:
        await send(message)
    except OSError:
        return False
    return True


def _with_trace_id(body: bytes, trace: str) -> bytes:
    """An error body with ``trace_id`` (the same as the header) when it is a JSON object without one."""
    try:
        data: Any = json.loads(body)
    except (ValueError, RecursionError):
        return body
    if not isinstance(data, dict) or data.get("trace_id") == trace:
        return body
    data["trace_id"] = trace
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


async def _plain_500(send: Send, trace: str) -> None:
    err = internal()
    raw = json.dumps({**err.to_json(), "trace_id": trace}).encode("utf-8")
    await send({"type": "http.response.start", "status": err.status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]})
    await send({"type": "http.response.body", "body": raw})

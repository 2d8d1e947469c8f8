"""ASGI middleware a local HTTP server puts in front of its routes: the ``Host`` check and the request
limits (:class:`RequestLimits`). No Qt.

A server on 127.0.0.1 without a token is reachable by any web page the user opens, through **DNS
rebinding**: the page's own host name (``evil.example``) is made to resolve to 127.0.0.1, and the
browser then lets the page call the server as if it were the page's own — the request arrives with
``Host: evil.example``. The embed proxy answered it (and with ``--backend openai`` spent the user's
key). A browser always sends the name it connected to, so a server that answers only requests
naming it by a loopback name — ``localhost``, ``127.x.x.x`` or ``[::1]``, with any port — is out of
a rebinding page's reach. Jupyter, the Vite and webpack dev servers do the same.

The rule (:func:`host_check_needed`): the check applies unless the server listens beyond this
machine *and* requires a token. Then clients name it by whatever address they reach it at, and the
token — which a web page does not have — is the guard. A request without any ``Host`` (HTTP/1.0,
which no browser sends) passes.

:class:`HostGuard` is used by the embed proxy (:mod:`amicus_desktop.proxy.server`) and is meant for
the retrieval service of the next issues; a refusal is ``403`` with the contract's error body
``{"error": {"code": "HOST_NOT_ALLOWED", "message": …}}``.
"""

from __future__ import annotations

import ipaddress
import json
import re

from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from .limits import MAX_HEAD_BYTES

#: host names that always mean this machine
LOOPBACK_NAMES = frozenset({"localhost", "localhost."})
REFUSAL_STATUS = 403
REFUSAL_CODE = "HOST_NOT_ALLOWED"
#: the HTTP versions a server answers
HTTP_VERSIONS = ("1.0", "1.1")

_HOST = re.compile(r"^(?:\[(?P<v6>[0-9A-Fa-f:.]+)\]|(?P<name>[^:\[\]]+))(?::(?P<port>\d{1,5}))?$")


def is_loopback_host(host: str) -> bool:
    """Whether a ``Host`` header value names this machine: ``localhost``, ``127.0.0.1``, ``[::1]``,
    each with or without ``:port``."""
    m = _HOST.match(host.strip())
    if not m:
        return False
    name = (m.group("v6") or m.group("name") or "").lower()
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def is_loopback_address(bind_host: str) -> bool:
    """Whether a server listening on ``bind_host`` (``127.0.0.1``, ``::1``, ``localhost``) is reachable
    from this machine only. ``0.0.0.0``, ``::`` and other addresses are not."""
    host = bind_host.strip().strip("[]").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_check_needed(bind_host: str, token_required: bool) -> bool:
    """The rule: check ``Host`` unless the server listens beyond this machine and requires a token."""
    return not (token_required and not is_loopback_address(bind_host))


class HostGuard:
    """ASGI middleware: HTTP (and WebSocket) requests whose ``Host`` is not a loopback name get 403."""

    def __init__(self, app: ASGIApp, *, enabled: bool = True) -> None:
        self.app = app
        self.enabled = enabled

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.enabled and scope["type"] in ("http", "websocket"):
            host = next((v for k, v in scope.get("headers", ()) if k == b"host"), None)
            if host is not None and not is_loopback_host(host.decode("latin-1")):
                await _refuse(scope, send)
                return
        await self.app(scope, receive, send)


async def _refuse(scope: Scope, send: Send) -> None:
    body = json.dumps({"error": {
        "code": REFUSAL_CODE,
        "message": "This server answers only requests addressed to localhost, 127.0.0.1 or [::1].",
    }}).encode("utf-8")
    if scope["type"] == "websocket":
        await send({"type": "websocket.close", "code": 1008})
        return
    await send({"type": "http.response.start", "status": REFUSAL_STATUS, "headers": [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode("ascii")),
        (b"connection", b"close"),
    ]})
    await send({"type": "http.response.body", "body": body})


def head_size(scope: Scope) -> int:
    """Bytes of a request's head as it came: the request line (its target with the query string) and
    the headers, with their separators."""
    query = scope.get("query_string") or b""
    line = len(scope.get("method", "")) + 1 + len(scope.get("raw_path") or b"") + (1 + len(query) if query else 0)
    return line + len(" HTTP/1.1\r\n") + sum(len(k) + 2 + len(v) + 2 for k, v in scope["headers"]) + 2


class RequestLimits:
    """ASGI middleware: HTTP/1.0 or 1.1 only (505) and at most ``max_head`` bytes of head — the request
    line with its query string, and the headers (431; the embed proxy's 16 KiB by default, the retrieval
    service's own). Used by both servers.

    h11 accepts any ``HTTP/d.d`` request line, and a head that arrives in one network read is
    never measured against its incomplete-head limit; both are checked here on what it parsed.
    """

    def __init__(self, app: ASGIApp, max_head: int = MAX_HEAD_BYTES) -> None:
        self.app = app
        self.max_head = max_head

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal: Response | None = None
            if scope.get("http_version") not in HTTP_VERSIONS:
                refusal = _error(505, "HTTP_VERSION_NOT_SUPPORTED", "Use HTTP/1.1.")
            elif head_size(scope) > self.max_head:  # a 120 KB URL was answered 200 when only headers counted
                refusal = _error(431, "HEADERS_TOO_LARGE",
                                 f"The request line and headers are larger than {self.max_head:,} bytes.")
            if refusal is not None:
                refusal.headers["Connection"] = "close"
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)

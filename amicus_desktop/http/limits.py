"""The connection limits of the project's servers (the embed proxy and the retrieval service): how
uvicorn is configured, and the one thing uvicorn lacks. No Qt.

uvicorn (0.30+, h11) gives a server most of what it needs as settings: the h11 parser (chosen
explicitly: ``http="auto"`` would switch to httptools where that is installed, with other
limits), a cap on an incomplete request head (``h11_max_incomplete_event_size``) and an idle
timeout between requests (``timeout_keep_alive``). What it lacks is a deadline on *receiving*
a request: its keep-alive timer is armed only after a response and cancelled by any byte, so a
client that trickles a header byte every second holds its connection — and a file descriptor —
for ever. 300 of them under a 256-descriptor limit (macOS's default) starved ``/health`` and
made asyncio log 26 MB of ``accept()`` tracebacks in 10 s.

It also answers the requests h11 itself refuses — a request head still incomplete past the head limit
(431), two ``Host`` headers or an HTTP/1.1 request without one (400) — with the contract's JSON error
``{"error": {"code", "message"}, "trace_id"}`` and an ``X-Trace-Id`` header, as the app answers every
other refusal (uvicorn sent ``text/plain``). After such an answer it stops writing and reads what the
client still sends for a moment before closing (a "lingering close"): closing at once, with request
bytes unread, makes the kernel send a reset, which can destroy the answer before the client reads it.

Three additions close the deadline gap, none of them parsing HTTP:

* :class:`LimitedH11Protocol` (uvicorn's own h11 protocol) adds **a request deadline**: a
  request's head and body must arrive within :data:`REQUEST_TIMEOUT` of the moment the
  connection starts waiting for it, however the bytes trickle; else the connection is closed;
* it also keeps **a connection cap** below the descriptor limit (:func:`connection_cap`): when one
  connection too many is open, the one that has waited longest for its request (idle keep-alive
  or a slow head) is closed, so a fresh client — the app's ``/health`` probe — is served at once;
* :class:`GatedListener`, the listening socket, accepts at most :data:`ACCEPTS_PER_PASS`
  connections per pass of the event loop. asyncio's accept loop would otherwise take up to 2,048
  in one go, before any of them reaches the cap, run out of descriptors, and (Python 3.11) log a
  traceback for each further try. Between passes the cap closes what it must, so ``accept()``
  never fails; should it fail anyway (descriptors used elsewhere), :class:`AcceptErrorFilter`
  turns asyncio's traceback per try into one line per minute.

uvicorn's ``limit_concurrency`` is left off on purpose: it counts slow connections too and would
answer 503 to the app while they hold the slots.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sys
import time
from http import HTTPStatus
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .trace import TRACE_HEADER, error_body, new_trace_id

log = logging.getLogger("amicus.proxy")

#: seconds for a request's head and body to arrive (a request is at most 1 MiB).
REQUEST_TIMEOUT = 10.0
#: seconds an idle keep-alive connection is kept.
KEEP_ALIVE_TIMEOUT = 5
#: bytes of request head h11 buffers while it is incomplete (a complete head is checked by the app).
MAX_HEAD_BYTES = 16 * 1024
#: connections kept open at most when the descriptor limit allows more.
MAX_CONNECTIONS = 1000
#: descriptors left free for everything else (model files, the log, a rotation, threads' pipes,
#: connections accepted in a pass before the cap closes others).
HEADROOM = 64
#: connections accepted per pass of the event loop (asyncio's own loop takes up to its backlog).
ACCEPTS_PER_PASS = 8
#: seconds, and bytes, a refused request's remaining bytes are read and dropped before the connection closes
LINGER_SECONDS = 2.0
LINGER_BYTES = 1024 * 1024


class _Connection(h11.Connection):
    """h11's connection, keeping the error that made it refuse the request (its status hint: 400 or 431)."""

    error: h11.RemoteProtocolError | None = None

    def next_event(self) -> Any:
        try:
            return super().next_event()
        except h11.RemoteProtocolError as exc:
            self.error = exc
            raise


def _refusal_of(error: h11.RemoteProtocolError | None, max_head: int) -> tuple[int, str, str]:
    """The status, code and sentence for a request h11 could not read."""
    if error is not None and error.error_status_hint == 431:
        return 431, "HEADERS_TOO_LARGE", f"The request line and headers are larger than {max_head:,} bytes."
    text = str(error) if error is not None else ""
    if "Host" in text:
        return 400, "BAD_REQUEST", "An HTTP/1.1 request needs exactly one Host header."
    return 400, "BAD_REQUEST", "The request is not valid HTTP/1.1: its request line or a header cannot be read."


def connection_cap() -> int:
    """How many connections to keep open at most: below this process's descriptor limit."""
    try:
        import resource
    except ImportError:  # Windows: no descriptor limit of this kind
        return MAX_CONNECTIONS
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(8, min(MAX_CONNECTIONS, soft - _open_descriptors() - HEADROOM))


def _open_descriptors() -> int:
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            return len(os.listdir(folder))
        except OSError:
            continue
    return 64 if sys.platform == "darwin" else 32  # a guess on the safe side


class LimitedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a request deadline and a connection cap (see the module docstring).

    ``max_connections`` and ``request_timeout`` are class attributes: uvicorn creates the protocol
    itself, so :func:`protocol_class` makes a subclass with the values of one server.
    """

    max_connections: int = MAX_CONNECTIONS
    request_timeout: float = REQUEST_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_head = self.config.h11_max_incomplete_event_size or MAX_HEAD_BYTES
        self.conn = _Connection(h11.SERVER, self.max_head)
        self._request_timer: asyncio.TimerHandle | None = None
        self.waiting_since: float | None = None  # loop time since the connection waits for a request
        self._lingering: int | None = None  # bytes dropped since a refusal, while the connection lingers

    # uvicorn's H11Protocol narrows asyncio's BaseTransport to Transport here (and ignores it the same way).
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._wait_for_request()
        if len(self.connections) > self.max_connections:
            self._shed_one()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._lingering is not None:  # a refused request's rest: dropped
            self._lingering += len(data)
            if self._lingering > LINGER_BYTES:
                self.transport.close()
            return
        super().data_received(data)

    def send_400_response(self, msg: str) -> None:
        """A request h11 refused: the contract's JSON error with a trace id (uvicorn sends plain text)."""
        status, code, message = _refusal_of(getattr(self.conn, "error", None), self.max_head)
        trace = new_trace_id()
        body = error_body(code, message, trace)
        head = (f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\ncontent-type: application/json\r\n"
                f"content-length: {len(body)}\r\n{TRACE_HEADER.lower()}: {trace}\r\nconnection: close\r\n\r\n")
        log.info("refused a request the HTTP parser could not take: %d %s", status, code, extra={"trace_id": trace})
        self.transport.write(head.encode("ascii") + body)
        self._linger()

    def handle_events(self) -> None:
        super().handle_events()
        if self.waiting_since is not None and self.conn.their_state not in (h11.IDLE, h11.SEND_BODY):
            self._stop_waiting()  # the whole request is in (or the connection is ending)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._wait_for_request()

    # -- internals -------------------------------------------------------------------------
    def _wait_for_request(self) -> None:
        self._stop_waiting()
        self.waiting_since = self.loop.time()
        self._request_timer = self.loop.call_later(self.request_timeout, self._too_slow)

    def _stop_waiting(self) -> None:
        self.waiting_since = None
        if self._request_timer is not None:
            self._request_timer.cancel()
            self._request_timer = None

    def _too_slow(self) -> None:
        self._request_timer = None
        if self.waiting_since is not None and not self.transport.is_closing():
            log.debug("closed a connection whose request did not arrive in time")
            self.transport.close()

    def _linger(self) -> None:
        """Stop writing, drop what the client still sends, and close at its end or after a moment."""
        self._stop_waiting()
        self._lingering = 0
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER_SECONDS, self.transport.close)

    def _shed_one(self) -> None:
        """Close the connection that has waited longest for a request (this one if none waits)."""
        waiting = [c for c in self.connections
                   if isinstance(c, LimitedH11Protocol) and c.waiting_since is not None and c is not self
                   and not c.transport.is_closing()]
        victim: LimitedH11Protocol = min(waiting, key=lambda c: c.waiting_since or 0.0) if waiting else self
        log.debug("over the connection cap: closed the connection waiting longest")
        victim.transport.close()


def protocol_class(*, max_connections: int, request_timeout: float = REQUEST_TIMEOUT) -> type[LimitedH11Protocol]:
    """A :class:`LimitedH11Protocol` subclass with these limits, for ``uvicorn.Config(http=...)``."""
    return type("ProxyH11Protocol", (LimitedH11Protocol,),
                {"max_connections": max_connections, "request_timeout": request_timeout})


class GatedListener(socket.socket):
    """The server's listening socket: at most :data:`ACCEPTS_PER_PASS` accepts per event-loop pass.

    asyncio calls :meth:`accept` in a loop while connections wait; a ``BlockingIOError`` ends that
    loop quietly, and the socket, still readable, is served again on the next pass — after the new
    connections' protocols have run and the cap has closed what it had to.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._this_pass = 0

    def accept(self) -> tuple[socket.socket, Any]:
        if self._this_pass >= ACCEPTS_PER_PASS:
            raise BlockingIOError("enough for this pass of the event loop")
        conn, address = super().accept()
        if self._this_pass == 0:
            asyncio.get_running_loop().call_soon(self._next_pass)
        self._this_pass += 1
        return conn, address

    def _next_pass(self) -> None:
        self._this_pass = 0


def listen(address: tuple[Any, ...]) -> GatedListener:
    """A :class:`GatedListener` bound to one ``socket.getaddrinfo`` entry and listening."""
    family, socktype, proto, _, addr = address
    sock = GatedListener(family, socktype, proto)
    try:
        if os.name != "nt":  # so a restarted proxy can take its port back at once
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(addr)
        sock.listen(1024)
        sock.set_inheritable(True)
    except OSError:
        sock.close()
        raise
    return sock


class AcceptErrorFilter(logging.Filter):
    """For the ``asyncio`` logger: "socket.accept() out of system resource" once a minute, no traceback."""

    def __init__(self, interval: float = 60.0) -> None:
        super().__init__()
        self.interval = interval
        self._last = -interval

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith("socket.accept() out of system resource"):
            return True
        now = time.monotonic()
        if now - self._last < self.interval:
            return False
        self._last = now
        record.msg, record.args, record.exc_info, record.exc_text = (
            "socket.accept() out of system resource (too many open files?): new connections wait", None, None, None)
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True

"""A uvicorn server as this process: the address it binds, the signals that end it, how it is configured,
and its end with its parent — one way for the embed proxy (:mod:`amicus_desktop.proxy.process`) and the
retrieval service (:mod:`amicus_desktop.cli.serve`). No Qt.

Until uvicorn takes SIGTERM/SIGINT over, :class:`StopRequest` only records them (raising from a handler
could break a model's loading half-way) and the start-up checks it between its steps; while it serves,
the server :func:`serve` runs ends with exit 0 instead of re-raising. With :data:`PARENT_ENV` set to its
parent's id, the server stops when that parent is gone (test harnesses set it, so a killed test run
leaves no server behind).
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # uvicorn (and h11, with the limits) load only when a server starts
    import uvicorn

#: One ``socket.getaddrinfo()`` entry: ``(family, type, proto, canonname, sockaddr)``.
AddrInfo = tuple[Any, ...]

#: set to a process id, the server stops when that process is gone (test harnesses set it so a
#: killed test run leaves no proxy or service behind).
PARENT_ENV = "AMICUS_PROXY_PARENT_PID"


def resolve_address(host: str, port: int) -> AddrInfo:
    """The address ``host`` resolves to first (the one the server binds)."""
    return socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)[0]


class StopRequest:
    """The SIGTERM/SIGINT handler until uvicorn takes the signals over: it only records the signal
    and stops the server if there is one yet; the start-up checks it between its steps. ``log`` is
    the server's logger (it says when a signal stopped it)."""

    def __init__(self, log: logging.Logger) -> None:
        self.log = log
        self.signal: int | None = None
        self.server: uvicorn.Server | None = None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.signal = signum
        if self.server is not None:
            self.server.should_exit = True

    def stopped(self, when: str) -> bool:
        if self.signal is None:
            return False
        self.log.info("stopped on %s %s", signal.Signals(self.signal).name, when)
        return True


@contextmanager
def stopping_on_signals(log: logging.Logger) -> Iterator[StopRequest]:
    """SIGTERM and SIGINT go to a new :class:`StopRequest` inside the block; the previous handlers
    come back after it."""
    stop = StopRequest(log)
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        yield stop
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def uvicorn_config(app: Any, log_level: str, *, lifespan: Literal["on", "off"] = "off",
                   max_head: int | None = None) -> uvicorn.Config:
    """uvicorn's settings for our servers: our logging (uvicorn's access log would show clients), no
    ``Server`` header, five seconds to finish open requests, and the connection limits of :mod:`.limits`
    (the h11 parser with a request deadline and a connection cap, ``max_head`` bytes of request head;
    :data:`~.limits.MAX_HEAD_BYTES` by default)."""
    import uvicorn

    from .limits import KEEP_ALIVE_TIMEOUT, MAX_HEAD_BYTES, connection_cap, protocol_class

    return uvicorn.Config(
        app,
        log_config=None,
        access_log=False,
        log_level=log_level,
        timeout_graceful_shutdown=5,
        lifespan=lifespan,
        server_header=False,
        http=protocol_class(max_connections=connection_cap()),
        h11_max_incomplete_event_size=MAX_HEAD_BYTES if max_head is None else max_head,
        timeout_keep_alive=KEEP_ALIVE_TIMEOUT,
    )


def serve(config: uvicorn.Config, sock: socket.socket, stop: StopRequest, announce: Callable[[], None]) -> int:
    """Serve ``config``'s app on ``sock`` until SIGTERM or SIGINT, then 0 (also when a signal came
    before it served). ``announce`` is called once the server is about to serve; ``sock`` is closed
    at the end."""
    server = make_server(config, stop)
    stop.server = server
    try:
        if stop.stopped("before serving"):
            return 0
        exit_with_parent(server, stop.log)
        announce()
        server.run(sockets=[sock])
    finally:
        sock.close()
    if stop.signal is not None:
        stop.log.info("stopped on %s", signal.Signals(stop.signal).name)
    return 0


def make_server(config: uvicorn.Config, stop: StopRequest) -> uvicorn.Server:
    """uvicorn's Server, except that SIGTERM/SIGINT end it with exit 0 instead of re-raising; the
    signal is recorded in ``stop`` (whose own handler uvicorn replaces while it serves)."""
    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            stop.signal = sig
            if self.should_exit and sig == signal.SIGINT:
                self.force_exit = True  # a second Ctrl-C: stop waiting for open requests
            else:
                self.should_exit = True

    return Server(config)


def exit_with_parent(server: uvicorn.Server, log: logging.Logger) -> None:
    """Stop ``server`` when the process :data:`PARENT_ENV` names (our parent) is gone."""
    value = os.environ.get(PARENT_ENV, "")
    if not value.isdigit() or os.getppid() != int(value):
        return
    parent = int(value)

    def watch() -> None:
        while not server.should_exit:
            if os.getppid() != parent:  # re-parented: the parent died
                log.warning("parent process %d is gone: stopping", parent)
                server.should_exit = True
                time.sleep(10)
                os._exit(1)  # graceful shutdown hung
            time.sleep(0.5)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


__all__ = ["PARENT_ENV", "AddrInfo", "StopRequest", "make_server", "resolve_address", "serve",
           "stopping_on_signals", "uvicorn_config"]

"""The embed proxy as a process: start-up checks, the model, uvicorn, signals, and its end.

:func:`run` loads the model (or asks the upstream for its dims) before it listens, tells the caller
where it listens (:class:`Listening`), serves until SIGTERM or SIGINT and returns 0 — also when a
signal comes while the model is still loading. ``port=0`` picks a free port. It logs through
:mod:`amicus_desktop.logs` (the ``amicus.proxy`` logger, uvicorn's loggers, the redacting filter) to
stderr and ``amicus-proxy.log``.

It refuses to start (:class:`ProxyRefused`, exit code 2) with a token variable that is set but
unusable (only whitespace, or characters a bearer token cannot hold), and on an address beyond this
machine without a token unless ``allow_remote_without_token`` says that is meant; exit code 1 when
the address cannot be bound or the model cannot be loaded. The ``amicus-desktop proxy`` sub-command
(``amicus_desktop/cli/proxy.py``) parses the flags into :class:`ProxyOptions` and prints.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import TYPE_CHECKING, Any

from ..config import TOKEN_ENV, token_problem
from ..core.text import echo
from ..embedding.openai import DEFAULT_API_KEY_ENV
from ..http.guards import is_loopback_address
from ..http.urls import redact_url, url_problem
from ..paths import DEFAULT_PROXY_HOST, DEFAULT_PROXY_PORT

if TYPE_CHECKING:  # uvicorn loads only when the proxy starts
    import uvicorn

log = logging.getLogger("amicus.proxy")


@dataclass(frozen=True)
class ProxyOptions:
    """How to run the proxy (the ``amicus-desktop proxy`` flags, by the same names)."""

    host: str = DEFAULT_PROXY_HOST
    #: 0: any free port
    port: int = DEFAULT_PROXY_PORT
    allow_remote_without_token: bool = False
    #: ``local``, ``e5`` or ``openai`` (:data:`amicus_desktop.embedding.BACKENDS`)
    backend: str = "local"
    #: openai backend: the upstream's base URL and model, and the vector length (``None``: ask it)
    upstream: str | None = None
    upstream_model: str | None = None
    dims: int | None = None
    #: openai backend: the environment variable holding the upstream API key
    api_key_env: str = DEFAULT_API_KEY_ENV
    #: the environment variable holding the token clients must send (required when set)
    token_env: str = TOKEN_ENV
    #: requests per second per client (bursts of twice as many); 0 turns the limit off
    rate_limit: float = 50.0
    log_level: str = "info"


@dataclass(frozen=True)
class Listening:
    """What the proxy serves, once it listens: its URL, the model, and where vectors come from
    (``local``, or ``via`` the upstream's URL without user, password or query)."""

    url: str
    model_id: str
    dims: int
    where: str
    token_required: bool


class ProxyRefused(Exception):
    """The proxy did not start: a sentence saying why, and the exit code it means (2: the options
    or the environment are wrong; 1: the address or the model failed)."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


class _StopRequest:
    """The SIGTERM/SIGINT handler until uvicorn takes the signals over: it only records the signal
    (raising from a handler could break the model's loading half-way) and stops the server if
    there is one yet; the start-up checks it between its steps."""

    def __init__(self) -> None:
        self.signal: int | None = None
        self.server: uvicorn.Server | None = None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.signal = signum
        if self.server is not None:
            self.server.should_exit = True

    def stopped(self, when: str) -> bool:
        if self.signal is None:
            return False
        log.info("stopped on %s %s", signal.Signals(self.signal).name, when)
        return True


def run(args: ProxyOptions, on_listening: Callable[[Listening], None]) -> int:
    """Serve until SIGTERM or SIGINT (then 0); :class:`ProxyRefused` if it cannot start.
    ``on_listening`` is called once, when the socket is bound and the model loaded."""
    from .. import logs
    from .limits import AcceptErrorFilter

    logs.setup_logging(getattr(logging, args.log_level.upper()), stderr_level=logging.DEBUG,
                       file_name=logs.PROXY_LOG_FILE, also=("uvicorn", "asyncio"))
    logging.getLogger("asyncio").addFilter(AcceptErrorFilter())
    # httpx/httpcore would log every upstream call (and its URL); keep them quiet.
    for name in ("httpx", "httpcore"):
        logging.getLogger(name).setLevel(logging.WARNING)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # nothing is ever downloaded at run time

    token, problem = _token(args.token_env)
    if problem:
        raise ProxyRefused(problem, 2)
    try:
        address = _address(args.host, args.port)
    except OSError as exc:
        raise ProxyRefused(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", 1) from None
    if not token and not is_loopback_address(address[4][0]):
        if not args.allow_remote_without_token:
            raise ProxyRefused(
                f"refusing to listen on {args.host} without a token: anyone who can reach this machine "
                f"could use the proxy. Set ${args.token_env}, or pass --allow-remote-without-token "
                "if that is what you want.", 2)
        log.warning("listening beyond this machine without a token: anyone who can reach it can "
                    "use it (set $%s)", args.token_env)
    if args.backend == "openai":
        if not args.upstream or not args.upstream_model:
            raise ProxyRefused("the openai backend needs --upstream URL and --upstream-model NAME", 2)
        problem = url_problem(args.upstream)
        if problem is not None:
            raise ProxyRefused(f"--upstream {problem}", 2)

    # Until uvicorn takes the signals over, SIGTERM/SIGINT end the start-up cleanly (exit 0).
    stop = _StopRequest()
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        return _serve(args, token, address, stop, on_listening)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _serve(args: ProxyOptions, token: str | None, address: _AddrInfo, stop: _StopRequest,
           on_listening: Callable[[Listening], None]) -> int:
    import uvicorn

    from ..embedding import BackendError, Embedder, get_backend
    from .limits import KEEP_ALIVE_TIMEOUT, MAX_HEAD_BYTES, connection_cap, listen, protocol_class
    from .server import create_app

    backend: Embedder
    try:
        if args.backend == "openai":
            backend = get_backend("openai", upstream=args.upstream, model=args.upstream_model,
                                  api_key_env=args.api_key_env, dims=args.dims)
        else:
            backend = get_backend(args.backend)
    except ValueError as exc:
        raise ProxyRefused(str(exc), 2) from None
    try:
        log.info("loading the embedding model (%s backend)", args.backend)
        backend.load()
        dims = backend.dims
    except BackendError as exc:
        backend.close()
        hint = " (or give --dims N to start without asking it)" if args.backend == "openai" else ""
        raise ProxyRefused(f"{exc.message}{hint}", 1) from None
    if stop.stopped("while the model was loading"):
        backend.close()
        return 0
    try:
        sock = listen(address)
    except OSError as exc:
        backend.close()
        raise ProxyRefused(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", 1) from None

    rate = args.rate_limit or None
    app = create_app(backend, token=token, bind_host=address[4][0], rate_limit=rate,
                     rate_burst=max(1, round(2 * args.rate_limit)))
    config = uvicorn.Config(
        app,
        log_config=None,  # keep our logging; uvicorn's access log is off (it would show clients)
        access_log=False,
        log_level=args.log_level,
        timeout_graceful_shutdown=5,
        lifespan="off",
        server_header=False,
        http=protocol_class(max_connections=connection_cap()),
        h11_max_incomplete_event_size=MAX_HEAD_BYTES,
        timeout_keep_alive=KEEP_ALIVE_TIMEOUT,
    )
    server = _make_server(config, stop)
    stop.server = server
    if stop.stopped("before serving"):
        sock.close()
        backend.close()
        return 0
    _exit_with_parent(server)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    where = f"via {echo(redact_url(args.upstream or ''))}" if args.backend == "openai" else "local"
    on_listening(Listening(f"http://{shown}:{port}", backend.model_id, dims, where, bool(token)))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        backend.close()
    if stop.signal is not None:
        log.info("stopped on %s", signal.Signals(stop.signal).name)
    return 0


def _token(env_name: str) -> tuple[str | None, str | None]:
    """``(token, problem)`` from ``$env_name``: an unset or empty variable means no token."""
    raw = os.environ.get(env_name, "")
    if not raw:
        return None, None
    problem = token_problem(raw)
    if problem:
        return None, f"the token in ${env_name} {problem}; set a usable token or unset the variable"
    return raw.strip(), None


def _make_server(config: uvicorn.Config, stop: _StopRequest) -> uvicorn.Server:
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


#: set to a process id, the proxy stops when that process is gone (test harnesses set it so a
#: killed test run leaves no proxy behind).
PARENT_ENV = "AMICUS_PROXY_PARENT_PID"


def _exit_with_parent(server: uvicorn.Server) -> None:
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


_AddrInfo = tuple[Any, ...]  # one socket.getaddrinfo() entry: (family, type, proto, canonname, sockaddr)


def _address(host: str, port: int) -> _AddrInfo:
    """The address ``host`` resolves to first (the one the proxy binds)."""
    return socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)[0]



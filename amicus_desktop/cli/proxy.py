"""``amicus-desktop proxy``: serve the embed proxy (CONTRACT section 2) with uvicorn.

Loads the model (or asks the upstream for its dims) before it listens, prints one line
``amicus-desktop proxy: listening on http://HOST:PORT (model ID, D dims)`` on stdout, and stops
cleanly (exit 0) on SIGTERM or SIGINT — also while the model is still loading. ``--port 0`` picks
a free port and prints it. It logs through :mod:`amicus_desktop.logs` (the ``amicus.proxy``
logger, uvicorn's loggers, the redacting filter) to stderr and ``amicus-proxy.log``.

It refuses to start (exit 2) with a token variable that is set but unusable (only whitespace, or
characters a bearer token cannot hold), and on an address beyond this machine without a token
unless ``--allow-remote-without-token`` says that is meant.
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import signal
import socket
import sys
import threading
import time
from types import FrameType
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from ..config import TOKEN_ENV, token_problem

if TYPE_CHECKING:  # uvicorn loads only when the proxy starts
    import uvicorn

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8731
DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"

log = logging.getLogger("amicus.proxy")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "proxy",
        help="serve the embed proxy (POST /ai/embed, GET /health)",
        description="Serve the embed proxy: a local embedding model (default) or an "
                    "OpenAI-compatible upstream behind POST /ai/embed and GET /health.",
    )
    p.add_argument("--host", default=DEFAULT_HOST,
                   help=f"address to listen on (default {DEFAULT_HOST}: this machine only)")
    p.add_argument("--port", type=_port, default=DEFAULT_PORT,
                   help=f"port to listen on, 0 for any free one (default {DEFAULT_PORT})")
    p.add_argument("--allow-remote-without-token", action="store_true",
                   help="listen beyond this machine even though no token is required (anyone who can "
                        "reach it can use it)")
    p.add_argument("--backend", choices=("local", "e5", "openai"), default="local",
                   help="local: all-MiniLM-L6-v2 on this machine (default); e5: multilingual-e5-small "
                        "on this machine (the e5 extra); openai: forward to an OpenAI-compatible "
                        "/v1/embeddings")
    p.add_argument("--upstream", metavar="URL",
                   help="openai backend: base URL of the upstream, e.g. https://api.openai.com")
    p.add_argument("--upstream-model", metavar="NAME",
                   help="openai backend: the model to ask for, e.g. text-embedding-3-small")
    p.add_argument("--dims", type=_positive_int, metavar="N",
                   help="openai backend: vector length (default: ask the upstream at start)")
    p.add_argument("--api-key-env", metavar="NAME", default=DEFAULT_API_KEY_ENV,
                   help=f"openai backend: environment variable holding the upstream API key "
                        f"(default {DEFAULT_API_KEY_ENV})")
    p.add_argument("--token-env", metavar="NAME", default=TOKEN_ENV,
                   help=f"environment variable holding the token clients must send; when it is "
                        f"set and non-empty the token is required (default {TOKEN_ENV})")
    p.add_argument("--rate-limit", type=_non_negative_float, default=50.0, metavar="N",
                   help="requests per second per client, bursts of 2N; 0 turns it off "
                        "(default 50)")
    p.add_argument("--log-level", default="info",
                   choices=("debug", "info", "warning", "error", "critical"),
                   help="log level on stderr and in the log file (default info); request bodies are "
                        "never logged")
    p.set_defaults(func=run)


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


def run(args: argparse.Namespace) -> int:
    from .. import logs
    from ..proxy.limits import AcceptErrorFilter

    logs.setup_logging(getattr(logging, args.log_level.upper()), stderr_level=logging.DEBUG,
                       file_name=logs.PROXY_LOG_FILE, also=("uvicorn", "asyncio"))
    logging.getLogger("asyncio").addFilter(AcceptErrorFilter())
    # httpx/httpcore would log every upstream call (and its URL); keep them quiet.
    for name in ("httpx", "httpcore"):
        logging.getLogger(name).setLevel(logging.WARNING)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # nothing is ever downloaded at run time

    token, problem = _token(args.token_env)
    if problem:
        return _refuse(problem, 2)
    try:
        address = _address(args.host, args.port)
    except OSError as exc:
        return _refuse(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", 1)
    if not token and not _is_loopback(address[4][0]):
        if not args.allow_remote_without_token:
            return _refuse(
                f"refusing to listen on {args.host} without a token: anyone who can reach this machine "
                f"could use the proxy. Set ${args.token_env}, or pass --allow-remote-without-token "
                "if that is what you want.", 2)
        log.warning("listening beyond this machine without a token: anyone who can reach it can "
                    "use it (set $%s)", args.token_env)
    if args.backend == "openai":
        if not args.upstream or not args.upstream_model:
            return _refuse("the openai backend needs --upstream URL and --upstream-model NAME", 2)
        parts = urlsplit(args.upstream)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return _refuse("--upstream must be an http:// or https:// URL", 2)

    # Until uvicorn takes the signals over, SIGTERM/SIGINT end the start-up cleanly (exit 0).
    stop = _StopRequest()
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        return _serve(args, token, address, stop)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _serve(args: argparse.Namespace, token: str | None, address: _AddrInfo, stop: _StopRequest) -> int:
    import uvicorn

    from ..embedding import BackendError, Embedder, get_backend
    from ..proxy.limits import KEEP_ALIVE_TIMEOUT, MAX_HEAD_BYTES, connection_cap, listen, protocol_class
    from ..proxy.server import create_app

    backend: Embedder
    try:
        if args.backend == "openai":
            backend = get_backend("openai", upstream=args.upstream, model=args.upstream_model,
                                  api_key_env=args.api_key_env, dims=args.dims)
        else:
            backend = get_backend(args.backend)
    except ValueError as exc:
        return _refuse(str(exc), 2)
    try:
        log.info("loading the embedding model (%s backend)", args.backend)
        backend.load()
        dims = backend.dims
    except BackendError as exc:
        backend.close()
        hint = " (or give --dims N to start without asking it)" if args.backend == "openai" else ""
        return _refuse(f"{exc.message}{hint}", 1)
    if stop.stopped("while the model was loading"):
        backend.close()
        return 0
    try:
        sock = listen(address)
    except OSError as exc:
        backend.close()
        return _refuse(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", 1)

    rate = args.rate_limit or None
    app = create_app(backend, token=token, bind_host=args.host, rate_limit=rate,
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
    where = f"via {_safe_url(args.upstream)}" if args.backend == "openai" else "local"
    print(f"amicus-desktop proxy: listening on http://{shown}:{port} "
          f"(model {backend.model_id}, {dims} dims, {where}; "
          f"token {'required' if token else 'not required'})", flush=True)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        backend.close()
    if stop.signal is not None:
        log.info("stopped on %s", signal.Signals(stop.signal).name)
    return 0


def _refuse(message: str, code: int) -> int:
    print(f"amicus-desktop proxy: {message}", file=sys.stderr)
    return code


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


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _safe_url(url: str | None) -> str:
    """The URL without user:password@ or a query string (either may hold a secret)."""
    if not url:
        return ""
    parts = urlsplit(url)
    netloc = parts.hostname or ""
    if ":" in netloc:
        netloc = f"[{netloc}]"
    if parts.port:
        netloc += f":{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def _port(value: str) -> int:
    try:
        port = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {value!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError("a port is 0..65535")
    return port


def _positive_int(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if n <= 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def _non_negative_float(value: str) -> float:
    try:
        x = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {value!r}") from None
    if not x >= 0 or x == float("inf"):
        raise argparse.ArgumentTypeError("must be 0 or more")
    return x

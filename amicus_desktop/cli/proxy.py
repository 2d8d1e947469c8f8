"""``amicus-desktop proxy``: serve the embed proxy (CONTRACT section 2) with uvicorn.

Loads the model (or asks the upstream for its dims) before it listens, prints one line
``amicus-desktop proxy: listening on http://HOST:PORT (model ID, D dims)`` on stdout, and stops
cleanly (exit 0) on SIGTERM or SIGINT. ``--port 0`` picks a free port and prints it.
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
from typing import Any
from urllib.parse import urlsplit, urlunsplit

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8731
DEFAULT_TOKEN_ENV = "AMICUS_PROXY_TOKEN"
DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"

log = logging.getLogger("amicus_desktop.proxy")


def register(subparsers: Any) -> None:
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
    p.add_argument("--backend", choices=("local", "openai"), default="local",
                   help="local: all-MiniLM-L6-v2 on this machine (default); openai: forward to "
                        "an OpenAI-compatible /v1/embeddings")
    p.add_argument("--upstream", metavar="URL",
                   help="openai backend: base URL of the upstream, e.g. https://api.openai.com")
    p.add_argument("--upstream-model", metavar="NAME",
                   help="openai backend: the model to ask for, e.g. text-embedding-3-small")
    p.add_argument("--dims", type=_positive_int, metavar="N",
                   help="openai backend: vector length (default: ask the upstream at start)")
    p.add_argument("--api-key-env", metavar="NAME", default=DEFAULT_API_KEY_ENV,
                   help=f"openai backend: environment variable holding the upstream API key "
                        f"(default {DEFAULT_API_KEY_ENV})")
    p.add_argument("--token-env", metavar="NAME", default=DEFAULT_TOKEN_ENV,
                   help=f"environment variable holding the token clients must send; when it is "
                        f"set and non-empty the token is required (default {DEFAULT_TOKEN_ENV})")
    p.add_argument("--rate-limit", type=_non_negative_float, default=50.0, metavar="N",
                   help="requests per second per client, bursts of 2N; 0 turns it off "
                        "(default 50)")
    p.add_argument("--log-level", default="info",
                   choices=("debug", "info", "warning", "error", "critical"),
                   help="log level on stderr (default info); request bodies are never logged")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    _configure_logging(args.log_level)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # nothing is ever downloaded at run time

    from ..proxy.backends import BackendError, get_backend

    if args.backend == "openai":
        if not args.upstream or not args.upstream_model:
            print("amicus-desktop proxy: the openai backend needs --upstream URL and "
                  "--upstream-model NAME", file=sys.stderr)
            return 2
        parts = urlsplit(args.upstream)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            print("amicus-desktop proxy: --upstream must be an http:// or https:// URL",
                  file=sys.stderr)
            return 2
        backend = get_backend("openai", upstream=args.upstream, model=args.upstream_model,
                              api_key_env=args.api_key_env, dims=args.dims)
        if not backend.has_api_key:
            log.warning("no API key in $%s: calling the upstream without one", args.api_key_env)
    else:
        backend = get_backend("local")

    try:
        backend.load()
        dims = backend.dims
    except BackendError as exc:
        hint = " (or give --dims N to start without asking it)" if args.backend == "openai" else ""
        print(f"amicus-desktop proxy: {exc.message}{hint}", file=sys.stderr)
        return 1

    token = os.environ.get(args.token_env) or None
    try:
        sock = _bind(args.host, args.port)
    except OSError as exc:
        print(f"amicus-desktop proxy: cannot listen on {args.host}:{args.port}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return 1

    if not token and not _is_loopback(sock.getsockname()[0]):
        log.warning("listening beyond this machine without a token: anyone who can reach it can "
                    "use it (set $%s)", args.token_env)

    import uvicorn

    from ..proxy.server import create_app

    rate = args.rate_limit or None
    app = create_app(backend, token=token, rate_limit=rate,
                     rate_burst=max(1, int(round(2 * args.rate_limit))))
    config = uvicorn.Config(
        app,
        log_config=None,  # keep our logging; uvicorn's access log is off (it would show clients)
        access_log=False,
        log_level=args.log_level,
        timeout_graceful_shutdown=5,
        lifespan="off",
        server_header=False,
    )
    server = _make_server(config)
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
        close = getattr(backend, "close", None)
        if close is not None:
            close()
    if server.stop_signal is not None:
        log.info("stopped on %s", signal.Signals(server.stop_signal).name)
    return 0


def _make_server(config: Any) -> Any:
    """uvicorn's Server, except that SIGTERM/SIGINT end it with exit 0 instead of re-raising."""
    import uvicorn

    class Server(uvicorn.Server):
        stop_signal: int | None = None

        def handle_exit(self, sig: int, frame: Any) -> None:
            self.stop_signal = sig
            if self.should_exit and sig == signal.SIGINT:
                self.force_exit = True  # a second Ctrl-C: stop waiting for open requests
            else:
                self.should_exit = True

    return Server(config)


#: set to a process id, the proxy stops when that process is gone (test harnesses set it so a
#: killed test run leaves no proxy behind).
PARENT_ENV = "AMICUS_PROXY_PARENT_PID"


def _exit_with_parent(server: Any) -> None:
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


def _bind(host: str, port: int) -> socket.socket:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
    family, socktype, proto, _, addr = infos[0]
    sock = socket.socket(family, socktype, proto)
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


def _configure_logging(level: str) -> None:
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root.addHandler(handler)
    root.setLevel(level.upper())
    # httpx/httpcore would log every upstream call (and its URL); keep them quiet.
    for name in ("httpx", "httpcore"):
        logging.getLogger(name).setLevel(logging.WARNING)


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

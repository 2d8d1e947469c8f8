"""``amicus-desktop serve``: the retrieval service (CONTRACT section 9) under uvicorn.

Prints one line ``amicus-desktop serve: listening on http://HOST:PORT (...)`` on stdout once it
listens, logs to stderr and ``amicus-serve-PORT.log`` (one line per request: method, path, status,
duration, trace id — never the question, a token or a note), and stops cleanly (exit 0) on SIGTERM
or SIGINT. ``--port 0`` picks a free port and prints it.

It refuses to start (exit 2) with a token it cannot use (``AMICUS_SERVE_TOKEN`` or ``--clients FILE``; on an
address beyond this machine, one shorter than 16 characters; a clients file with a key it does not know),
an overlays folder that is not one or holds a file that is not a valid overlay, and on an address beyond
this machine with no token unless ``--insecure-no-token`` says that is meant. Like the embed proxy it
answers only requests that name it by a loopback name (``Host: localhost``, ``127.0.0.1``, ``[::1]``: 403
``HOST_NOT_ALLOWED`` otherwise, against DNS rebinding) unless it listens beyond this machine *with* a token.

A missing or damaged library is not a reason to refuse: the service starts, ``/health`` says 503 and
``/retrieve`` the library's error, until the file is there (it is reopened by itself).

The connection limits are the embed proxy's (:mod:`amicus_desktop.http.limits`): a request deadline
for slow clients, a connection cap below the descriptor limit, gated accepts, HTTP/1.0–1.1 only; so are
its signals and its end with the parent (:mod:`amicus_desktop.http.lifecycle`).
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..embedding import IN_PROCESS
from ..http.guards import is_loopback_address
from ..http.lifecycle import AddrInfo, StopRequest, resolve_address, serve, stopping_on_signals, uvicorn_config
from .common import add_connection_args, library_from_args, library_name, non_negative_float_arg, port_arg

if TYPE_CHECKING:
    from ..serve.access import Client
    from ..serve.scope import Overlays

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8732
#: requests a minute per token by default (a reader asks a few a minute; a script more)
DEFAULT_RATE = 600.0

log = logging.getLogger("amicus.serve")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from ..serve.access import TOKEN_ENV
    from ..serve.library import DEFAULT_LANES

    p = sub.add_parser(
        "serve",
        help="serve the library over HTTP (GET /retrieve, /health, /openapi.json)",
        description="Serve the library to other programs: GET /retrieve answers a question with the "
                    "ranked chunks of 'query', as JSON (docs/CONTRACT.md section 9).",
    )
    add_connection_args(p)
    p.add_argument("--host", default=DEFAULT_HOST,
                   help=f"address to listen on (default {DEFAULT_HOST}: this machine only)")
    p.add_argument("--port", type=port_arg, default=DEFAULT_PORT,
                   help=f"port to listen on, 0 for any free one (default {DEFAULT_PORT})")
    p.add_argument("--clients", type=Path, metavar="FILE",
                   help='tokens and the workspaces each may use: {"clients": [{"token": "...", '
                        f'"workspaces": ["alice"]}}]}} (besides ${TOKEN_ENV}, which may use every workspace)')
    p.add_argument("--overlays", type=Path, metavar="DIR",
                   help="folder of the overlays requests may name (overlay=NAME for NAME.json), each checked at start")
    p.add_argument("--require-overlay", action="store_true",
                   help="answer only requests that name an overlay (400 NO_OVERLAY otherwise)")
    p.add_argument("--rate-limit", type=non_negative_float_arg, default=DEFAULT_RATE, metavar="N",
                   help=f"requests a minute per token (per address without tokens); 0 turns it off "
                        f"(default {DEFAULT_RATE:g})")
    p.add_argument("--insecure-no-token", action="store_true",
                   help="listen beyond this machine although no token is configured (anyone who can "
                        "reach it can read the library)")
    p.add_argument("--notes-store", metavar="URL",
                   help="where the workspaces' notes are: a postgresql:// URL (shared by every replica; "
                        "docs/DEPLOY.md) or a notes file (default: $AMICUS_NOTES_STORE, else the data folder's file)")
    p.add_argument("--allow-writes", action="store_true",
                   help="let /mcp's add_note save notes in the request's workspace (one its token may use)")
    p.add_argument("--embed", choices=("proxy", *IN_PROCESS), default="proxy",
                   help="where question vectors come from: the embed proxy (default; --proxy, "
                        "AMICUS_PROXY_URL), or a model in this process (local: all-MiniLM-L6-v2; local-int8: "
                        "the same with int8 arithmetic, for a library built with it; e5: "
                        "multilingual-e5-small), concurrent questions batched into one model call")
    p.add_argument("--lanes", type=int, default=DEFAULT_LANES, metavar="N",
                   help=f"searches run at once, each on its own database thread (default {DEFAULT_LANES})")
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error", "critical"),
                   help="log level on stderr and in the log file (default info)")
    p.set_defaults(func=run, parser=p)


def run(args: argparse.Namespace) -> int:
    from ..serve.access import TOKEN_ENV, ClientsError, configured_clients, short_token

    if not 1 <= args.lanes <= 16:
        args.parser.error("--lanes must be between 1 and 16")
    try:
        clients = configured_clients(args.clients)
    except ClientsError as exc:
        return _refuse(str(exc), 2)
    if args.overlays is not None and not args.overlays.is_dir():
        return _refuse(f"--overlays {args.overlays} is not a folder", 2)
    if args.require_overlay and args.overlays is None:
        return _refuse("--require-overlay needs --overlays DIR: the folder of the overlays requests may name", 2)
    from ..serve.scope import Overlays

    overlays = Overlays(args.overlays, required=args.require_overlay)
    invalid = overlays.check_all()
    if invalid:
        return _refuse("--overlays: " + "; ".join(invalid[:5]) + (" …" if len(invalid) > 5 else ""), 2)
    from ..notes.postgres import check_store, store_location

    args.notes_store = store_location(args.notes_store)
    problem = check_store(args.notes_store)
    if problem is not None:
        return _refuse(problem, 2)
    try:
        address = resolve_address(args.host, args.port)
    except OSError as exc:
        return _refuse(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", 1)
    if clients and not is_loopback_address(address[4][0]):
        weak = short_token(clients)
        if weak:
            return _refuse(weak, 2)
    if not clients and not is_loopback_address(address[4][0]):
        if not args.insecure_no_token:
            return _refuse(
                f"refusing to listen on {args.host} without a token: anyone who can reach this machine could "
                f"read the library. Set ${TOKEN_ENV} or give --clients FILE, or pass --insecure-no-token if "
                "that is what you want.", 2)
    with stopping_on_signals(log) as stop:
        return _serve(args, clients, address, stop, overlays)


def _serve(args: argparse.Namespace, clients: list[tuple[str, Client]], address: AddrInfo,
           stop: StopRequest, overlays: Overlays) -> int:
    from starlette.middleware import Middleware

    from .. import logs
    from ..http.guards import HostGuard, host_check_needed
    from ..http.limits import AcceptErrorFilter, listen
    from ..serve.access import Access
    from ..serve.app import MAX_HEAD, create_app
    from ..serve.library import Library

    try:
        sock = listen(address)
    except OSError as exc:
        return _refuse(f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}", 1)
    host, port = sock.getsockname()[:2]
    logs.setup_logging(getattr(logging, args.log_level.upper()), stderr_level=logging.WARNING,
                       file_name=logs.SERVE_LOG_FILE.format(port=port), also=("uvicorn", "asyncio"))
    logging.getLogger("asyncio").addFilter(AcceptErrorFilter())
    for name in ("httpx", "httpcore"):  # they would log every embed call and its URL
        logging.getLogger(name).setLevel(logging.WARNING)
    if not clients and not is_loopback_address(host):
        log.warning("listening beyond this machine without a token: anyone who can reach it can read the library")

    db, proxy_url, proxy_token = library_from_args(args)  # --db postgresql://…: a library on PostgreSQL
    embedder = None
    if args.embed != "proxy":  # the model in this process, loaded before the service listens
        from ..core.errors import AmicusError
        from ..embedding import get_backend
        from ..embedding.in_process import InProcessEmbedClient

        embedder = InProcessEmbedClient(get_backend(args.embed))
        try:
            embedder.load()
        except AmicusError as exc:
            return _refuse(exc.message, 1)
    library = Library(db, proxy_url, proxy_token, lanes=args.lanes, notes_store=args.notes_store,
                      embedder=embedder)
    access = Access(clients, rate_per_minute=args.rate_limit)
    # The Host check (DNS rebinding), the embed proxy's rule: only loopback names, unless the service
    # listens beyond this machine with a token. It runs inside the trace layer, so its refusals carry a
    # trace id and a log line like every other answer.
    guard = Middleware(HostGuard, enabled=host_check_needed(host, bool(clients)))
    app = create_app(library, access, overlays, middleware=[guard], allow_writes=args.allow_writes)
    # lifespan "on": it closes the library's threads and HTTP client on the way out
    config = uvicorn_config(app, args.log_level, lifespan="on", max_head=MAX_HEAD)
    shown = f"[{host}]" if ":" in host else host

    def announce() -> None:
        print(f"amicus-desktop serve: listening on http://{shown}:{port} (library {library_name(db)}; "
              f"token {'required' if clients else 'not required'})", flush=True)
        log.info("serving %s on port %d with %d lanes", library_name(db), port, args.lanes)

    return serve(config, sock, stop, announce)


def _refuse(message: str, code: int) -> int:
    print(f"amicus-desktop serve: {message}", file=sys.stderr)
    return code

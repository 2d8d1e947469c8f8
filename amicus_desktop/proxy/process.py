"""The embed proxy as a process: start-up checks, the model, uvicorn, signals, and its end.

:func:`run` loads the model (or asks the upstream for its dims) before it listens, tells the caller
where it listens (:class:`Listening`), serves until SIGTERM or SIGINT and returns 0 — also when a
signal comes while the model is still loading. ``port=0`` picks a free port. It logs through
:mod:`amicus_desktop.logs` (the ``amicus.proxy`` logger, uvicorn's loggers, the redacting filter) to
stderr and ``amicus-proxy.log``. Binding, uvicorn's settings, the signals and the end with the parent
are :mod:`amicus_desktop.http.lifecycle`'s, which the retrieval service runs under too.

It refuses to start (:class:`ProxyRefused`, exit code 2) with a token variable that is set but
unusable (only whitespace, or characters a bearer token cannot hold), and on an address beyond this
machine without a token unless ``allow_remote_without_token`` says that is meant; exit code 1 when
the address cannot be bound or the model cannot be loaded. The ``amicus-desktop proxy`` sub-command
(``amicus_desktop/cli/proxy.py``) parses the flags into :class:`ProxyOptions` and prints.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass

from ..config import TOKEN_ENV, token_problem
from ..core.text import echo
from ..embedding.openai import DEFAULT_API_KEY_ENV
from ..http.guards import is_loopback_address
from ..http.lifecycle import AddrInfo, StopRequest, resolve_address, serve, stopping_on_signals, uvicorn_config
from ..http.urls import redact_url, url_problem
from ..paths import DEFAULT_PROXY_HOST, DEFAULT_PROXY_PORT

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
    #: local and e5 backends: concurrent requests run as one model call of up to this many texts
    #: (:mod:`amicus_desktop.embedding.batching`); 1 runs each request alone
    batch: int = 32


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


def run(args: ProxyOptions, on_listening: Callable[[Listening], None]) -> int:
    """Serve until SIGTERM or SIGINT (then 0); :class:`ProxyRefused` if it cannot start.
    ``on_listening`` is called once, when the socket is bound and the model loaded."""
    from .. import logs
    from ..http.limits import AcceptErrorFilter

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
        address = resolve_address(args.host, args.port)
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
    with stopping_on_signals(log) as stop:
        return _serve(args, token, address, stop, on_listening)


def _serve(args: ProxyOptions, token: str | None, address: AddrInfo, stop: StopRequest,
           on_listening: Callable[[Listening], None]) -> int:
    from ..embedding import BackendError, Embedder, get_backend
    from ..http.limits import listen
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

    if args.backend != "openai" and args.batch > 1:  # an upstream answers concurrent calls side by side
        from ..embedding.batching import BatchingEmbedder

        backend = BatchingEmbedder(backend, max_texts=args.batch)
    rate = args.rate_limit or None
    app = create_app(backend, token=token, bind_host=address[4][0], rate_limit=rate,
                     rate_burst=max(1, round(2 * args.rate_limit)))
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    where = f"via {echo(redact_url(args.upstream or ''))}" if args.backend == "openai" else "local"
    listening = Listening(f"http://{shown}:{port}", backend.model_id, dims, where, bool(token))
    try:
        return serve(uvicorn_config(app, args.log_level), sock, stop, lambda: on_listening(listening))
    finally:
        backend.close()


def _token(env_name: str) -> tuple[str | None, str | None]:
    """``(token, problem)`` from ``$env_name``: an unset or empty variable means no token."""
    raw = os.environ.get(env_name, "")
    if not raw:
        return None, None
    problem = token_problem(raw)
    if problem:
        return None, f"the token in ${env_name} {problem}; set a usable token or unset the variable"
    return raw.strip(), None

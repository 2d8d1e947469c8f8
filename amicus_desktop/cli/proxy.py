"""``amicus-desktop proxy``: serve the embed proxy (CONTRACT section 2).

The flags and what is printed live here; the process itself — the start-up checks, loading the
model, uvicorn, signals and the exit — is :mod:`amicus_desktop.proxy.process`. It prints one line
``amicus-desktop proxy: listening on http://HOST:PORT (model ID, D dims, …)`` on stdout when it
listens, and a refusal as ``amicus-desktop proxy: <why>`` on stderr (exit 2 for wrong options or
environment, 1 when the address or the model fails).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys

from ..embedding import BACKENDS
from ..proxy.process import Listening, ProxyOptions, ProxyRefused
from ..proxy.process import run as run_proxy
from .common import non_negative_float_arg, port_arg, positive_int_arg

_DEFAULTS = ProxyOptions()


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "proxy",
        help="serve the embed proxy (POST /ai/embed, GET /health)",
        description="Serve the embed proxy: a local embedding model (default) or an "
                    "OpenAI-compatible upstream behind POST /ai/embed and GET /health.",
    )
    p.add_argument("--host", default=_DEFAULTS.host,
                   help=f"address to listen on (default {_DEFAULTS.host}: this machine only)")
    p.add_argument("--port", type=port_arg, default=_DEFAULTS.port,
                   help=f"port to listen on, 0 for any free one (default {_DEFAULTS.port})")
    p.add_argument("--allow-remote-without-token", action="store_true",
                   help="listen beyond this machine even though no token is required (anyone who can "
                        "reach it can use it)")
    p.add_argument("--backend", choices=BACKENDS, default=_DEFAULTS.backend,
                   help="local: all-MiniLM-L6-v2 on this machine (default); e5: multilingual-e5-small "
                        "on this machine (the e5 extra); openai: forward to an OpenAI-compatible "
                        "/v1/embeddings")
    p.add_argument("--upstream", metavar="URL",
                   help="openai backend: base URL of the upstream, e.g. https://api.openai.com")
    p.add_argument("--upstream-model", metavar="NAME",
                   help="openai backend: the model to ask for, e.g. text-embedding-3-small")
    p.add_argument("--dims", type=positive_int_arg, metavar="N",
                   help="openai backend: vector length (default: ask the upstream at start)")
    p.add_argument("--api-key-env", metavar="NAME", default=_DEFAULTS.api_key_env,
                   help=f"openai backend: environment variable holding the upstream API key "
                        f"(default {_DEFAULTS.api_key_env})")
    p.add_argument("--token-env", metavar="NAME", default=_DEFAULTS.token_env,
                   help=f"environment variable holding the token clients must send; when it is "
                        f"set and non-empty the token is required (default {_DEFAULTS.token_env})")
    p.add_argument("--rate-limit", type=non_negative_float_arg, default=_DEFAULTS.rate_limit, metavar="N",
                   help=f"requests per second per client, bursts of 2N; 0 turns it off "
                        f"(default {_DEFAULTS.rate_limit:g})")
    p.add_argument("--batch", type=positive_int_arg, default=_DEFAULTS.batch, metavar="N",
                   help=f"local and e5 backends: requests that arrive while the model is busy are embedded "
                        f"together in one model call of up to N texts; 1 runs each request alone "
                        f"(default {_DEFAULTS.batch})")
    p.add_argument("--log-level", default=_DEFAULTS.log_level,
                   choices=("debug", "info", "warning", "error", "critical"),
                   help=f"log level on stderr and in the log file (default {_DEFAULTS.log_level}); request "
                        f"bodies are never logged")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    options = ProxyOptions(**{f.name: getattr(args, f.name) for f in dataclasses.fields(ProxyOptions)})
    try:
        return run_proxy(options, _announce)
    except ProxyRefused as refused:
        print(f"amicus-desktop proxy: {refused.message}", file=sys.stderr)
        return refused.exit_code


def _announce(listening: Listening) -> None:
    print(f"amicus-desktop proxy: listening on {listening.url} "
          f"(model {listening.model_id}, {listening.dims} dims, {listening.where}; "
          f"token {'required' if listening.token_required else 'not required'})", flush=True)

"""Who may call the service, and how often (CONTRACT section 9). No Qt, no I/O but reading the clients file.

Tokens come from ``AMICUS_SERVE_TOKEN`` (one token, every workspace) and/or ``--clients FILE``
(``{"clients": [{"token": "...", "workspaces": ["alice"]}, ...]}``: each token may use the workspaces
its entry lists). With neither, every caller is let in (the service then binds loopback only, unless
told otherwise). A token arrives as ``Authorization: Bearer <token>`` and is compared in constant time
against every configured token (SHA-256 digests, so lengths leak nothing, and no early exit, so which
entry matched leaks nothing either). The token is checked before the rate limit, so an unauthenticated
flood never touches a client's bucket. Tokens are kept only as digests and never logged. A key the
clients file does not have (a misspelt ``"workspace"``) stops the service at start, and so does a token
shorter than :data:`MIN_REMOTE_TOKEN` characters when it listens beyond this machine.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import token_problem
from ..proxy.server import RateLimiter
from .errors import ServiceCode, ServiceError
from .params import WORKSPACE_ID

TOKEN_ENV = "AMICUS_SERVE_TOKEN"
#: characters a token needs when the service listens beyond this machine (anyone on the network may guess)
MIN_REMOTE_TOKEN = 16
#: the keys of the clients file and of each of its entries (any other is a mistake, refused at start)
FILE_KEYS = ("clients",)
ENTRY_KEYS = ("token", "workspaces")
#: the clients file is read whole; past this it is not a clients file
MAX_CLIENTS_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class Client:
    """A caller the service knows: ``label`` names it in logs (never the token); ``workspaces`` ``None``
    means every workspace."""

    label: str
    workspaces: frozenset[str] | None = None

    def may_use(self, workspace: str) -> bool:
        return self.workspaces is None or workspace in self.workspaces


#: The caller when no token is configured: anyone who can reach the port, every workspace.
ANYONE = Client("anyone")


class ClientsError(ValueError):
    """The clients file or the token variable cannot be used; the message says why (exit 2)."""


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).digest()


class Access:
    """The configured tokens (as digests) and their clients, and the per-client rate limit."""

    def __init__(self, clients: Sequence[tuple[str, Client]] = (), *, rate_per_minute: float = 0) -> None:
        self._entries = [(_digest(token), client) for token, client in clients]
        self._limiter = (RateLimiter(rate_per_minute / 60.0, max(1, math.ceil(rate_per_minute)))
                         if rate_per_minute > 0 else None)

    @property
    def required(self) -> bool:
        """Whether a token is needed at all."""
        return bool(self._entries)

    def authenticate(self, authorization: str | None) -> Client:
        """The client the ``Authorization`` header names, or 401 ``UNAUTHORIZED``."""
        if not self._entries:
            return ANYONE
        challenge = {"WWW-Authenticate": "Bearer"}
        scheme, _, value = (authorization or "").partition(" ")
        value = value.strip()
        if scheme.lower() != "bearer" or not value:
            raise ServiceError(ServiceCode.UNAUTHORIZED,
                               "This service needs a token: send Authorization: Bearer <token>.", challenge)
        given = _digest(value)
        found: Client | None = None
        for digest, client in self._entries:  # every entry, whatever matched: the time says nothing
            if hmac.compare_digest(given, digest) and found is None:
                found = client
        if found is None:
            raise ServiceError(ServiceCode.UNAUTHORIZED, "The token is wrong.", challenge)
        return found

    def admit(self, client: Client, address: str | None) -> None:
        """429 ``RATE_LIMITED`` (with ``Retry-After``) when ``client`` is over its rate."""
        if self._limiter is None:
            return
        key = client.label if client is not ANYONE else f"address:{address or 'unknown'}"
        wait = self._limiter.acquire(key)
        if wait > 0:
            raise ServiceError(ServiceCode.RATE_LIMITED, "Too many requests for this token; slow down and retry.",
                               {"Retry-After": str(max(1, math.ceil(wait)))})

    @staticmethod
    def permit(client: Client, workspace: str | None) -> None:
        """403 ``WORKSPACE_FORBIDDEN`` when ``client`` may not use ``workspace``."""
        if workspace is not None and not client.may_use(workspace):
            raise ServiceError(ServiceCode.WORKSPACE_FORBIDDEN, f"This token may not use the workspace {workspace!r}.")


def configured_clients(clients_file: Path | None, environ: dict[str, str] | None = None) -> list[tuple[str, Client]]:
    """The tokens of ``$AMICUS_SERVE_TOKEN`` (every workspace) and of ``clients_file``; :class:`ClientsError`
    when either cannot be used."""
    env = os.environ if environ is None else environ
    out: list[tuple[str, Client]] = []
    raw = env.get(TOKEN_ENV, "")
    if raw:
        problem = token_problem(raw)
        if problem:
            raise ClientsError(f"the token in ${TOKEN_ENV} {problem}; set a usable token or unset the variable")
        out.append((raw.strip(), Client("environment")))
    if clients_file is not None:
        out += read_clients(clients_file)
    tokens = [token for token, _ in out]
    if len(set(tokens)) != len(tokens):
        raise ClientsError("the same token is given twice (in the clients file, or there and in "
                           f"${TOKEN_ENV}); give each client its own token")
    return out


def short_token(clients: Sequence[tuple[str, Client]]) -> str | None:
    """Which configured token is shorter than :data:`MIN_REMOTE_TOKEN` characters (never the token itself),
    or ``None``: what a service listening beyond this machine refuses to start with."""
    for token, client in clients:
        if len(token) < MIN_REMOTE_TOKEN:
            where = f"${TOKEN_ENV}" if client.label == "environment" else f"the clients file's {client.label}"
            length = f"{len(token)} character{'' if len(token) == 1 else 's'}"
            return (f"the token of {where} is {length} long; listening beyond this machine "
                    f"needs tokens of at least {MIN_REMOTE_TOKEN} characters (e.g. python -c "
                    "'import secrets; print(secrets.token_urlsafe(24))')")
    return None


def _unknown_key(data: dict[str, Any], known: tuple[str, ...], where: str) -> None:
    for key in data:
        if key not in known:
            shown = key if len(key) <= 40 else key[:39] + "…"
            raise ClientsError(f"{where}: unknown key {shown!r} (the keys are: {', '.join(known)})")


def read_clients(path: Path) -> list[tuple[str, Client]]:
    """``{"clients": [{"token", "workspaces"}]}`` from ``path``; :class:`ClientsError` naming the first problem."""
    try:
        if not path.is_file():
            raise ClientsError(f"the clients file {path} does not exist or is not a file")
        if path.stat().st_size > MAX_CLIENTS_BYTES:
            raise ClientsError(f"the clients file {path} is larger than {MAX_CLIENTS_BYTES:,} bytes")
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ClientsError(f"cannot read the clients file {path}: {type(exc).__name__}") from None
    except (ValueError, RecursionError) as exc:
        raise ClientsError(f"the clients file {path} is not valid JSON ({str(exc)[:80]})") from None
    if not isinstance(data, dict) or not isinstance(data.get("clients"), list):
        raise ClientsError(f'{path}: expected {{"clients": [{{"token": "...", "workspaces": [...]}}, ...]}}')
    _unknown_key(data, FILE_KEYS, f"{path}: /")
    out: list[tuple[str, Client]] = []
    for i, entry in enumerate(data["clients"]):
        where = f"{path}: /clients/{i}"
        if not isinstance(entry, dict):
            raise ClientsError(f"{where}: not an object")
        _unknown_key(entry, ENTRY_KEYS, where)
        token, workspaces = entry.get("token"), entry.get("workspaces", [])
        if not isinstance(token, str):
            raise ClientsError(f"{where}/token: missing or not a string")
        problem = token_problem(token)
        if problem:
            raise ClientsError(f"{where}/token: the token {problem}")
        if not isinstance(workspaces, list) or not all(isinstance(w, str) for w in workspaces):
            raise ClientsError(f"{where}/workspaces: not a list of workspace ids")
        for j, w in enumerate(workspaces):
            if not WORKSPACE_ID.fullmatch(w):
                raise ClientsError(f"{where}/workspaces/{j}: a workspace id is 1–64 characters of a-z, 0-9 and '-'")
        out.append((token.strip(), Client(f"client {i + 1}", frozenset(workspaces))))
    return out

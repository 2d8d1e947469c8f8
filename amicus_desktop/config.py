"""Where the connection comes from: one resolution of the database path, the proxy URL and the token. No Qt.

Every part of the app (the command line, the desktop app, ``scripts/dev.sh``) resolves these three
values here, in one order — the first that gives a value wins:

1. a command-line flag (``--db``, ``--proxy``; there is no token flag, because a command line is
   visible to every user of the machine in ``ps``);
2. the environment (:data:`DB_ENV`, :data:`PROXY_URL_ENV`, :data:`TOKEN_ENV`; an empty variable
   counts as unset);
3. the saved settings (``settings.json``, see :mod:`amicus_desktop.settings`);
4. the default (:func:`amicus_desktop.paths.default_db_path`, :data:`amicus_desktop.paths.DEFAULT_PROXY_URL`,
   no token).

Each value comes back with its :data:`Source`, so a settings dialog can say "value in use, and
where it comes from". The other environment variables each have one home beside the code they
steer: ``AMICUS_HOME`` (:mod:`amicus_desktop.paths`), ``AMICUS_SQLITE_VEC_PATH``
(:mod:`amicus_desktop.store.sqlite`), ``AMICUS_EMBED_THREADS``/``AMICUS_EMBED_SPIN``
(:mod:`amicus_desktop.embedding.local`), ``AMICUS_PROXY_PARENT_PID`` (:mod:`amicus_desktop.http.lifecycle`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, Literal, TypeVar

from . import paths
from .settings import Settings, SettingsStore

DB_ENV = "AMICUS_DB"
PROXY_URL_ENV = "AMICUS_PROXY_URL"
#: the token clients send (``Authorization: Bearer``) and, by default, the one the proxy requires.
TOKEN_ENV = "AMICUS_PROXY_TOKEN"

Source = Literal["flag", "environment", "settings", "default"]
T = TypeVar("T")


@dataclass(frozen=True)
class Resolved(Generic[T]):
    """A value in use and where it came from."""

    value: T
    source: Source

    @property
    def overridden(self) -> bool:
        """Given for this run only (a flag or the environment): it hides the saved setting."""
        return self.source in ("flag", "environment")


@dataclass(frozen=True)
class Connection:
    """The database, the embed proxy and its token, each with its source."""

    db_path: Resolved[Path]
    proxy_url: Resolved[str]
    token: Resolved[str | None] = field(repr=False)  # a secret: never in a repr or a log

    def values(self) -> tuple[Path, str, str | None]:
        """``(db path, proxy URL, token)``."""
        return self.db_path.value, self.proxy_url.value, self.token.value


def resolve_connection(
    *,
    db: str | os.PathLike[str] | None = None,
    proxy: str | None = None,
    settings: Settings | None = None,
    environ: Mapping[str, str] | None = None,
) -> Connection:
    """Resolve the connection from flags (``db``, ``proxy``), the environment, ``settings``, defaults.

    ``settings=None`` leaves the saved settings out (the desktop app applies its own, which the
    user can change while it runs); ``environ`` defaults to ``os.environ``. Surrounding
    whitespace is dropped from the token (a pasted token often ends in a newline).
    """
    env = os.environ if environ is None else environ
    db_choice = _pick(os.fspath(db) if db else None, env.get(DB_ENV), settings.db_path if settings else None)
    url_choice = _pick(proxy, env.get(PROXY_URL_ENV), settings.proxy_url if settings else None)
    token_choice = _pick(None, _stripped(env.get(TOKEN_ENV)), _stripped(settings.token) if settings else None)
    return Connection(
        db_path=(Resolved(Path(db_choice.value).expanduser(), db_choice.source) if db_choice
                 else Resolved(paths.default_db_path(), "default")),
        proxy_url=(Resolved(url_choice.value.strip().rstrip("/"), url_choice.source) if url_choice
                   else Resolved(paths.DEFAULT_PROXY_URL, "default")),
        token=Resolved(token_choice.value, token_choice.source) if token_choice else Resolved(None, "default"),
    )


def _pick(flag: str | None, environment: str | None, saved: str | None) -> Resolved[str] | None:
    """The first non-empty of the three, with its source."""
    if flag:
        return Resolved(flag, "flag")
    if environment:
        return Resolved(environment, "environment")
    if saved:
        return Resolved(saved, "settings")
    return None


def _stripped(token: str | None) -> str | None:
    return token.strip() if token else None


def load_settings() -> Settings:
    """The saved settings, read without ever writing (a damaged file is ignored, not set aside)."""
    return SettingsStore(read_only=True).load()


def seconds_from_env(name: str, default: float, low: float) -> float:
    """``$name`` as a number of seconds (``default`` when unset or empty); ``ValueError`` saying why when it
    is not a number or is below ``low`` (each caller raises it as its own error: the library's, the notes')."""
    raw = os.environ.get(name, "").strip()
    try:
        value = float(raw) if raw else default
    except ValueError:
        raise ValueError(f"${name} must be a number of seconds.") from None
    if not value >= low:  # NaN too
        raise ValueError(f"${name} must be at least {low:g}.")
    return value


def token_problem(token: str) -> str | None:
    """What makes ``token`` unusable in ``Authorization: Bearer …``, or ``None`` when it is fine.

    HTTP header values carry printable ASCII; a space inside would end the token early.
    """
    if not token.strip():
        return "is empty or only whitespace"
    if not token.isascii():
        return "holds characters outside ASCII, which an HTTP header cannot carry"
    if not token.isprintable() or any(c.isspace() for c in token.strip()):
        return "holds spaces or control characters, which cannot be part of a bearer token"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m amicus_desktop.config db_path|proxy_url``: print the value in use, for scripts.

    ``scripts/dev.sh`` asks this rather than reading the variables itself (never the token).
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1 or args[0] not in ("db_path", "proxy_url"):
        print("usage: python -m amicus_desktop.config {db_path,proxy_url}\n"
              "Print the database path or proxy URL in use.", file=sys.stderr)
        return 2
    name = args[0]
    connection = resolve_connection(settings=load_settings())
    print(connection.db_path.value if name == "db_path" else connection.proxy_url.value)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Options shared by the sub-commands that talk to a database and a proxy."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from .. import paths
from ..config import DB_ENV, PROXY_URL_ENV, Connection, load_settings, resolve_connection

_N = TypeVar("_N", int, float)


def text_arg(value: str) -> str:
    """An argparse type: text that is valid UTF-8.

    Bytes that are not UTF-8 reach Python as lone surrogates (``surrogateescape``); SQLite, the
    proxy and the terminal all refuse those later, with a traceback. Said here, as a usage error.
    """
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise argparse.ArgumentTypeError(
            f"{value.encode('utf-8', 'surrogateescape').decode('utf-8', 'replace')!r} is not valid UTF-8 text"
        ) from None
    return value


def port_arg(value: str) -> int:
    """An argparse type: a port number, 0 (any free port) to 65535."""
    port = _parsed(value, int, "a port number")
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError("a port is 0..65535")
    return port


def positive_int_arg(value: str) -> int:
    """An argparse type: a whole number of at least 1 (a count, a size)."""
    n = _parsed(value, int, "a whole number")
    if n <= 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return n


def non_negative_float_arg(value: str) -> float:
    """An argparse type: a finite number of at least 0 (a rate; 0 turns it off)."""
    x = _parsed(value, float, "a number")
    if not x >= 0 or x == float("inf"):
        raise argparse.ArgumentTypeError("must be 0 or more")
    return x


def _parsed(value: str, convert: Callable[[str], _N], noun: str) -> _N:
    """``convert(value)``, or the usage error "not <noun>: '<value>'"."""
    try:
        return convert(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not {noun}: {value!r}") from None


def add_connection_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", metavar="PATH", type=text_arg,
                   help=f"scripture.db (default: ${DB_ENV}, the saved setting, or {paths.default_db_path()})")
    p.add_argument("--proxy", metavar="URL", type=text_arg,
                   help=f"embed proxy (default: ${PROXY_URL_ENV}, the saved setting, or {paths.DEFAULT_PROXY_URL})")


def resolve_args(args: argparse.Namespace) -> Connection:
    """The connection for this command: flags, then the environment, the saved settings, the defaults.

    The token is never a flag (flags show up in ``ps``); see :mod:`amicus_desktop.config`.
    """
    return resolve_connection(db=args.db, proxy=args.proxy, settings=load_settings())


def connection_from_args(args: argparse.Namespace) -> tuple[Path, str, str | None]:
    """``(db path, proxy URL, token)`` as :func:`resolve_args` resolves them."""
    return resolve_args(args).values()


def library_from_args(args: argparse.Namespace) -> tuple[Path | str, str, str | None]:
    """As :func:`connection_from_args`, but ``--db postgresql://…`` (a library on PostgreSQL) stays a URL."""
    from ..store.pg import is_postgres_url

    db, proxy, token = connection_from_args(args)
    return (args.db if is_postgres_url(args.db) else db), proxy, token


def library_name(db: Path | str) -> str:
    """How a command names the library it reads: a file by its name, a URL without its password."""
    from ..store.pg.schema import shown

    return db.name if isinstance(db, Path) else shown(db)

"""Options shared by the sub-commands that talk to a database and a proxy."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from .. import paths

DB_ENV = "AMICUS_DB"
PROXY_ENV = "AMICUS_PROXY_URL"
TOKEN_ENV = "AMICUS_PROXY_TOKEN"


def add_connection_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", metavar="PATH", help=f"scripture.db (default: ${DB_ENV} or {paths.default_db_path()})")
    p.add_argument("--proxy", metavar="URL", help=f"embed proxy (default: ${PROXY_ENV} or {paths.DEFAULT_PROXY_URL})")


def connection_from_args(args: argparse.Namespace) -> tuple[Path, str, str | None]:
    """``(db path, proxy URL, token)``: flags first, then the environment, then the defaults.

    The token is read only from the environment, never from a flag (flags show up in ``ps``).
    """
    db = Path(args.db or os.environ.get(DB_ENV) or paths.default_db_path())
    proxy = args.proxy or os.environ.get(PROXY_ENV) or paths.DEFAULT_PROXY_URL
    token = os.environ.get(TOKEN_ENV) or None
    return db, proxy, token

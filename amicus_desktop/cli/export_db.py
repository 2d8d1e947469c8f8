"""``amicus-desktop export-db LIBRARY --to postgresql://…``: a SQLite library copied into PostgreSQL.

One transaction (:func:`amicus_desktop.store.pg.export.export_library`): the new library takes the old one's
place when it is whole, and a failure leaves the database as it was. Re-running with the same library does
nothing (``--replace`` writes it again). The URL is printed without its password. Exit 0 on success, 1 on
a library or database error (the contract's code and sentence on stderr), 2 on a usage error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .common import text_arg


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "export-db",
        help="copy a library (scripture.db) into PostgreSQL, for serve --db postgresql://…",
        description="Copy a library into a PostgreSQL database with pgvector, in one transaction: chunks, "
                    "metadata, books, verses, scholars, vectors and the keyword index (docs/DEPLOY.md).",
    )
    p.add_argument("library", type=Path, metavar="LIBRARY", help="the scripture.db to copy")
    p.add_argument("--to", required=True, metavar="URL", type=text_arg,
                   help="the database: postgresql://USER@HOST/DB (the password from ~/.pgpass or PGPASSWORD)")
    p.add_argument("--replace", action="store_true",
                   help="write the library again even when the database holds this one already")
    p.set_defaults(func=run, parser=p)


def run(args: argparse.Namespace) -> int:
    from ..core.errors import AmicusError
    from ..store.pg import is_postgres_url
    from ..store.pg.export import export_library
    from ..store.pg.schema import shown

    if not is_postgres_url(args.to):
        args.parser.error("--to must be a postgresql:// URL")
    target = shown(args.to)
    try:
        report = export_library(args.library, args.to, replace=args.replace,
                                progress=lambda m: print(f"export-db: {m}", file=sys.stderr, flush=True))
    except AmicusError as exc:
        print(f"amicus-desktop export-db: {exc.code.value}: {exc.message}", file=sys.stderr)
        return 1
    if report.unchanged:
        print(f"{target} holds this library already ({report.chunks:,} chunks); nothing written")
    else:
        print(f"exported {args.library.name} to {target}: {report.chunks:,} chunks, {report.vectors:,} vectors, "
              f"{report.terms:,} terms, {report.verses:,} verses in {report.seconds:.1f} s")
    return 0

"""The ``amicus-desktop`` command line (CONTRACT section 4).

Each sub-command lives in its own module with ``register(subparsers)``, which adds its parser and
sets ``func`` to a callable ``(args) -> int``. With no sub-command the desktop app opens; Qt is
imported only then, so ``query``, ``doctor``, ``proxy`` and ``build-db`` run without a display.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from .. import __version__

#: sub-command modules, in the order ``--help`` lists them.
SUBCOMMANDS = ("query", "doctor", "proxy", "build_db", "bench")


class ArgumentParser(argparse.ArgumentParser):
    """argparse exits 2 on usage errors, as the contract wants; this keeps it so in sub-parsers."""


def build_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="amicus-desktop",
        description="A desktop study companion with retrieval you can see into.",
    )
    parser.add_argument("--version", action="version", version=f"amicus-desktop {__version__}")
    # Options of the desktop app itself (no sub-command).
    parser.add_argument("--db", metavar="PATH", help="scripture.db to open")
    parser.add_argument("--proxy", metavar="URL", help="embed proxy base URL")
    parser.add_argument("--screenshot", metavar="PNG", help="save the main window as PNG and exit")
    parser.add_argument("--query", metavar="TEXT", help="question to ask at start-up")
    parser.add_argument("--chapter", metavar="BOOK:CHAPTER", help="chapter to open, e.g. romans:9")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=ArgumentParser)
    for name in SUBCOMMANDS:
        try:
            module = importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as exc:  # a sub-command whose module is not written yet
            if exc.name != f"{__name__}.{name}":
                raise
            continue
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        from ..ui.app import run_app  # imports Qt; only the desktop app needs it

        return run_app(args)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())

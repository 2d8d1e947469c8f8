"""The ``amicus-desktop`` command line (CONTRACT section 4).

Each sub-command lives in its own module with ``register(subparsers)``, which adds its parser and
sets ``func`` to a callable ``(args) -> int``. With no sub-command the desktop app opens; Qt is
imported only then, so ``query``, ``doctor``, ``proxy`` and ``build-db`` run without a display.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from .. import __version__
from .common import text_arg
from .output import safe_streams
from .search_args import refuse_too_many_values

#: sub-command modules, in the order ``--help`` lists them.
SUBCOMMANDS = ("query", "verses", "study", "context", "eval", "golden", "notes", "relevance", "doctor", "proxy",
               "serve", "mcp", "build_db", "export_db", "ingest", "validate", "bench")


#: the desktop app's own options (each takes a value): a command line of only these opens the app
APP_OPTIONS = ("--db", "--proxy", "--screenshot", "--query", "--chapter")


def build_parser(commands: Sequence[str] = SUBCOMMANDS) -> argparse.ArgumentParser:
    """The parser, with the sub-commands ``commands`` (the app's command line needs none of them)."""
    parser = argparse.ArgumentParser(
        prog="amicus-desktop",
        description="A desktop study companion with retrieval you can see into.",
    )
    parser.add_argument("--version", action="version", version=f"amicus-desktop {__version__}")
    # Options of the desktop app itself (no sub-command).
    parser.add_argument("--db", metavar="PATH", type=text_arg, help="scripture.db to open")
    parser.add_argument("--proxy", metavar="URL", type=text_arg, help="embed proxy base URL")
    parser.add_argument("--screenshot", metavar="PNG", type=text_arg, help="save the main window as PNG and exit")
    parser.add_argument("--query", metavar="TEXT", type=text_arg, help="question to ask at start-up")
    parser.add_argument("--chapter", metavar="BOOK:CHAPTER", type=text_arg, help="chapter to open, e.g. romans:9")
    # argparse exits 2 on bad flags, as the contract wants for usage errors.
    if not commands:
        parser.set_defaults(command=None)
        return parser
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in commands:
        importlib.import_module(f".{name}", __name__).register(sub)
    return parser


def only_app_options(argv: Sequence[str]) -> bool:
    """Whether ``argv`` holds nothing but the app's own options and their values: then the sub-commands'
    modules are not imported at all (their servers, benchmarks and evaluations: ~ 10 MB of the app's memory)."""
    i = 0
    while i < len(argv):
        arg = argv[i]
        if any(arg.startswith(f"{o}=") for o in APP_OPTIONS):
            i += 1
        elif arg in APP_OPTIONS and i + 1 < len(argv):
            i += 2
        else:
            return False
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command. Everything it writes goes through :func:`.output.safe_streams` (control
    characters escaped, nothing the terminal cannot encode)."""
    with safe_streams():
        argv = list(argv) if argv is not None else None
        parser = build_parser(() if only_app_options(sys.argv[1:] if argv is None else argv) else SUBCOMMANDS)
        refuse_too_many_values(sys.argv[1:] if argv is None else argv, parser)
        args = parser.parse_args(argv)
        if getattr(args, "preset", None) is not None:
            from .search_args import apply_preset

            args = apply_preset(parser, argv, args)
        if getattr(args, "overlay", None) and getattr(args, "overlay_sets_flags", False):
            from .search_args import apply_overlay

            args = apply_overlay(parser, argv, args)
        if args.command is None:
            from ..allocator import fix_mmap_threshold

            fix_mmap_threshold()  # before the app's libraries allocate: ~ 6 MB less resident (allocator.py)
            from ..ui.app import AppOptions, run_app  # imports Qt; only the desktop app needs it

            return run_app(AppOptions(args.db, args.proxy, args.screenshot, args.query, args.chapter))
        try:
            return int(args.func(args) or 0)
        except BrokenPipeError:  # e.g. `amicus-desktop query ... | head`: the reader left, not an error
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
            return 0


if __name__ == "__main__":
    sys.exit(main())

"""``amicus-desktop context TEXT``: the retrieved chunks as a prompt-ready block (CONTRACT section 8).

Runs the same retrieval as ``query`` (every query flag applies) and prints the block within
``--budget`` tokens: ``text`` (default), ``markdown``, or ``json``
(``{"budget", "used_tokens", "included", "dropped", "text"}``). Exit codes as ``query``.
"""

from __future__ import annotations

import argparse
import asyncio
import json

from ..context import DEFAULT_BUDGET, Format, WordPieceCounter, assemble
from ..core.errors import AmicusError
from ..notes import NotesError
from ..present import citation
from . import output
from .common import add_connection_args
from .query import retrieve
from .search_args import add_search_args, check_search_args


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "context",
        help="print the retrieved chunks as a prompt-ready block within a token budget",
        description="Retrieve as 'query' does and print the results grouped by source, in Bible order, "
        "with a citation line each, within --budget tokens.",
    )
    p.add_argument("text", metavar="TEXT", help="the question")
    add_connection_args(p)
    add_search_args(p)
    p.add_argument("--budget", type=int, default=DEFAULT_BUDGET, metavar="TOKENS",
                   help=f"the most tokens the block may use (default {DEFAULT_BUDGET})")
    p.add_argument("--format", choices=[f.value for f in Format], default=Format.TEXT.value)
    p.set_defaults(func=run, parser=p)


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args.parser
    check_search_args(args, parser)
    if args.budget < 1:
        parser.error("--budget must be at least 1")
    fmt = Format(args.format)
    try:
        result, names = asyncio.run(retrieve(args, parser))
    except (AmicusError, NotesError) as err:  # NotesError: the --workspace's store
        return output.print_failure(err, as_json=fmt is Format.JSON)
    block = assemble(result.results, budget=args.budget, count=WordPieceCounter(),
                     cite=lambda r: citation(r, names), fmt=fmt)
    print(json.dumps(block.to_json(), ensure_ascii=False) if fmt is Format.JSON else block.text)
    return 0

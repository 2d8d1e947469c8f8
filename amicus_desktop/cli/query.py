"""``amicus-desktop query TEXT``: one retrieval from the command line (CONTRACT sections 4, 6 and 7).

Exit 0 with results, 1 with a contract error (``{"error": {...}}`` under ``--json``), 2 on bad flags.
``query --replay TRACE.json`` asks a kept answer's question again and says what changed (:mod:`.replay`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import textwrap
from pathlib import Path

from ..core.errors import AmicusError
from ..core.names import DEFAULT_NAMES, Names
from ..core.query import RetrievalContext
from ..core.results import RetrievalResult
from ..notes import NotesError
from ..present import snippet, title
from ..present.factors import boost_labels
from ..retrieval import Retriever, validate_query
from . import output
from .common import add_connection_args, library_from_args
from .search_args import add_search_args, check_search_args, context_from_args


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "query",
        help="ask one question and print the ranked chunks",
        description="Search scripture.db for TEXT (by meaning, words or both) and print the re-ranked results.",
    )
    p.add_argument("text", metavar="TEXT", nargs="?", help="the question (or --replay)")
    add_connection_args(p)
    add_search_args(p)
    p.add_argument("--json", action="store_true", help="print one JSON object (the retrieval bundle)")
    p.add_argument("--replay", type=Path, metavar="TRACE.json",
                   help="ask the question of a kept answer (query --json, /retrieve, MCP search_library) again and "
                        "say what changed: exit 0 reproduced, 3 changed")
    p.set_defaults(func=run, parser=p)


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args.parser
    if args.replay is not None:
        if args.text is not None:
            parser.error("give TEXT or --replay TRACE.json, not both")
        from .replay import run_replay

        return run_replay(args)
    if args.text is None:
        parser.error("the question TEXT is required")
    check_search_args(args, parser)
    try:
        result, names = asyncio.run(retrieve(args, parser))
    except (AmicusError, NotesError) as err:  # NotesError: the --workspace's store
        return output.print_failure(err, as_json=args.json)
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print(format_table(result, names))
    return 0


async def retrieve(args: argparse.Namespace, parser: argparse.ArgumentParser) -> tuple[RetrievalResult, Names]:
    """The retrieval the flags describe, and the database's names (shared with ``context``)."""
    validate_query(args.text)  # QUERY_INVALID before any I/O
    db, proxy, token = library_from_args(args)
    retriever = Retriever(db, proxy, token)
    try:
        await retriever.open()
        book_ids, names = await retriever.run_db(lambda store: (store.book_ids(), store.names()))
        ctx: RetrievalContext = context_from_args(args, book_ids, parser)
        return await retriever.retrieve(ctx), names
    finally:
        await retriever.aclose()


def _num(value: float | None, width: int = 6) -> str:
    return f"{value:{width}.4f}" if value is not None else f"{'—':>{width}}"


def format_table(result: RetrievalResult, names: Names = DEFAULT_NAMES) -> str:
    """A readable table: mode and understanding, warnings, results, rejected candidates, timings."""
    trace = result.trace
    lines = [
        f"{len(result.results)} results · {trace.mode.value} search · "
        f"model {result.model.id} ({result.model.dims} dims)"
    ]
    if trace.overlay:
        lines.append(f"overlay: {trace.overlay}")
    if trace.references:
        lines.append("references: " + ", ".join(r.label() for r in trace.references))
    if trace.filters.active:
        f = trace.filters.to_json()
        lines.append("filters: " + "; ".join(f"{k} {', '.join(v)}" for k, v in f.items() if v))
    for w in result.warnings:
        lines.append(f"warning: {w.code.value}: {w.message}")
    lines.append("")
    header = f"{'#':>2}  {'score':>6}  {'base':>6}  {'sim':>6}  {'words':>6}  {'boosts':<30} title"
    lines += [header, "-" * len(header)]
    for r in result.results:
        c = r.candidate
        b = r.breakdown
        boosts = ", ".join(boost_labels(b)) or "—"
        if r.pinned:
            boosts = "pinned" + (f", {boosts}" if boosts != "—" else "")
        if len(boosts) > 30:  # the column's width: cut with a mark, never mid-name without one
            boosts = boosts[:29] + "…"
        lines.append(
            f"{r.rank:>2}  {r.score:6.4f}  {_num(b.base)}  {_num(b.similarity)}  {_num(b.lexical)}  "
            f"{boosts:<30.30} {title(c, names)}"
        )
        lines.append(f"{'':>2}  {textwrap.shorten(snippet(c), width=110, placeholder=' …')}")
    if result.rejected:
        lines += ["", f"Rejected ({len(result.rejected)}):"]
        for rej in result.rejected:
            rule = f"  ({rej.rule.value})" if rej.rule is not None else ""
            lines.append(f"  {rej.chunk_id:<40.40} {rej.reason.value:<16} sim {_num(rej.similarity)}  "
                         f"score {rej.score:.4f}{rule}")
    t = result.timings
    cached = " (vector from the cache)" if trace.embedding_cached else ""
    lines += [
        "",
        f"embed {t.embed:.1f} ms{cached} · search {t.search:.1f} ms · "
        f"rerank {t.rerank:.2f} ms · total {t.total:.1f} ms",
    ]
    return "\n".join(lines)

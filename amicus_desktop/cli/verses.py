"""``amicus-desktop verses TEXT``: search the Bible text itself (CONTRACT section 14).

Exit 0 with results, 1 with a contract error (``{"error": {...}}`` under ``--json``;
``VERSES_NOT_INDEXED`` for a search by meaning on a database without verse vectors), 2 on bad flags
(an unknown book or translation included).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import textwrap

from ..core.errors import AmicusError
from ..core.query import SearchMode
from ..retrieval import Retriever, validate_query
from ..verses import VerseQuery, VerseSearch, VerseSearchResult
from ..verses.model import DEFAULT_K, MAX_K, VerseBreakdown
from .common import add_connection_args, connection_from_args
from .search_args import TESTAMENTS, resolve_books


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "verses",
        help="search the Bible text itself: find the verse you are thinking of",
        description="Search the verses of the Bible (not the study chunks) for TEXT, by meaning, words or both, "
                    "and print each verse with why it ranks where it does.",
    )
    p.add_argument("text", metavar="TEXT", help="a topic, a question or the verse in your own words")
    add_connection_args(p)
    p.add_argument("--mode", choices=[m.value for m in SearchMode], default=SearchMode.HYBRID.value,
                   help="hybrid (meaning and words, the default), semantic (meaning) or keyword (words; no proxy)")
    p.add_argument("--book", metavar="B", action="append", default=[], help="only verses of this book (repeatable)")
    p.add_argument("--testament", metavar="OT|NT", action="append", default=[],
                   help="only verses of the Old or New Testament (adds its books to --book)")
    p.add_argument("--k", type=int, default=DEFAULT_K, help=f"how many results (1..{MAX_K}, default {DEFAULT_K})")
    p.add_argument("--translation", metavar="T", help="the translation to search and show (e.g. web, kjv; "
                   "default: the database's default)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run, parser=p)


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args.parser
    if not 1 <= args.k <= MAX_K:
        parser.error(f"--k must be between 1 and {MAX_K}")
    for t in args.testament:
        if t.lower() not in TESTAMENTS:
            parser.error(f"--testament takes OT or NT, not {t!r}")
    try:
        result = asyncio.run(search(args, parser))
    except AmicusError as err:
        if args.json:
            print(json.dumps(err.to_json(), ensure_ascii=False))
        else:
            print(f"error: {err.code.value}: {err.message}", file=sys.stderr)
        return 1
    except ValueError as exc:  # an unknown translation: a usage error
        parser.error(str(exc))
    print(json.dumps(result.to_json(), ensure_ascii=False) if args.json else format_table(result))
    return 0


async def search(args: argparse.Namespace, parser: argparse.ArgumentParser) -> VerseSearchResult:
    validate_query(args.text)  # QUERY_INVALID before any I/O
    db, proxy, token = connection_from_args(args)
    retriever = Retriever(db, proxy, token)
    try:
        await retriever.open()
        engine = VerseSearch(retriever)
        library = await engine.library()
        books = resolve_books(args, set(library.books), parser)
        query = VerseQuery(args.text, SearchMode(args.mode), books, args.k, args.translation)
        return await engine.search(query)
    finally:
        await retriever.aclose()


def why(b: VerseBreakdown) -> str:
    """The signals that count, written out: ``sim 0.61 · words 0.40 · note 0.52 · G5206 0.33 · ±1 0.20``."""
    parts = []
    for label, value in (("sim", b.similarity), ("words", b.keyword), ("phrase", b.phrase), ("note", b.commentary),
                         ("note words", b.commentary_keyword), ("lexicon", b.lexicon),
                         ("lexicon words", b.lexicon_keyword)):
        if value:
            parts.append(f"{label} {value:.2f}")
    if b.neighbour:
        parts.append(f"neighbour {b.neighbour:.2f}")
    if b.reference_boost != 1.0:
        parts.append(f"×{b.reference_boost:g} reference")
    return " · ".join(parts) or "—"


def format_table(result: VerseSearchResult) -> str:
    lines = [f"{len(result.results)} verses · {result.mode.value} search · {result.translation_name}"
             + (f" ({result.translation_abbreviation})" if result.translation_abbreviation else "")]
    for w in result.warnings:
        lines.append(f"warning: {w.code.value}: {w.message}")
    lines.append("")
    for hit in result.results:
        lines.append(f"{hit.rank:>2}  {hit.score:6.3f}  {hit.reference:<24} {why(hit.breakdown)}")
        lines.append(textwrap.indent(textwrap.fill(hit.text, width=100), "    "))
    t = result.timing_ms
    lines += ["", " · ".join(f"{k} {v:.1f} ms" for k, v in t.items())]
    return "\n".join(lines)

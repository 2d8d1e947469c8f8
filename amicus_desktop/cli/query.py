"""``amicus-desktop query TEXT``: one retrieval from the command line (CONTRACT section 4).

Exit 0 with results, 1 with a contract error (``{"error": {...}}`` under ``--json``), 2 on bad flags.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import textwrap

from ..core.errors import AmicusError
from ..core.types import (
    DEFAULT_CANDIDATES,
    DEFAULT_K,
    MAX_CANDIDATES,
    MAX_K,
    Profile,
    RetrievalContext,
    RetrievalResult,
)
from ..retrieval import Retriever, resolve_chapter, validate_limits, validate_query
from .common import add_connection_args, connection_from_args


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "query",
        help="ask one question and print the ranked chunks",
        description="Embed TEXT through the proxy, search scripture.db and print the re-ranked results.",
    )
    p.add_argument("text", metavar="TEXT", help="the question")
    add_connection_args(p)
    p.add_argument("--chapter", metavar="BOOK:CHAPTER", help="current chapter for the ×1.5 boost, e.g. romans:9")
    p.add_argument("--prefer-scholar", metavar="ID", action="append", default=[], help="boost this scholar ×1.1 (repeatable)")
    p.add_argument("--prefer-tradition", metavar="NAME", action="append", default=[], help="boost this tradition ×1.05 (repeatable)")
    p.add_argument("--k", type=int, default=DEFAULT_K, help=f"results to return, 1..{MAX_K} (default {DEFAULT_K})")
    p.add_argument(
        "--candidates", type=int, default=DEFAULT_CANDIDATES,
        help=f"nearest rows to re-rank, k..{MAX_CANDIDATES} (default {DEFAULT_CANDIDATES})",
    )
    p.add_argument("--min-similarity", type=float, metavar="X", help="reject candidates whose similarity is below X")
    p.add_argument("--json", action="store_true", help="print one JSON object (CONTRACT section 4)")
    p.set_defaults(func=run, parser=p)


def run(args: argparse.Namespace) -> int:
    try:
        validate_limits(args.k, args.candidates)
    except ValueError as exc:
        args.parser.error(str(exc))  # exits 2
    if args.chapter is not None:
        try:
            resolve_chapter(args.chapter, ())  # the form only; the book is resolved against the DB
        except ValueError as exc:
            args.parser.error(str(exc))
    try:
        result = asyncio.run(_query(args))
    except AmicusError as err:
        if args.json:
            print(json.dumps(err.to_json(), ensure_ascii=False))
        else:
            print(f"error: {err.code.value}: {err.message}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        print(format_table(result))
    return 0


async def _query(args: argparse.Namespace) -> RetrievalResult:
    validate_query(args.text)  # QUERY_INVALID before any I/O
    db, proxy, token = connection_from_args(args)
    retriever = Retriever(db, proxy, token)
    try:
        chapter = None
        if args.chapter is not None:
            book_ids = await retriever.run_db(lambda store: store.book_ids())
            chapter = resolve_chapter(args.chapter, book_ids)
        ctx = RetrievalContext(
            query=args.text,
            profile=Profile.of(args.prefer_scholar, args.prefer_tradition),
            chapter=chapter,
            k=args.k,
            candidates=args.candidates,
            min_similarity=args.min_similarity,
        )
        return await retriever.retrieve(ctx)
    finally:
        await retriever.aclose()


def boost_labels(b) -> list[str]:  # noqa: ANN001 - ScoreBreakdown
    """The boosts applied, written out: ``["×1.5 chapter", "×1.1 scholar"]``."""
    labels = []
    for value, name in ((b.chapter_boost, "chapter"), (b.scholar_boost, "scholar"), (b.tradition_boost, "tradition")):
        if value != 1.0:
            labels.append(f"×{value:g} {name}")
    return labels


def format_table(result: RetrievalResult) -> str:
    """A readable table of results, then rejected candidates and timings."""
    lines = [f"{len(result.results)} results · model {result.model.id} ({result.model.dims} dims)", ""]
    header = f"{'#':>2}  {'score':>6}  {'sim':>6}  {'boosts':<28} {'reference':<20} {'scholar':<18} type"
    lines += [header, "-" * len(header)]
    for r in result.results:
        c = r.candidate
        m = c.metadata
        lines.append(
            f"{r.rank:>2}  {r.score:6.4f}  {r.breakdown.similarity:6.4f}  "
            f"{', '.join(boost_labels(r.breakdown)) or '—':<28} {m.reference() or '—':<20.20} "
            f"{m.scholar_id or '—':<18.18} {c.source_type}"
        )
        snippet = textwrap.shorten(c.text, width=110, placeholder=" …")
        lines.append(f"{'':>2}  {snippet}")
    if result.rejected:
        lines += ["", f"Rejected ({len(result.rejected)}):"]
        for rej in result.rejected:
            lines.append(f"  {rej.chunk_id:<40.40} {rej.reason.value:<16} sim {rej.similarity:.4f}  score {rej.score:.4f}")
    t = result.timings
    lines += ["", f"embed {t.embed:.1f} ms · search {t.search:.1f} ms · rerank {t.rerank:.2f} ms · total {t.total:.1f} ms"]
    return "\n".join(lines)

"""``amicus-desktop xrefs REF`` and ``amicus-desktop strongs NUMBER``: the study aids from the library alone.

Both read scripture.db only (no proxy). Exit 0 with an answer (an empty one included, with its notice),
1 with a contract error (``{"error": {...}}`` under ``--json``: ``QUERY_INVALID`` for a reference or
number that is not one, the database codes), 2 on bad flags (an unknown book or source included).
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from collections.abc import Callable
from typing import Any

from ..core.books import BY_ID
from ..core.errors import AmicusError, ErrorCode
from ..core.references import PassageRef
from ..store.scripture import ScriptureStore
from ..study import CrossReferences, StrongsStudy, XrefSource, cross_references, strongs_study
from ..study.xrefs import DEFAULT_LIMIT
from ..understand import PassageError, parse_passage, resolve_book_name
from .common import add_connection_args, connection_from_args, positive_int_arg, text_arg


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    x = sub.add_parser(
        "xrefs",
        help="the cross-references of a verse, from the library's own notes and the verses nearest in meaning",
        description="List the passages related to a verse: those Henry's and Scofield's notes on it cite, Scofield's "
                    "chains and Nave's topics that list it, and the verses nearest it in meaning — best first (the "
                    "more kinds of source agree, the higher), each saying where it comes from.",
    )
    x.add_argument("ref", metavar="REF", type=text_arg, help="a verse, e.g. 'Romans 3:23' or 'jn3:16'")
    add_connection_args(x)
    x.add_argument("--source", metavar="S", action="append", default=[], choices=[s.value for s in XrefSource],
                   help="only cross-references from this source (repeatable): "
                        + ", ".join(s.value for s in XrefSource))
    x.add_argument("--limit", type=positive_int_arg, default=DEFAULT_LIMIT,
                   help=f"at most this many (default {DEFAULT_LIMIT})")
    x.add_argument("--json", action="store_true", help="print one JSON object")
    x.set_defaults(func=run_xrefs, parser=x)

    s = sub.add_parser(
        "strongs",
        help="a Strong's number: its lexicon entries, word studies and every KJV verse using it",
        description="Show a Strong's number's lexicon entries and word studies, and its concordance: every verse of "
                    "the KJV whose words carry it, with those words marked.",
    )
    s.add_argument("number", metavar="NUMBER", type=text_arg, help="e.g. G26 (agapē) or H7225")
    add_connection_args(s)
    s.add_argument("--book", metavar="B", type=text_arg, help="only this book's verses in the concordance")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.set_defaults(func=run_strongs, parser=s)


def _answer(args: argparse.Namespace, get: Callable[[ScriptureStore], Any], show: Callable[[Any], str]) -> int:
    db, _proxy, _token = connection_from_args(args)
    try:
        with ScriptureStore(db) as store:
            result = get(store)
    except AmicusError as err:
        if args.json:
            print(json.dumps(err.to_json(), ensure_ascii=False))
        else:
            print(f"error: {err.code.value}: {err.message}", file=sys.stderr)
        return 1
    print(json.dumps(result.to_json(), ensure_ascii=False) if args.json else show(result))
    return 0


def _verse(text: str) -> PassageRef:
    try:
        ref = parse_passage(text)
    except PassageError as exc:
        raise AmicusError(ErrorCode.QUERY_INVALID, str(exc)) from None
    if ref.verse_start is None:
        raise AmicusError(ErrorCode.QUERY_INVALID, f"{ref.label()} is a chapter: name a verse, e.g. {ref.label()}:1.")
    return ref


def run_xrefs(args: argparse.Namespace) -> int:
    sources = tuple(XrefSource(s) for s in args.source)
    return _answer(args, lambda store: cross_references(store, _verse(args.ref), sources, args.limit), format_xrefs)


def run_strongs(args: argparse.Namespace) -> int:
    book = None
    if args.book is not None:
        book = resolve_book_name(args.book)
        if book is None:
            args.parser.error(f"--book: no book of the Bible is called {args.book!r}")
    return _answer(args, lambda store: strongs_study(store, args.number, book), format_strongs)


def _wrap(text: str, indent: str = "    ") -> str:
    return textwrap.fill(text, width=100, initial_indent=indent, subsequent_indent=indent)


def format_xrefs(result: CrossReferences) -> str:
    lines = [f"Cross-references of {result.verse.label()} ({len(result.items)})"]
    if result.notice:
        lines.append(result.notice)
    for i, item in enumerate(result.items, start=1):
        kinds = ", ".join(s.label for s in item.sources)
        lines.append(f"{i:>3}. {item.ref.label():<28} {item.score:5.2f}  {kinds}")
        if item.text:
            lines.append(_wrap(item.text[:300]))
        for e in item.evidence[:3]:
            lines.append(f"      · {e.source.label}: {e.detail}")
    return "\n".join(lines)


def format_strongs(study: StrongsStudy) -> str:
    head = f"{study.number} {study.lemma} ({study.translit})" if study.translit else f"{study.number} {study.lemma}"
    lines = [f"{head.strip()} — Strong's {study.language}"]
    for entry in (*study.entries, *study.studies):
        lines += ["", f"[{entry.title}]", _wrap(entry.text[:1200], "  ")]
    where = f" in {BY_ID[study.book].name}" if study.book in BY_ID else ""
    lines += ["", f"Concordance (KJV){where}: {len(study.concordance)} of {study.total} verses"]
    if study.notice:
        lines.append(study.notice)
    for line in study.concordance:
        text, marked, at = line.text, [], 0
        for a, b in line.spans:
            marked.append(text[at:a] + "[" + text[a:b] + "]")
            at = b
        lines.append(f"  {line.ref.label():<22} {''.join(marked) + text[at:]}")
    return "\n".join(lines)

"""``amicus-desktop golden import|export``: judgments to and from Quepid, TREC and Elasticsearch ``_rank_eval``.

::

    amicus-desktop golden import ratings.csv --format quepid --into my-golden.json [--scale 0-3] [--judge ana]
    amicus-desktop golden export my-golden.json --format trec --out my.qrels [--topics my.topics.tsv]

A rating is never guessed into a grade: ``--scale`` names how (``0-3``, ``0-1``, ``1-4`` or pairs; see
:mod:`amicus_desktop.evaluate.interchange.scales`). An import records each rating as the judge's, with the
time; ``--into`` an existing set adds to it (a set's grade is kept where it has one unless ``--replace``), a
new file becomes a new set. Both write atomically. Exit 0, or 2 naming the line or the key of what is wrong.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..evaluate import golden as golden_io
from ..evaluate.golden import GoldenError, GoldenSet
from ..evaluate.interchange import FORMATS, NAMED, InterchangeError, ScaleError, export_file, import_file, scale
from ..files import FileWriteError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("golden", help="import or export a golden set's judgments (Quepid, TREC, _rank_eval)",
                       description="Judgments to and from other relevance tools, with every scale explicit.")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    names = ", ".join(NAMED)
    imp = actions.add_parser("import", help="read ratings into a golden set")
    imp.add_argument("file", metavar="FILE", help="the ratings file")
    imp.add_argument("--format", choices=list(FORMATS), required=True)
    imp.add_argument("--into", metavar="GOLDEN.json", required=True,
                     help="the golden set to add to (created when it does not exist)")
    imp.add_argument("--scale", default="0-3", metavar="SCALE",
                     help=f"how their ratings read as grades 0-3: {names}, or THEIRS=OURS pairs (default 0-3)")
    imp.add_argument("--judge", metavar="NAME", help="whose ratings these are (needed unless every line names "
                     "its judge: a Quepid CSV's optional judge column)")
    imp.add_argument("--topics", metavar="FILE", help="TREC: the questions, QUERY_ID<TAB>TEXT per line")
    imp.add_argument("--replace", action="store_true", help="the file's grade replaces the set's where both have one")
    exp = actions.add_parser("export", help="write a golden set's grades for another tool")
    exp.add_argument("golden", metavar="GOLDEN.json")
    exp.add_argument("--format", choices=list(FORMATS), required=True)
    exp.add_argument("--out", metavar="FILE", required=True)
    exp.add_argument("--scale", default="0-3", metavar="SCALE",
                     help=f"the rating each grade 0-3 is written as: {names}, or OURS=THEIRS pairs (default 0-3)")
    exp.add_argument("--topics", metavar="FILE", help="TREC: also write the questions here")
    exp.add_argument("--index", default="amicus", help="_rank_eval: the index the ratings name (default amicus)")
    exp.add_argument("--field", default="text", help="_rank_eval: the field each request matches (default text)")
    p.set_defaults(func=run, parser=p)


def run(args: argparse.Namespace) -> int:
    try:
        if args.action == "import":
            return _import(args)
        return _export(args)
    except (GoldenError, InterchangeError, ScaleError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except FileWriteError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {exc.filename or ''} cannot be read ({exc.strerror or exc})", file=sys.stderr)
        return 2


def _import(args: argparse.Namespace) -> int:
    into = Path(args.into)
    existing = golden_io.load(into) if into.exists() else None
    merged, summary = import_file(args.file, args.format, existing, scale(args.scale, reading=True),
                                  judge=args.judge, topics=args.topics, replace_grades=args.replace)
    if existing is None:
        merged = GoldenSet(into.stem, merged.queries, merged.extra)
    if merged != existing:  # a file with nothing new (a queue of gaps not judged yet) leaves the set's bytes alone
        golden_io.save(merged, into)
    print(f"{into}: {summary.sentence()}")
    return 0


def _export(args: argparse.Namespace) -> int:
    golden = golden_io.load(args.golden)
    export_file(golden, args.out, args.format, scale(args.scale, reading=False), topics=args.topics,
                index=args.index, field=args.field)
    judged = sum(len(q.judgments) for q in golden.queries)
    print(f"{args.out}: {judged} grades of {len(golden.queries)} questions as {FORMATS[args.format].label}.")
    return 0

"""``amicus-desktop relevance GOLDEN.json --db A.db [--db B.db]``: the relevance benchmark.

Every search mode with and without boosts, the hybrid fusion's constants and the scholar cap, for
each embedding model (one database per model, all built from the same chunks), in one run; with
``--unanswerable`` it also calibrates each model's no-strong-match floor. Starts the project's own
embed proxy for each model. The numbers behind the app's defaults are in docs/RELEVANCE.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from ..core.errors import AmicusError
from ..core.query import Fusion
from ..embedding import BACKENDS, get_backend
from ..evaluate import GoldenError, GoldenSet, load
from ..evaluate.relevance import db_model, run_benchmark
from ..evaluate.report import format_benchmark, judged_share
from ..evaluate.verses import format_verse_benchmark, run_verse_benchmark
from . import output


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "relevance",
        help="the relevance benchmark: modes, boosts, fusion and models side by side on a golden set",
        description="Evaluate a golden set under every search mode, with and without boosts, the hybrid "
        "fusion sweep and cap variants, for each database's embedding model, and print the table.",
    )
    p.add_argument("golden", metavar="GOLDEN.json")
    p.add_argument("--db", metavar="PATH", action="append", required=True, type=Path,
                   help="a database (repeat for each embedding model)")
    p.add_argument("--unanswerable", metavar="FILE.json", type=Path,
                   help="questions the library cannot answer (golden format): calibrates the floors")
    p.add_argument("--verses", action="store_true",
                   help="a verse golden set: verse search beside dense-only, BM25-only and RRF over the verses")
    p.add_argument("--json", action="store_true", help="print the numbers as JSON")
    p.set_defaults(func=run, parser=p)


def backend_for(model_id: str) -> str | None:
    """The proxy backend that serves ``model_id`` on this machine, if any."""
    for name in BACKENDS:
        # get_backend loads nothing; a backend whose package is missing names a version "missing"
        if name != "openai" and get_backend(name).model_id == model_id:
            return name
    return None


def run(args: argparse.Namespace) -> int:
    try:
        golden = load(args.golden)
        unanswerable = load(args.unanswerable) if args.unanswerable else None
    except (GoldenError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.verses:
        return run_verses(args, golden)
    pairs = []
    try:
        for db in args.db:
            model = db_model(db)
            backend = backend_for(model)
            if backend is None:
                print(f"error: no local backend serves {model!r} (the model of {db})", file=sys.stderr)
                return 2
            pairs.append((db, backend))
        reports = run_benchmark(golden, pairs, default_fusion=Fusion(), unanswerable=unanswerable,
                                progress=lambda msg: print(f"… {msg}", file=sys.stderr, flush=True))
    except AmicusError as err:
        return output.print_failure(err, as_json=False)
    if args.json:
        print(json.dumps([{"model": m.model, "db": str(m.db),
                           "rows": [r.to_json() | {"config": r.config.describe(), "judged": judged_share(golden, r)}
                                    for r in m.reports],
                           "floors": [{"mode": f.mode.value, "floor": f.floor, "meaning": f.meaning, "kept": f.kept,
                                       "flagged": f.flagged} for f in m.floors],
                           "warnings": [dataclasses.asdict(w) for w in m.rates]} for m in reports],
                         ensure_ascii=False))
    else:
        print(format_benchmark(golden, reports))
    return 0


def run_verses(args: argparse.Namespace, golden: GoldenSet) -> int:
    """``relevance --verses``: the verse benchmark on each database (docs/RELEVANCE.md, "Verse search")."""
    for db in args.db:
        try:
            model = db_model(db)
            backend = backend_for(model)
            if backend is None:
                print(f"error: no local backend serves {model!r} (the model of {db})", file=sys.stderr)
                return 2
            reports, seconds = run_verse_benchmark(golden, db, backend,
                                                   progress=lambda msg: print(f"… {msg}", file=sys.stderr, flush=True))
        except AmicusError as err:
            return output.print_failure(err, as_json=False)
        if args.json:
            print(json.dumps({"model": model, "db": str(db), "rows": [
                {"config": r.row.label, "ndcg@10": r.scores, "ranked": r.ranked} for r in reports]}))
        else:
            print(format_verse_benchmark(golden, reports, model, db, seconds))
    return 0

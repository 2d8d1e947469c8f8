"""``amicus-desktop eval GOLDEN.json``: score a ranking on judged questions (CONTRACT section 8).

Prints each question's nDCG@10, MRR@10 and Recall@10 and their means; ``--json`` prints the
contract's object. ``--compare SPEC`` evaluates a second configuration — the first one with the
changes SPEC lists, e.g. ``mode=hybrid``, ``chapter-boost=1.3,scholar-cap=none`` or
``db=other-model.db`` — and prints per-question deltas and each metric's mean difference with a
paired bootstrap 95% interval, and how much of each side's top 10s is judged. Given twice or more, or
naming a snapshot (``snapshot=NAME``: its rankings as they were; ``replay=NAME``: its configuration asked
today), ``--compare`` sets every ranking side by side: each metric per kind of question against
``--baseline`` with its interval, and per question the rank of each judged chunk in each.
``--snapshot NAME`` keeps the run as a snapshot (its rankings, configuration, library and metrics);
``--replay NAME`` asks a snapshot again on today's library and explains per question what moved
(``eval_lineup.py``).

``--agreement`` prints how far the set's judges agree (no retrieval); ``--gaps`` lists the unjudged
chunks of the top 10s, to judge; ``--search-weights`` searches the weights on half of the set and
reports on the other half (``--budget`` seconds). Every evaluation is kept in the golden set's history
in the data folder (``--no-history``: not this one); the printing is ``eval_report.py``'s.

``--overlay FILE`` evaluates under a role's overlay (CONTRACT section 12): its forbidden sources,
vocabulary, preferred sources and policy, and — when no GOLDEN.json is given — the golden set its
``eval_profile`` names (a relative path is read from the overlay's folder).

Exit 0 on success, 1 with a contract error object, 2 for bad flags or a golden file that is not valid
(the message names the line or the key).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import replace
from pathlib import Path

from .. import paths
from ..core.errors import AmicusError
from ..core.preset import PRESETS
from ..core.query import NO_BOOSTS, BoostWeights, Profile
from ..core.text import echo
from ..evaluate import EvalConfig, EvalReport, GoldenError, evaluate, interchange, load, tuning
from ..evaluate import history as history_io
from ..evaluate import snapshots as snap_io
from ..evaluate.agreement import agreement
from ..evaluate.gaps import queue
from ..evaluate.golden import GoldenSet
from ..evaluate.lineup import describe
from ..evaluate.replay import library_of
from ..files import FileWriteError, check_target
from ..knobs import BY_KEY, BY_NAME, Kind, Knob, KnobValueError
from ..notes import NotesError
from ..retrieval import Retriever, validate_request
from . import output
from .common import add_connection_args, connection_from_args
from .eval_lineup import (
    Change,
    evaluated,
    format_replay,
    run_lineup,
    run_replay,
    save_snapshot,
    snapshot_spec,
)
from .eval_report import (
    agreement_json,
    comparison_json,
    format_agreement,
    format_comparison,
    format_gaps,
    format_report,
)
from .search_args import add_knob_args, add_overlay_arg, add_preset_arg, finite_float, loaded_overlay

#: the knobs ``eval`` has flags for: those ``--compare`` takes, and the workspace
EVAL_KNOBS = (*BY_KEY.values(), BY_NAME["workspace"])
#: ``--compare``'s keys besides the knobs'
COMPARE_EXTRAS = ("db", "proxy", "boosts")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "eval",
        help="score the ranking on a golden set of judged questions",
        description="Retrieve every question of GOLDEN.json and print nDCG@10, MRR@10 and Recall@10.",
        epilog="SPEC for --compare: comma-separated KEY=VALUE changes to the first configuration; keys: "
        + ", ".join(("mode", "db", "proxy", *(k for k in BY_KEY if k != "mode"))) + ", boosts (on/off).",
    )
    p.add_argument("golden", metavar="GOLDEN.json", nargs="?",
                   help="the golden set (default with --overlay: the one its eval_profile names)")
    add_connection_args(p)
    add_preset_arg(p)
    add_overlay_arg(p)
    add_knob_args(p, EVAL_KNOBS)
    p.add_argument("--no-boosts", action="store_true", help="every boost 1 and no cap: the base score alone")
    p.add_argument("--compare", metavar="SPEC", action="append",
                   help="also evaluate the first configuration changed by SPEC; give it again for more columns, "
                   "or name a snapshot: snapshot=NAME (its rankings as saved), replay=NAME (its configuration today)")
    p.add_argument("--baseline", type=int, default=0, metavar="N",
                   help="--compare: the column the others are measured against (0: the configuration the flags "
                   "give, 1: the first --compare, …)")
    p.add_argument("--snapshot", metavar="NAME", help="keep this run as a snapshot called NAME in the data folder")
    p.add_argument("--replay", metavar="NAME",
                   help="ask the snapshot NAME again on this library and explain per question what moved")
    p.add_argument("--agreement", action="store_true",
                   help="how far the set's judges agree (Cohen's κ, Krippendorff's α); no retrieval")
    p.add_argument("--gaps", action="store_true", help="list the unjudged chunks of the top 10s, to judge")
    p.add_argument("--out", metavar="FILE", type=Path,
                   help="--gaps: write the unjudged chunks to FILE to judge elsewhere, ratings left blank")
    p.add_argument("--format", choices=("quepid", "trec"), default="quepid",
                   help="--gaps --out: Quepid's CSV (the default) or TREC qrels rated '-'")
    p.add_argument("--topics", metavar="FILE", type=Path, help="--gaps --out --format trec: the questions too")
    p.add_argument("--search-weights", action="store_true",
                   help="search the boosts, cap, fusion, spread and focus on half of the set; report on the other")
    p.add_argument("--budget", type=finite_float, default=60.0, metavar="SECONDS",
                   help="--search-weights: stop searching after this long (default 60)")
    p.add_argument("--no-history", action="store_true", help="do not keep this run in the golden set's history")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run, parser=p)


def config_from_args(args: argparse.Namespace) -> EvalConfig:
    overlay = loaded_overlay(args)
    config = EvalConfig(
        policy=PRESETS[args.preset].policy,
        governance=overlay.governance if overlay else None,
        preferred=Profile.of(overlay.preferred_scholars, overlay.preferred_traditions) if overlay else Profile(),
    )
    for knob in EVAL_KNOBS:
        if knob.target is not None:
            config = knob.put(config, getattr(args, knob.name))
    return replace(config, weights=NO_BOOSTS) if args.no_boosts else config


def golden_path(args: argparse.Namespace) -> str:
    """GOLDEN.json as given, else the golden set of ``--overlay``'s ``eval_profile`` (a usage error if neither)."""
    if args.golden:
        return str(args.golden)
    overlay = loaded_overlay(args)
    parser: argparse.ArgumentParser = args.parser
    if overlay is None or overlay.golden_set is None:
        parser.error("GOLDEN.json is required, unless --overlay names a golden set (eval_profile.golden_set)")
    path = Path(overlay.golden_set)
    return str(path if path.is_absolute() else args.overlay_folder / path)


def changed(config: EvalConfig, spec: str) -> tuple[EvalConfig, dict[str, str]]:
    """``config`` with the changes ``spec`` lists, and the connection changes (``db``, ``proxy``)."""
    connection: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        key, sep, value = part.partition("=")
        key = key.strip().lower().replace("_", "-")
        value = value.strip()
        if not sep or not value:
            raise ValueError(f"--compare: '{echo(part)}' is not KEY=VALUE")
        if key in ("db", "proxy"):
            connection[key] = value
        elif key == "boosts":
            if value.lower() not in ("on", "off"):
                raise ValueError("--compare: boosts=on or boosts=off")
            config = replace(config, weights=NO_BOOSTS if value.lower() == "off" else BoostWeights())
        elif key in BY_KEY:
            config = BY_KEY[key].put(config, _value(BY_KEY[key], value))
        else:
            raise ValueError(f"--compare: unknown key '{echo(key)}'")
    return config, connection


def check_config(config: EvalConfig, where: str = "") -> None:
    """``ValueError`` when ``config`` breaks a rule of the flags: :func:`~amicus_desktop.retrieval.validate_request`
    on the retrieval each question makes (its top 10, so at least 10 candidates), as for ``query``."""
    try:
        validate_request(config.retrieval())  # k: the top 10 the metrics score, unless it sets another
    except ValueError as exc:
        raise ValueError(f"{where}{exc}") from None


def _value(knob: Knob, value: str) -> object:
    """``value`` read as ``knob``'s (a choice case-insensitively); a ``ValueError`` naming the key if it cannot be."""
    if knob.kind is Kind.CHOICE:
        if value.lower() not in knob.choices:
            raise ValueError(f"--compare: {knob.key} is one of {', '.join(knob.choices)}, not '{echo(value)}'")
        return value.lower()
    try:
        return knob.parse(value)
    except KnobValueError:
        kind = {Kind.WHOLE: "a whole number", Kind.CAP: "a whole number or 'none'"}.get(knob.kind, "a number")
        raise ValueError(f"--compare: {knob.key} takes {kind}, not '{echo(value)}'") from None


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args.parser
    config = config_from_args(args)
    other: tuple[EvalConfig, dict[str, str]] | None = None
    specs: list[str] = args.compare or []
    changes: list[Change] = []
    try:
        if sum(map(bool, (specs, args.agreement, args.gaps, args.search_weights, args.replay))) > 1:
            raise ValueError("choose one of --compare, --agreement, --gaps, --search-weights and --replay")
        if args.snapshot and (args.agreement or args.search_weights or args.replay):
            raise ValueError("--snapshot keeps an evaluation: not with --agreement, --search-weights or --replay")
        if args.snapshot:
            snap_io.file_name(args.snapshot)
        if not 0 <= args.baseline <= len(specs):
            raise ValueError(f"--baseline is 0 (the configuration the flags give) to {len(specs)} (the last --compare)")
        if args.budget <= 0:
            raise ValueError("--budget must be more than 0 seconds")
        if (args.out or args.topics) and not args.gaps:
            raise ValueError("--out and --topics write the unjudged chunks: use them with --gaps")
        for target in filter(None, (args.out, args.topics)):  # refused before any question is asked
            check_target(target, what="judgments", hint="a ratings file name")
        check_config(config)
        for spec in specs:
            named = snapshot_spec(spec)
            if named is not None:
                changes.append(Change(named[1], named[0]))
                continue
            config_b, conn = changed(config, spec)
            check_config(config_b, "--compare: ")
            changes.append(Change(spec, "config", config_b, conn))
        if len(changes) == 1 and changes[0].config is not None and args.baseline == 0:  # two columns, as before
            other = (changes[0].config, changes[0].connection)
    except (ValueError, argparse.ArgumentTypeError) as exc:
        parser.error(str(exc))
    except FileWriteError as exc:
        parser.error(exc.message)
    golden_file = golden_path(args)
    try:
        golden = load(golden_file)
    except GoldenError as exc:
        print(f"error: {golden_file}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {golden_file} cannot be read ({exc.strerror or exc})", file=sys.stderr)
        return 2
    if args.agreement:
        found = agreement(golden)
        print(json.dumps(agreement_json(found), ensure_ascii=False) if args.json
              else format_agreement(golden.name, found))
        return 0
    db, proxy, token = connection_from_args(args)
    if args.replay or (specs and other is None):
        return _snapshots(args, golden, config, changes, db, proxy, token)
    try:
        if args.search_weights:
            outcome = asyncio.run(_search(golden, config, db, proxy, token, args.budget))
            print(json.dumps(tuning.to_json(outcome), ensure_ascii=False) if args.json
                  else "\n".join(tuning.summary(outcome)))
            return 0
        first = asyncio.run(_evaluate(golden, config, db, proxy, token))
        second = None
        if other is not None:
            config_b, conn = other
            second = asyncio.run(
                _evaluate(golden, config_b, Path(conn.get("db", db)), conn.get("proxy", proxy), token)
            )
    except (AmicusError, NotesError) as err:  # NotesError: the --workspace's store
        return output.print_failure(err, as_json=args.json)
    if not args.no_history:
        _keep(golden, first, db)
        if second is not None and other is not None:
            _keep(golden, second, Path(other[1].get("db", db)))
    if args.snapshot:
        try:
            kept = asyncio.run(_library(db, proxy, token))
            print(f"note: kept as the snapshot {args.snapshot} ({save_snapshot(args.snapshot, first, kept)})",
                  file=sys.stderr)
        except (AmicusError, OSError) as exc:
            print(f"note: the snapshot was not kept ({exc})", file=sys.stderr)
    if args.gaps:
        gaps = queue(golden, [first])
        if args.out is not None:
            try:
                interchange.export_unjudged(gaps, args.out, args.format, topics=args.topics)
            except interchange.InterchangeError as exc:
                print(f"error: {exc}", file=sys.stderr)
                return 2
            except FileWriteError as exc:
                print(f"error: {exc.message}", file=sys.stderr)
                return 2
        print(json.dumps({"gaps": [g.__dict__ for g in gaps], "judged_share": first.judged_share},
                         ensure_ascii=False) if args.json else format_gaps(gaps, first))
    elif second is None:
        print(json.dumps(first.to_json(), ensure_ascii=False) if args.json else format_report(first))
    else:
        print(json.dumps(comparison_json(first, second), ensure_ascii=False) if args.json
              else format_comparison(first, second))
    return 0


def _keep(golden: GoldenSet, report: EvalReport, db: Path) -> None:
    """Add the run to the set's history; a history that cannot be written never fails the evaluation."""
    try:
        history_io.record(paths.history_dir(), golden.name,
                          history_io.Run.of(report, library=str(db), source="eval"))
    except OSError as exc:
        print(f"note: the run was not kept in the history ({exc.strerror or exc})", file=sys.stderr)


def _snapshots(args: argparse.Namespace, golden: GoldenSet, config: EvalConfig,
               changes: list[Change], db: Path, proxy: str, token: str | None) -> int:
    """``--replay NAME``, or ``--compare`` with several SPECs or a snapshot: N rankings side by side."""
    try:
        if args.replay:
            replayed, report = asyncio.run(run_replay(golden, args.replay, db, proxy, token))
            if not args.no_history:
                _keep(golden, report, db)
            print(json.dumps(replayed.to_json(), ensure_ascii=False) if args.json else format_replay(replayed))
            return 0
        sides = [c.side(db, proxy) for c in changes]
        first, library = asyncio.run(evaluated(golden, config, db, proxy, token))
        found, reports = asyncio.run(run_lineup(golden, first, sides, token, args.baseline))
    except snap_io.SnapshotError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:  # a snapshot's configuration that cannot be rebuilt
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (AmicusError, NotesError) as err:
        return output.print_failure(err, as_json=args.json)
    if not args.no_history:
        _keep(golden, first, db)
        for report, side in zip(reports, [s for s in sides if s.config is not None], strict=True):
            _keep(golden, report, side.db)
    if args.snapshot:
        print(f"note: kept as the snapshot {args.snapshot} ({save_snapshot(args.snapshot, first, library)})",
              file=sys.stderr)
    print(json.dumps(found.to_json(), ensure_ascii=False) if args.json else describe(found))
    return 0


async def _library(db: Path, proxy: str, token: str | None) -> dict[str, object]:
    retriever = Retriever(db, proxy, token)
    try:
        info = await retriever.open()
        return library_of(str(db), info.chunk_count, info.model_id, info.meta)
    finally:
        await retriever.aclose()


async def _evaluate(golden: GoldenSet, config: EvalConfig, db: Path, proxy: str, token: str | None) -> EvalReport:
    retriever = Retriever(db, proxy, token)
    try:
        return await evaluate(retriever, golden, config)
    finally:
        await retriever.aclose()


async def _search(golden: GoldenSet, config: EvalConfig, db: Path, proxy: str, token: str | None,
                  budget: float) -> tuning.Outcome:
    retriever = Retriever(db, proxy, token)
    try:
        return await tuning.search_weights(retriever, golden, config, budget=budget)
    finally:
        await retriever.aclose()

"""``amicus-desktop eval GOLDEN.json``: score a ranking on judged questions (CONTRACT section 8).

Prints each question's nDCG@10, MRR@10 and Recall@10 and their means; ``--json`` prints the
contract's object. ``--compare SPEC`` evaluates a second configuration — the first one with the
changes SPEC lists, e.g. ``mode=hybrid``, ``chapter-boost=1.3,scholar-cap=none`` or
``db=other-model.db`` — and prints per-question deltas and each metric's mean difference with a
paired bootstrap 95% interval.

Exit 0 on success, 1 with a contract error object, 2 for bad flags or a golden file that is not valid
(the message names the line or the key).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import textwrap
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from ..core.errors import AmicusError
from ..core.preset import PRESETS
from ..core.query import NO_BOOSTS, BoostWeights, Fusion, FusionMethod, RetrievalContext, SearchMode
from ..core.text import echo
from ..evaluate import EvalConfig, EvalReport, GoldenError, compare, evaluate, load
from ..evaluate.golden import GoldenSet
from ..evaluate.metrics import K as EVAL_K
from ..retrieval import Retriever, validate_request
from . import output
from .common import add_connection_args, connection_from_args
from .search_args import add_preset_arg, cap_value, finite_float


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    w = BoostWeights()
    p = sub.add_parser(
        "eval",
        help="score the ranking on a golden set of judged questions",
        description="Retrieve every question of GOLDEN.json and print nDCG@10, MRR@10 and Recall@10.",
        epilog="SPEC for --compare: comma-separated KEY=VALUE changes to the first configuration; keys: "
        "mode, db, proxy, fusion, alpha, candidates, chapter-boost, scholar-boost, tradition-boost, "
        "reference-boost, scholar-cap, boosts (on/off).",
    )
    p.add_argument("golden", metavar="GOLDEN.json", help="the golden set")
    add_connection_args(p)
    add_preset_arg(p)
    p.add_argument("--mode", choices=[m.value for m in SearchMode], default=SearchMode.SEMANTIC.value,
                   help="search mode for questions that do not name their own (default semantic)")
    p.add_argument("--candidates", type=int, default=40, help=f"rows per search, {EVAL_K}.. (default 40)")
    p.add_argument("--chapter-boost", type=finite_float, default=w.chapter, metavar="X")
    p.add_argument("--scholar-boost", type=finite_float, default=w.scholar, metavar="X")
    p.add_argument("--tradition-boost", type=finite_float, default=w.tradition, metavar="X")
    p.add_argument("--reference-boost", type=finite_float, default=w.reference, metavar="X")
    p.add_argument("--scholar-cap", type=cap_value, default=w.per_scholar_cap, metavar="N")
    p.add_argument("--no-boosts", action="store_true", help="every boost 1 and no cap: the base score alone")
    p.add_argument("--fusion", choices=[f.value for f in FusionMethod], default=Fusion().method.value)
    p.add_argument("--alpha", type=finite_float, default=Fusion().alpha, metavar="A")
    p.add_argument("--compare", metavar="SPEC", help="also evaluate the first configuration changed by SPEC")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=run, parser=p)


def config_from_args(args: argparse.Namespace) -> EvalConfig:
    weights = NO_BOOSTS if args.no_boosts else BoostWeights(
        chapter=args.chapter_boost, scholar=args.scholar_boost, tradition=args.tradition_boost,
        per_scholar_cap=args.scholar_cap, reference=args.reference_boost,
    )
    return EvalConfig(
        mode=SearchMode(args.mode), weights=weights,
        fusion=Fusion(FusionMethod(args.fusion), args.alpha), candidates=args.candidates,
        policy=PRESETS[args.preset].policy,
    )


def changed(config: EvalConfig, spec: str) -> tuple[EvalConfig, dict[str, str]]:
    """``config`` with the changes ``spec`` lists, and the connection changes (``db``, ``proxy``)."""
    weights, fusion = config.weights, config.fusion
    connection: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        key, sep, value = part.partition("=")
        key = key.strip().lower().replace("_", "-")
        value = value.strip()
        if not sep or not value:
            raise ValueError(f"--compare: '{echo(part)}' is not KEY=VALUE")
        if key in ("db", "proxy"):
            connection[key] = value
        elif key == "mode":
            config = replace(config, mode=_choice(SearchMode, key, value))
        elif key == "candidates":
            config = replace(config, candidates=_whole(key, value))
        elif key == "fusion":
            fusion = replace(fusion, method=_choice(FusionMethod, key, value))
        elif key == "alpha":
            fusion = replace(fusion, alpha=finite_float(value))
        elif key == "boosts":
            if value.lower() not in ("on", "off"):
                raise ValueError("--compare: boosts=on or boosts=off")
            weights = NO_BOOSTS if value.lower() == "off" else BoostWeights()
        elif key == "scholar-cap":
            weights = replace(weights, per_scholar_cap=cap_value(value))
        elif key == "chapter-boost":
            weights = replace(weights, chapter=finite_float(value))
        elif key == "scholar-boost":
            weights = replace(weights, scholar=finite_float(value))
        elif key == "tradition-boost":
            weights = replace(weights, tradition=finite_float(value))
        elif key == "reference-boost":
            weights = replace(weights, reference=finite_float(value))
        else:
            raise ValueError(f"--compare: unknown key '{echo(key)}'")
    return replace(config, weights=weights, fusion=fusion), connection


def check_config(config: EvalConfig, where: str = "") -> None:
    """``ValueError`` when ``config`` breaks a rule of the flags: :func:`~amicus_desktop.retrieval.validate_request`
    on the retrieval each question makes (its top 10, so at least 10 candidates), as for ``query``."""
    try:
        validate_request(RetrievalContext(query="", k=EVAL_K, candidates=config.candidates, weights=config.weights,
                                          mode=config.mode, fusion=config.fusion))
    except ValueError as exc:
        raise ValueError(f"{where}{exc}") from None


E = TypeVar("E", SearchMode, FusionMethod)


def _choice(kind: type[E], key: str, value: str) -> E:
    try:
        return kind(value.lower())
    except ValueError:
        allowed = ", ".join(k.value for k in kind)
        raise ValueError(f"--compare: {key} is one of {allowed}, not '{echo(value)}'") from None


def _whole(key: str, value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"--compare: {key} takes a whole number, not '{echo(value)}'") from None


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args.parser
    config = config_from_args(args)
    other: tuple[EvalConfig, dict[str, str]] | None = None
    try:
        check_config(config)
        if args.compare:
            other = changed(config, args.compare)
            check_config(other[0], "--compare: ")
    except (ValueError, argparse.ArgumentTypeError) as exc:
        parser.error(str(exc))
    try:
        golden = load(args.golden)
    except GoldenError as exc:
        print(f"error: {args.golden}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: {args.golden} cannot be read ({exc.strerror or exc})", file=sys.stderr)
        return 2
    db, proxy, token = connection_from_args(args)
    try:
        first = asyncio.run(_evaluate(golden, config, db, proxy, token))
        second = None
        if other is not None:
            config_b, conn = other
            second = asyncio.run(
                _evaluate(golden, config_b, Path(conn.get("db", db)), conn.get("proxy", proxy), token)
            )
    except AmicusError as err:
        return output.print_failure(err, as_json=args.json)
    if second is None:
        print(json.dumps(first.to_json(), ensure_ascii=False) if args.json else format_report(first))
    else:
        print(json.dumps(comparison_json(first, second), ensure_ascii=False) if args.json
              else format_comparison(first, second))
    return 0


async def _evaluate(golden: GoldenSet, config: EvalConfig, db: Path, proxy: str, token: str | None) -> EvalReport:
    retriever = Retriever(db, proxy, token)
    try:
        return await evaluate(retriever, golden, config)
    finally:
        await retriever.aclose()


def format_report(report: EvalReport) -> str:
    lines = [f"{report.name} · {len(report.queries)} questions · {report.config.describe()} · model {report.model}", ""]
    header = f"{'id':<14} {'nDCG@10':>8} {'MRR@10':>8} {'R@10':>8}  question"
    lines += [header, "-" * len(header)]
    for q in report.queries:
        s = q.scores
        lines.append(f"{q.id:<14.14} {s['ndcg@10']:8.3f} {s['mrr@10']:8.3f} {s['recall@10']:8.3f}  "
                     + (f"FAILED: {q.error}" if q.error else textwrap.shorten(q.query, 60, placeholder='…')))
    m = report.mean
    lines += ["-" * len(header), f"{'mean':<14} {m['ndcg@10']:8.3f} {m['mrr@10']:8.3f} {m['recall@10']:8.3f}"]
    if report.failed:
        lines += ["", f"{len(report.failed)} question(s) could not be asked and score 0: "
                  + ", ".join(q.id for q in report.failed[:10]) + (" …" if len(report.failed) > 10 else "")]
    if report.missing:
        lines += ["", f"{len(report.missing)} judged chunk ids are not in this database: "
                  + ", ".join(report.missing[:10]) + (" …" if len(report.missing) > 10 else "")]
    return "\n".join(lines)


def comparison_json(a: EvalReport, b: EvalReport) -> dict[str, object]:
    diffs, per_query = compare(a, b)
    return {"a": a.to_json(), "b": b.to_json(), "difference": [d.to_json() for d in diffs],
            "per_query": [{"id": qid, **delta} for qid, delta in per_query]}


def format_comparison(a: EvalReport, b: EvalReport) -> str:
    diffs, per_query = compare(a, b)
    lines = [f"A: {a.config.describe()} · model {a.model}", f"B: {b.config.describe()} · model {b.model}", ""]
    header = f"{'id':<14} {'A nDCG':>7} {'B nDCG':>7} {'Δ':>7}  question"
    lines += [header, "-" * len(header)]
    for qa, qb, (_qid, delta) in zip(a.queries, b.queries, per_query, strict=True):
        mark = "▲" if delta["ndcg@10"] > 0 else "▼" if delta["ndcg@10"] < 0 else " "
        lines.append(f"{qa.id:<14.14} {qa.scores['ndcg@10']:7.3f} {qb.scores['ndcg@10']:7.3f} "
                     f"{delta['ndcg@10']:+7.3f}{mark} {textwrap.shorten(qa.query, 50, placeholder='…')}")
    better = sum(1 for _, d in per_query if d["ndcg@10"] > 0)
    worse = sum(1 for _, d in per_query if d["ndcg@10"] < 0)
    lines += ["", f"nDCG@10 better on {better}, worse on {worse}, equal on {len(per_query) - better - worse} questions",
              "", f"{'metric':<10} {'A':>7} {'B':>7} {'B − A':>8}  95% interval (paired bootstrap)"]
    for d in diffs:
        note = "" if d.significant else "  (includes 0)"
        interval = f"[{d.low:+.3f}, {d.high:+.3f}]"
        lines.append(f"{d.metric:<10} {d.mean_a:7.3f} {d.mean_b:7.3f} {d.delta:+8.3f}  {interval}{note}")
    return "\n".join(lines)

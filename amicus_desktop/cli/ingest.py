"""``amicus-desktop ingest CORPUS.jsonl --db OUT``: bring a corpus of one's own into a library (CONTRACT §13).

::

    amicus-desktop ingest CORPUS.jsonl --db OUT [--proxy URL | --backend local|local-int8|e5] [--json]
                          [--batch N] [--quiet] [--compare-golden GOLDEN.json [--snapshots DIR]]

Each line of CORPUS is a document (:mod:`amicus_desktop.corpus.documents`); its chunks are added to OUT
or replace those of the same ``chunk_id`` (:mod:`amicus_desktop.corpus.ingest`); OUT is made when absent.
Without ``--proxy`` the chunks are embedded in this process with ``--backend`` (as ``build-db`` does).

Exit 0 when every line was ingested, 1 when a line was skipped (the good ones are ingested) or the
command failed (``{"error": {"code", "message"}}`` with ``--json``: the contract's codes, ``WRITE_FAILED``
for the disk, ``INGEST_FAILED`` for anything else SQLite or the tokenizer refused), 2 for usage (bad flags,
a corpus — ``CORPUS_UNREADABLE`` — or golden file that cannot be read),
130 when interrupted (Ctrl-C, SIGTERM, SIGHUP: the run stops before its next batch, a second signal at once).
On failure or interruption OUT is as it was.

``--compare-golden GOLDEN.json`` evaluates the golden set on OUT before and after (hybrid search, the
app's default weights), saves both rankings as snapshots in the curator workbench's folder (or
``--snapshots DIR``) and prints what the new material changed: each question better, worse or the same
by nDCG@10, with every metric's change and which chunks entered its top 10.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from .. import paths
from ..core.errors import AmicusError
from ..core.text import echo
from ..embedding import IN_PROCESS, Embedder
from ..store.errors import SQLITE_ERROR
from . import output
from .build_db import ProgressPrinter, make_embedder
from .common import positive_int_arg

if TYPE_CHECKING:
    from ..corpus.documents import Corpus
    from ..evaluate.golden import GoldenSet
    from ..evaluate.snapshots import Snapshot

#: Errors listed on stderr before "… and N more" (``--json`` lists them all).
SHOWN_ERRORS = 20


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "ingest",
        help="add a corpus of JSON Lines documents to a library (made when absent)",
        description="Add the documents of CORPUS.jsonl to the library OUT, or replace chunks of the same "
        "chunk_id; OUT is made when absent. Bad lines are skipped and reported; the rest are ingested.",
    )
    p.add_argument("corpus", metavar="CORPUS.jsonl", type=Path, help="one JSON document a line (CONTRACT §13)")
    p.add_argument("--db", metavar="OUT", type=Path, required=True, help="the library to add to or make")
    model = p.add_mutually_exclusive_group()
    model.add_argument("--proxy", metavar="URL", help="embed through this proxy's /ai/embed")
    model.add_argument("--backend", choices=IN_PROCESS, default="local",
                       help="the model to embed with in this process (default local); an existing library's "
                            "model must match")
    p.add_argument("--batch", metavar="N", type=positive_int_arg, default=64, help="chunks per embedding batch")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--compare-golden", metavar="GOLDEN.json", type=Path,
                   help="evaluate this golden set before and after and print what changed")
    p.add_argument("--snapshots", metavar="DIR", type=Path,
                   help=f"where --compare-golden saves its two snapshots (default {paths.snapshot_dir()})")
    p.set_defaults(func=run, parser=p)


class Interrupted(KeyboardInterrupt):
    """A second SIGTERM or SIGHUP: raised where the program is, so the update cleans up as for Ctrl-C."""


@contextlib.contextmanager
def _signals_cancel(cancel: threading.Event) -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP set ``cancel``: the ingest stops before its next batch and the update
    leaves the library as it was. A second one interrupts at once.

    The first signal is not raised where the program happens to be: it could land inside the HTTP
    client's or SQLite's own bookkeeping and leave it unable to close (one CI run's ingest never ended
    after SIGHUP). Ctrl-C is taken over only where Python would have raised ``KeyboardInterrupt`` for it
    (a job started in the background ignores it, and keeps ignoring it)."""
    def handler(signum: int, frame: FrameType | None) -> None:
        if cancel.is_set():
            raise Interrupted(signal.Signals(signum).name)
        cancel.set()

    wanted = [s for s in (signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None]
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        wanted.append(signal.SIGINT)
    old = {s: signal.signal(s, handler) for s in wanted}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def run(args: argparse.Namespace) -> int:
    from ..corpus.documents import read_corpus
    from ..evaluate import GoldenError, load

    parser: argparse.ArgumentParser = args.parser
    if args.snapshots and not args.compare_golden:
        parser.error("--snapshots goes with --compare-golden")
    try:
        corpus = read_corpus(args.corpus)
    except OSError as exc:  # a FIFO, a device or a folder too (files.open_regular): never read, never waited on
        return _fail(args, "CORPUS_UNREADABLE", f"{args.corpus} cannot be read ({exc.strerror or exc})", 2)
    golden: GoldenSet | None = None
    if args.compare_golden:
        try:
            golden = load(args.compare_golden)
        except (GoldenError, OSError) as exc:
            print(f"error: {args.compare_golden}: {getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
            return 2
    # our own drawing: its \r stays (everything else printed goes through output.safe_streams)
    printer = None if args.quiet or args.json else ProgressPrinter(output.raw(sys.stderr))
    cancel = threading.Event()
    try:
        with _signals_cancel(cancel):
            return _ingest(args, corpus, golden, printer, cancel)
    except KeyboardInterrupt:  # a second signal
        if printer:
            printer.end()
        return _fail(args, "INTERRUPTED", f"interrupted; {args.db} is as it was", 130)


def _ingest(args: argparse.Namespace, corpus: Corpus, golden: GoldenSet | None,
            printer: ProgressPrinter | None, cancel: threading.Event) -> int:
    from ..corpus.build import BuildCancelled
    from ..corpus.ingest import ingest
    from ..evaluate.relevance import proxy_for

    out: Path = args.db
    try:
        with contextlib.ExitStack() as stack:
            proxy = args.proxy
            if golden is not None and proxy is None:
                # the golden questions are embedded through a proxy: one serving --backend, for both
                proxy = stack.enter_context(proxy_for(args.backend))
            embedder: Embedder = make_embedder(proxy, args.backend)
            stack.callback(embedder.close)
            before = _snapshot(out, proxy, golden, "before") if golden is not None else None
            report = ingest(corpus, out, embedder, source_name=args.corpus.name, progress=printer,
                            cancel=cancel, batch=args.batch)
            after = _snapshot(out, proxy, golden, "after") if golden is not None and not cancel.is_set() else None
    except AmicusError as err:  # the library, the model, and the embedder's BackendError (one error tree)
        return _fail(args, err.code.value, err.message, 1, printer)
    except BuildCancelled:
        return _fail(args, "INTERRUPTED", f"interrupted; {out} is as it was", 130, printer)
    except OSError as exc:
        return _fail(args, "WRITE_FAILED", f"{out} could not be written ({exc.strerror or exc}); it is as it was",
                     1, printer)
    except (ValueError, RuntimeError) as exc:
        return _fail(args, "INGEST_FAILED", echo(str(exc)), 1, printer)
    except SQLITE_ERROR as exc:  # SQLite refused a write the line checks let through
        return _fail(args, "INGEST_FAILED", f"SQLite refused the update ({echo(str(exc))}); {out} is as it was",
                     1, printer)
    except Exception as exc:  # the tokenizer, or a bug: a contract error all the same, never a traceback
        return _fail(args, "INGEST_FAILED", f"the ingest failed ({type(exc).__name__}: {echo(str(exc))}); "
                     f"{out} is as it was", 1, printer)
    if printer:
        printer.end()
    if cancel.is_set():  # the signal came as the update was being committed: it went in whole
        print(f"ingest: interrupted as the update was finishing; {out} holds it", file=sys.stderr)
    result: dict[str, Any] = report.to_json()
    comparison = None
    if golden is not None and before is not None and after is not None:
        comparison = _compare(golden, before, after, args.snapshots or paths.snapshot_dir())
        result["golden"] = comparison
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(report.summary())
        for e in report.errors[:SHOWN_ERRORS]:
            print(f"  line {e.line}: {e.message}")
        if len(report.errors) > SHOWN_ERRORS:
            print(f"  … and {len(report.errors) - SHOWN_ERRORS} more (--json lists them all)")
        if comparison is not None:
            print()
            print(format_comparison(comparison))
    return 1 if report.errors else 0


def _fail(args: argparse.Namespace, code: str, message: str, status: int,
          printer: ProgressPrinter | None = None) -> int:
    if printer:
        printer.end()
    if args.json:
        print(json.dumps({"error": {"code": code, "message": message}}, ensure_ascii=False))
    else:
        print(f"ingest: {code}: {message}", file=sys.stderr)
    return status


def _snapshot(out: Path, proxy: str | None, golden: GoldenSet, when: str) -> Snapshot:
    """The golden set's rankings on ``out`` now (an empty snapshot while there is no library)."""
    import asyncio

    from ..config import load_settings, resolve_connection
    from ..core.query import SearchMode
    from ..evaluate import EvalConfig, EvalReport, evaluate
    from ..evaluate import snapshots as snap
    from ..retrieval import Retriever

    config = EvalConfig(mode=SearchMode.HYBRID)
    name = f"{when}-ingest-{time.strftime('%Y%m%d-%H%M%S')}"
    if not out.exists():
        return snap.empty(name, golden, config.describe(), "")
    assert proxy is not None  # the caller starts one for the golden questions
    token = resolve_connection(proxy=proxy, settings=load_settings()).token.value

    async def go() -> EvalReport:
        retriever = Retriever(out, proxy, token)
        try:
            return await evaluate(retriever, golden, config)
        finally:
            await retriever.aclose()

    return snap.Snapshot.of(name, asyncio.run(go()))


def _compare(golden: GoldenSet, before: Snapshot, after: Snapshot, folder: Path) -> dict[str, Any]:
    from ..evaluate import snapshots as snap

    d = snap.diff(before, after, golden)
    data = d.to_json()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        data["saved"] = [str(snap.save(before, folder)), str(snap.save(after, folder))]
    except OSError as exc:
        data["saved"] = []
        data["save_error"] = f"the snapshots could not be saved in {folder} ({exc.strerror or exc})"
    return data


def format_comparison(data: dict[str, Any]) -> str:
    """The snapshot diff for a person: the headline, each changed question, the means."""
    lines = [f"Golden set {data['golden']} ({len(data['questions'])} questions; {data['config']}): "
             f"{data['better']} better, {data['worse']} worse, {data['same']} same after the ingest", ""]
    changed = [q for q in data["questions"] if q["verdict"] != "same"]
    if changed:
        header = f"{'':2}{'id':<14} {'nDCG@10':>17} {'Δ':>7} {'MRR Δ':>7} {'R@10 Δ':>7} {'+top':>4}  question"
        lines += [header, "-" * len(header)]
        for q in changed:
            mark = "▲" if q["verdict"] == "better" else "▼"
            b, a, dl = q["before"], q["after"], q["delta"]
            lines.append(f"{mark:<2}{q['id']:<14.14} {b['ndcg@10']:7.3f} → {a['ndcg@10']:7.3f} {dl['ndcg@10']:+7.3f} "
                         f"{dl['mrr@10']:+7.3f} {dl['recall@10']:+7.3f} {len(q['entered']):>4}  "
                         f"{textwrap.shorten(q['query'], 44, placeholder='…')}")
        lines.append("")
    mean = data["mean"]
    for m in ("ndcg@10", "mrr@10", "recall@10"):
        lines.append(f"mean {m:<10} {mean['before'][m]:.3f} → {mean['after'][m]:.3f} ({mean['delta'][m]:+.3f})")
    if data.get("saved"):
        lines += ["", "Snapshots saved (the workbench's Snapshots tab compares them):",
                  *(f"  {p}" for p in data["saved"])]
    elif data.get("save_error"):
        lines += ["", data["save_error"]]
    return "\n".join(lines)

"""``amicus-desktop build-db``: build scripture.db from the installed public-domain SWORD modules.

::

    amicus-desktop build-db [--out PATH] [--books romans,john | --demo | --all]
                            [--proxy URL] [--batch N] [--resume [--stop-after N]] [--progress json]

Scope: ``--demo`` (the default) is Romans and John; ``--books`` takes book ids, names or
abbreviations separated by commas; ``--all`` is the whole Bible. Without ``--proxy`` the chunks
are embedded in-process with the local backend (the same model the proxy serves by default);
with it, through the proxy's ``/ai/embed`` (the token resolved as for every command, see
:mod:`amicus_desktop.config`), so the database records exactly the model id that proxy reports.

Progress goes to stderr (``\\r``-updated on a terminal, a line every few seconds otherwise); the
summary to stdout; ``--progress json`` writes one JSON object a line instead (``stage``, ``done``,
``total``, ``rate``, ``eta``, ``books_done``: what the app's background build reads). Ctrl-C or an error
leaves nothing at ``--out``; with ``--resume`` (book by book, :mod:`amicus_desktop.corpus.grow`) they leave
the books written so far, and the same command continues (``--stop-after N`` stops it after N books).
Exit 0 on success, 1 on failure, 130 when interrupted.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from .. import paths
from ..embedding import IN_PROCESS, BackendError, Embedder
from . import output
from .common import positive_int_arg

if TYPE_CHECKING:
    from ..corpus.build import BuildProgress, BuildReport
    from ..corpus.grow import GrowReport


#: The niceness ``--low-priority`` runs at (POSIX): below the window, not starved by a machine's other work.
LOW_PRIORITY = 10


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "build-db",
        help="build scripture.db from the public-domain SWORD modules",
        description="Build scripture.db from the installed public-domain SWORD modules "
        "(World English Bible, Matthew Henry, Scofield, Treasury of David, Strong's, Nave's).",
    )
    p.add_argument("--out", metavar="PATH", type=Path, default=None,
                   help=f"where to write the database (default: {paths.default_db_path()})")
    scope = p.add_mutually_exclusive_group()
    scope.add_argument("--books", metavar="LIST",
                       help="comma-separated books, e.g. romans,john or 'Rom,1 Cor,jude'")
    scope.add_argument("--demo", action="store_true", help="Romans and John (the default)")
    scope.add_argument("--all", action="store_true", help="all 66 books (takes about an hour)")
    model = p.add_mutually_exclusive_group()
    model.add_argument("--proxy", metavar="URL",
                       help="embed through this proxy's /ai/embed instead of a model in this process")
    model.add_argument("--backend", choices=IN_PROCESS, default="local",
                       help="the model to embed with in this process: local (all-MiniLM-L6-v2, the "
                            "default), local-int8 (the same model with int8 arithmetic: faster, vectors and "
                            "a model id of its own; query the library with it) or e5 (multilingual-e5-small; "
                            "the e5 extra). An e5 database must be built this way: e5 embeds chunks "
                            "differently from questions")
    p.add_argument("--batch", metavar="N", type=positive_int_arg, default=64,
                   help="chunks per embedding batch (default 64)")
    p.add_argument("--resume", action="store_true",
                   help="build book by book, each book written whole in one transaction (the library is usable "
                        "from the first book on), and continue a build --resume started and was stopped: "
                        "nothing is embedded twice")
    p.add_argument("--stop-after", metavar="N", type=int, default=None,
                   help="with --resume: write at most N books, then stop with the library still growing (the "
                        "first launch writes the demo's two, and the app continues the rest in the background)")
    p.add_argument("--progress", choices=("bar", "json"), default="bar",
                   help="progress on stderr as a bar (the default) or one JSON object a line (for the app)")
    p.add_argument("--low-priority", action="store_true",
                   help="run at a lower CPU priority (the app's background build: the window stays quick)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def _books(args: argparse.Namespace) -> list[str] | None:
    from ..corpus.build import scope_books

    if args.all:
        return None
    if args.books:
        return [b for b in (x.strip() for x in args.books.split(",")) if b]
    return scope_books(demo=True)


class ProgressPrinter:
    """A plain-text progress bar with rate and ETA on a stream (stderr)."""

    def __init__(self, stream: TextIO, *, interval: float = 3.0) -> None:
        self.stream = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.interval = interval
        self._last_line = 0.0
        self._last_stage = ""
        self._width = 0

    def __call__(self, p: BuildProgress) -> None:
        now = time.monotonic()
        stage_changed = p.stage != self._last_stage
        if (p.stage == "embedding" or p.stage.startswith("book ")) and p.total:
            bar_len = 28
            filled = int(bar_len * p.done / p.total)
            bar = "#" * filled + "-" * (bar_len - filled)
            eta = _duration(p.eta) if p.eta is not None else "?"
            line = (f"{p.stage} [{bar}] {p.done}/{p.total} chunks  "
                    f"{p.rate:5.1f}/s  ETA {eta}")
        else:
            line = p.stage if p.stage in ("finishing", "done") else f"{p.stage} ({p.done}/{p.total})"
        if self.tty:
            pad = max(0, self._width - len(line))
            self.stream.write("\r" + line + " " * pad)
            self._width = len(line)
            if p.stage == "done":
                self.stream.write("\n")
            self.stream.flush()
        elif stage_changed or now - self._last_line >= self.interval or p.done == p.total:
            if p.stage != "done":
                self.stream.write(line + "\n")
                self.stream.flush()
            self._last_line = now
        self._last_stage = p.stage

    def end(self) -> None:
        if self.tty and self._width:
            self.stream.write("\n")
            self.stream.flush()
            self._width = 0


class JsonProgress:
    """Progress as one JSON object a line (``--progress json``): what a program reads (the app's growth)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def __call__(self, p: BuildProgress) -> None:
        line = {"stage": p.stage, "done": p.done, "total": p.total, "rate": round(p.rate, 3),
                "eta": None if p.eta is None else round(p.eta, 1), "books_done": p.books_done}
        self.stream.write(json.dumps(line) + "\n")
        self.stream.flush()

    def end(self) -> None:
        pass


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    return f"{seconds // 60}:{seconds % 60:02d}"


def make_embedder(proxy: str | None, backend: str = "local") -> Embedder:
    """The proxy's model through ``/ai/embed`` when ``proxy`` is given, else ``backend`` in-process."""
    from ..config import load_settings, resolve_connection
    from ..embedding import ProxyEmbedder, get_backend

    if proxy:
        return ProxyEmbedder(proxy, resolve_connection(proxy=proxy, settings=load_settings()).token.value)
    return get_backend(backend)


def run(args: argparse.Namespace) -> int:
    from ..corpus.build import BuildCancelled, build_database

    out = args.out or paths.default_db_path()
    books = _books(args)
    if args.stop_after is not None and (not args.resume or args.stop_after < 0):
        print("build-db: --stop-after needs --resume and a number of books (0 or more)", file=sys.stderr)
        return 2
    printer: ProgressPrinter | JsonProgress | None = None
    if args.low_priority and hasattr(os, "nice"):
        os.nice(max(0, LOW_PRIORITY - os.nice(0)))  # to niceness 10, not 10 more (a niced parent's child)
    if args.progress == "json":
        printer = JsonProgress(sys.stderr)
    elif not args.quiet:
        printer = ProgressPrinter(output.raw(sys.stderr))  # our own drawing: its \r stays
    embedder: Embedder | None = None
    try:
        embedder = make_embedder(args.proxy, args.backend)
        if args.resume:
            from ..corpus.grow import grow_database

            report: BuildReport | GrowReport = grow_database(out, books, embedder, progress=printer,
                                                             batch=args.batch, stop_after=args.stop_after)
        else:
            report = build_database(out, books, embedder, progress=printer, batch=args.batch)
            from ..study.xref_index import index_library

            index_library(out)  # its cross-reference index, so a reader's first one does not wait
    except KeyboardInterrupt:
        if printer:
            printer.end()
        if args.resume and out.exists():
            print(f"build-db: interrupted; the books written so far stay in {out}: run the same command to "
                  "continue", file=sys.stderr)
        else:
            print(f"build-db: interrupted; nothing was written to {out}", file=sys.stderr)
        return 130
    except (BuildCancelled, BackendError, FileNotFoundError, ValueError, OSError) as exc:
        if printer:
            printer.end()
        print(f"build-db: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # a bug, or a library failing in a way it does not document
        if printer:
            printer.end()
        print(f"build-db: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    finally:
        if embedder is not None:
            embedder.close()
    if printer:
        printer.end()
    print(report.summary())
    return 0

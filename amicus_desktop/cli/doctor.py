"""``amicus-desktop doctor``: what this installation has, and what to fix.

Each check prints one line: ✓ (fine), ! (works, but worth knowing) or ✗ (broken, with a sentence
on how to fix it). Exit 1 when any check fails. Qt is *not* imported: its version comes from the
package metadata, so ``doctor`` runs on a machine without a display.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import sys
from dataclasses import asdict, dataclass
from importlib import metadata

from .. import __version__
from ..core.books import BY_ID
from ..core.bundle import Coverage
from ..core.errors import AmicusError
from ..core.results import ModelInfo
from ..core.text import echo
from ..embedding.client import EmbedClient, mismatch_error
from ..http.urls import redact_url
from ..store import content_id
from ..store.fts import FTS_TABLE, NO_INDEX
from ..store.library import open_library
from ..store.sqlite import extension_path, sqlite_version, vec_version
from .common import add_connection_args, resolve_args

OK, WARN, FAIL = "ok", "warn", "fail"
MARK = {OK: "✓", WARN: "!", FAIL: "✗"}


@dataclass
class Check:
    name: str
    status: str
    detail: str
    fix: str = ""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("doctor", help="check the installation, the database and the proxy")
    add_connection_args(p)
    p.add_argument("--json", action="store_true", help="print the checks as JSON")
    p.set_defaults(func=run)


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def run_checks(args: argparse.Namespace) -> list[Check]:
    connection = resolve_args(args)
    db_path, proxy_url, token = connection.values()
    checks = [
        Check("Amicus Desktop", OK, __version__),
        Check("Python", OK if sys.version_info >= (3, 11) else FAIL, f"{platform.python_version()} ({sys.executable})",
              "" if sys.version_info >= (3, 11) else "Install Python 3.11 or newer."),
    ]
    qt = _version("PySide6-Essentials") or _version("PySide6")
    if qt is None:
        checks.append(Check("Qt (PySide6)", FAIL, "not installed", "pip install 'PySide6-Essentials>=6.11.3'"))
    elif sys.version_info < (3, 12) and qt.startswith("6.12"):
        advice = "PySide6 6.12 crashes Python 3.11: install 'PySide6-Essentials<6.12'."
        checks.append(Check("Qt (PySide6)", FAIL, qt, advice))
    else:
        checks.append(Check("Qt (PySide6)", OK, qt))
    checks.append(Check("SQLite (apsw)", OK, f"{sqlite_version()} (apsw {_version('apsw')})"))
    try:
        version = vec_version()
        checks.append(Check("sqlite-vec", OK, f"{version} loads from {extension_path()}"))
    except AmicusError as err:
        checks.append(Check("sqlite-vec", FAIL, err.code.value, err.message))

    info = None
    try:
        with open_library(db_path) as store:
            info = store.info
            types = store.source_type_counts()
            keyword_problem = store.keyword_index_problem()
            scholars = store.scholars()
            named_by_db = len(set(scholars) & set(store.scholar_table()))
            coverage = store.coverage()
            text_books = len(store.books())
            computed_id = content_id.computed(store)
        optional = ", ".join(info.optional_tables) or "none"
        filt = "yes" if info.vec_filter_columns else "no (minimal schema)"
        checks.append(Check("Database", OK, f"{db_path} (from {connection.db_path.source})"))
        checks.append(Check("  model", OK, f"{echo(info.model_id)} · {info.dims} dims · {info.chunk_count:,} chunks"))
        checks.append(Check("  optional tables", OK, f"{optional}; filtered search in vec0: {filt}"))
        checks.append(_completeness(coverage, text_books))
        checks.append(_keyword_check(keyword_problem))
        checks.append(_content_id_check(info.meta.get(content_id.CONTENT_ID_KEY), computed_id))
        by_type = ", ".join(f"{k} {v:,}" for k, v in sorted(types.items()))
        checks.append(Check("  chunks by type", OK, by_type or "none"))
        names = ", ".join(s.name for s in scholars.values()) or "none"
        checks.append(Check("  scholars", OK, f"{len(scholars)} ({names}); {named_by_db} named by the database's "
                            "scholars table, the rest by the app's built-in names"))
    except AmicusError as err:
        checks.append(Check("Database", FAIL, f"{db_path} (from {connection.db_path.source}): {err.code.value}",
                            err.message))

    async def health() -> ModelInfo:
        client = EmbedClient(proxy_url, token)
        try:
            return await client.health()
        finally:
            await client.aclose()

    token_note = f"token from {connection.token.source}" if token else "no token"
    where = f"{echo(redact_url(proxy_url))} (from {connection.proxy_url.source}; {token_note})"
    try:
        model = asyncio.run(health())
    except AmicusError as err:
        checks.append(Check("Embed proxy", FAIL, f"{where}: {err.code.value}", err.message))
    else:
        checks.append(Check("Embed proxy", OK, f"{where} · {echo(model.id)} · {model.dims} dims"))
        if info is not None:
            mismatch = mismatch_error(model, ModelInfo(info.model_id, info.dims))
            if mismatch is not None:
                checks.append(Check("  matches database", FAIL, mismatch.code.value, mismatch.message))
            else:
                checks.append(Check("  matches database", OK, "same model and dims"))
    return checks


def _completeness(coverage: Coverage, text_books: int) -> Check:
    """How much of the Bible the library holds: books with study material (of 66), and the reader's text."""
    n = len(coverage.books)
    detail = f"{n} of {coverage.total} books have study material"
    if 0 < n <= 3:
        detail += " (" + ", ".join(BY_ID[b].name for b in coverage.books) + ")"
    detail += f"; the text of {text_books} books to read and search by words"
    if coverage.growing:
        return Check("  completeness", OK, detail + "; a build is still adding books",
                     "Continue it: 'amicus-desktop build-db --resume --out' this file, with the same scope.")
    if n and not coverage.complete:
        return Check("  completeness", OK, detail, "For the whole Bible: 'amicus-desktop build-db --all --resume'.")
    return Check("  completeness", OK, detail)


def _keyword_check(problem: str | None) -> Check:
    """Where keyword search will look: the database's own index, or the app's (and why)."""
    if problem is None:
        return Check("  keyword index", OK, f"the database's own ({FTS_TABLE})")
    own = "keyword search builds the app's own index outside the database (in the cache folder)"
    if problem == NO_INDEX:
        return Check("  keyword index", OK, f"{problem}: {own}")
    return Check("  keyword index", WARN, f"not used: {problem}; {own}",
                 "Rebuild the database with 'amicus-desktop build-db' to use an index of its own again.")


def _content_id_check(stored: str | None, computed: str) -> Check:
    """The content id answers cite (CONTRACT section 10): the one the builder stored still the chunks' own."""
    if stored is None:
        return Check("  content id", OK, f"{computed} (computed: the library was built without it; a server "
                     "computes it once per file)")
    if stored == computed:
        return Check("  content id", OK, f"{computed} (stored by its builder, and still its chunks')")
    return Check("  content id", WARN, f"the library says {echo(stored)} but its chunks are {computed}: it was "
                 "changed since it was built by a program other than build-db or ingest, and answers would cite "
                 "the old id", "Rebuild it with 'amicus-desktop build-db', or bring the change in by 'ingest'.")


def run(args: argparse.Namespace) -> int:
    checks = run_checks(args)
    failed = any(c.status == FAIL for c in checks)
    if args.json:
        print(json.dumps({"ok": not failed, "checks": [asdict(c) for c in checks]}, ensure_ascii=False))
    else:
        width = max(len(c.name) for c in checks)
        for c in checks:
            print(f"{MARK[c.status]} {c.name:<{width}}  {c.detail}")
            if c.fix:
                print(f"  {'':<{width}}  → {c.fix}")
        print()
        print("Something needs fixing (see →)." if failed else "All good.")
    return 1 if failed else 0

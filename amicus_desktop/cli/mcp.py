"""``amicus-desktop mcp``: the library for language-model clients, over stdio (CONTRACT section 10).

Speaks the Model Context Protocol on stdin/stdout — nothing else is ever written to stdout: logging
goes to stderr (warnings) and ``amicus-mcp.log``. It needs the embed proxy for dense and hybrid
search, as ``query`` does (``keyword`` works without it). ``--workspace`` and ``--overlay`` scope every
tool call (checked at start: a bad workspace id, or an overlay file that is missing or not a valid overlay
— named by the JSON pointer of its first problem — exits 2); ``--allow-writes`` lets ``add_note`` write to
that workspace, and no other.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from .common import add_connection_args, library_from_args, library_name

log = logging.getLogger("amicus.mcp")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "mcp",
        help="serve the library to language-model clients (MCP over stdio)",
        description="Speak the Model Context Protocol over stdio: the tools search_library, get_context, "
                    "read_passage, search_verses, cross_references, strongs, list_notes and add_note, and "
                    "passages as resources (docs/CONTRACT.md section 10).",
    )
    add_connection_args(p)
    p.add_argument("--workspace", metavar="W", help="scope every call to this workspace (its notes, section 11)")
    p.add_argument("--notes-store", metavar="URL",
                   help="where the workspaces' notes are: a postgresql:// URL (shared by every replica; "
                        "docs/DEPLOY.md) or a notes file (default: $AMICUS_NOTES_STORE, else the data folder's file)")
    p.add_argument("--overlay", type=Path, metavar="FILE", help="apply this overlay to every call (section 12)")
    p.add_argument("--allow-writes", action="store_true",
                   help="let add_note save notes in --workspace (without it the server never writes)")
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error", "critical"),
                   help="log level of the log file (default info; stderr gets warnings)")
    p.set_defaults(func=run, parser=p)


def run(args: argparse.Namespace) -> int:
    from .. import logs
    from ..notes.model import WORKSPACE_ID

    if args.workspace is not None and not WORKSPACE_ID.fullmatch(args.workspace):
        args.parser.error("--workspace must be 1–64 characters of a-z, 0-9 and '-'")
    if args.overlay is not None and not args.overlay.is_file():
        args.parser.error(f"--overlay {args.overlay} is not a file")
    if args.overlay is not None:
        from ..overlays import OverlayError, read_overlay

        try:
            args.overlay_loaded = read_overlay(args.overlay)
        except OverlayError as err:
            args.parser.error(f"--overlay: {err}")
    from ..notes.postgres import check_store, store_location

    args.notes_store = store_location(args.notes_store)
    problem = check_store(args.notes_store)
    if problem is not None:
        args.parser.exit(2, f"amicus-desktop mcp: {problem}\n")
    logs.setup_logging(getattr(logging, args.log_level.upper()), stderr_level=logging.WARNING,
                       file_name=logs.MCP_LOG_FILE, also=("mcp",))
    for name in ("httpx", "httpcore"):  # they would log every embed call and its URL
        logging.getLogger(name).setLevel(logging.WARNING)
    # stdout is the protocol's: while it serves, the SDK's stdio transport points descriptor 1 at stderr
    # and writes its messages through a private copy, so a stray print cannot break the session.
    return _serve(args)


def _serve(args: argparse.Namespace) -> int:
    import anyio

    from ..mcp.server import build_server
    from ..serve.library import Library
    from ..serve.scope import Scope

    db, proxy_url, token = library_from_args(args)  # --db postgresql://…: a library on PostgreSQL
    library = Library(db, proxy_url, token, lanes=1, notes_store=args.notes_store)
    server = build_server(library, Scope(args.workspace, getattr(args, "overlay_loaded", None)),
                          allow_writes=args.allow_writes)
    log.info("MCP server on stdio for %s", library_name(db))

    async def main() -> None:
        try:
            await server.run_stdio_async()
        finally:
            await library.aclose()

    anyio.run(main)
    return 0

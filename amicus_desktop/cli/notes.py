"""``amicus-desktop notes add|list|edit|rm|export|import``: the reader's notes (CONTRACT section 11).

Every sub-command works in one ``--workspace``. ``add``, ``edit`` and ``import`` save first and then
embed, with the library's model, whatever notes of the workspace are not embedded yet: when the
proxy (or the library) cannot be reached the notes are saved anyway, ``"embedded": false``, and a
sentence on stderr says so. ``list``, ``rm`` and ``export`` never reach the network.

Exit codes: 0 done; 1 a note that is not in the workspace, a store that cannot be used, or an import
that skipped notes (each reported by index); 2 bad flags — a workspace id, an empty text, a reference
that is not one, a file that is not a notes export.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import textwrap
from pathlib import Path

from .. import paths
from ..core.errors import AmicusError
from ..core.references import PassageRef
from ..core.results import ModelInfo
from ..embedding.client import EmbedClient
from ..files import FileWriteError, check_target, write_atomic
from ..notes import KEEP, Note, NotesCode, NotesError, NotesStore, Workspace, check_workspace, parse_ref
from ..notes.embedding import EmbedOutcome, embed_pending, inline
from ..notes.exchange import export_json, export_markdown, import_file
from ..notes.model import ref_json
from ..notes.store import store_errors
from ..store.library import open_library
from .common import add_connection_args, connection_from_args
from .notes_copy import run_copy

FORMATS = ("json", "markdown")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("notes", help="add, list, edit, remove, export and import your own notes",
                       description="Your own notes, kept per workspace in your data folder; a workspace's notes "
                       "join its questions (query/context/eval --workspace).")
    commands = p.add_subparsers(dest="notes_command", metavar="ACTION", required=True)

    def action(name: str, help_: str, func: object) -> argparse.ArgumentParser:
        a = commands.add_parser(name, help=help_, description=help_[0].upper() + help_[1:] + ".")
        a.add_argument("--workspace", metavar="W", required=True, help="the workspace (1–64 of a-z, 0-9, '-')")
        a.set_defaults(func=func, parser=a)
        return a

    a = action("add", "save a new note and embed it", run_add)
    a.add_argument("text", metavar="TEXT")
    a.add_argument("--ref", metavar="REFERENCE", help="the passage it is on: 'Romans 9:11', 'John 3', 'Rom 9:6-13'")
    add_connection_args(a)
    a.add_argument("--json", action="store_true", help='print {"id", "workspace", "ref", "embedded"}')

    a = action("list", "list the workspace's notes", run_list)
    a.add_argument("--ref", metavar="REFERENCE", help="only notes on this passage")
    a.add_argument("--json", action="store_true", help='print {"workspace", "notes": [...]}')

    a = action("edit", "replace a note's text (and passage)", run_edit)
    a.add_argument("id", metavar="ID")
    a.add_argument("text", metavar="TEXT", nargs="?", help="the new text (leave out to change only --ref)")
    where = a.add_mutually_exclusive_group()
    where.add_argument("--ref", metavar="REFERENCE", help="move the note to this passage")
    where.add_argument("--no-ref", action="store_true", help="detach the note from its passage")
    add_connection_args(a)
    a.add_argument("--json", action="store_true", help='print {"id", "workspace", "ref", "embedded"}')

    a = action("rm", "delete a note", run_rm)
    a.add_argument("id", metavar="ID")
    a.add_argument("--json", action="store_true", help='print {"id", "workspace", "removed"}')

    a = action("export", "write the workspace's notes to a file", run_export)
    a.add_argument("--out", metavar="FILE", required=True, help="the file to write ('-': standard output)")
    a.add_argument("--format", choices=FORMATS, default="json",
                   help="json (the format import reads, the default) or markdown (for reading elsewhere)")

    a = action("marks", "list the workspace's bookmarks and highlights", run_marks)
    a.add_argument("--ref", metavar="REFERENCE", help="only marks on this passage")
    a.add_argument("--label", metavar="L", help="only marks filed under this label (any case)")
    a.add_argument("--search", metavar="TEXT", help="only marks whose labels, passage or kind hold TEXT")
    a.add_argument("--json", action="store_true", help='print {"workspace", "marks": [...], "labels": {...}}')

    a = action("import", "add the notes of an export file to the workspace", run_import)
    a.add_argument("file", metavar="FILE")
    add_connection_args(a)
    a.add_argument("--json", action="store_true", help='print {"imported", "errors": [{"index", "message"}]}')

    c = commands.add_parser("copy", help="copy every workspace of one notes store into another (SQLite ⇄ PostgreSQL)",
                            description="Copy every workspace's notes, bookmarks and highlights from one store into "
                            "another: a notes file or a postgresql:// URL (docs/DEPLOY.md). Notes already in the "
                            "target (same workspace, same id) are left alone, so a copy can be run again.")
    c.add_argument("--from", dest="source", metavar="STORE", help="the store to read (default: the data folder's file)")
    c.add_argument("--to", dest="target", metavar="STORE", required=True, help="the store to write")
    c.add_argument("--json", action="store_true", help='print {"workspaces", "notes", "marks", "skipped"}')
    c.set_defaults(func=run_copy, parser=c)


# -- shared -------------------------------------------------------------------------------------------

def _workspace(args: argparse.Namespace, store: NotesStore) -> Workspace:
    return store.workspace(args.workspace)  # checked first by check_workspace_arg (a usage error)


def _ref(args: argparse.Namespace) -> PassageRef | None:
    if args.ref is None:
        return None
    try:
        return parse_ref(args.ref)
    except NotesError as exc:
        args.parser.error(f"--ref: {exc.message}")
        raise


def _fail(args: argparse.Namespace, exc: NotesError) -> int:
    if exc.code is NotesCode.NOTE_INVALID:
        args.parser.error(exc.message)
    if getattr(args, "json", False):
        print(json.dumps(exc.to_json(), ensure_ascii=False))
    else:
        print(f"error: {exc.code.value}: {exc.message}", file=sys.stderr)
    return 1


def check_workspace_arg(args: argparse.Namespace) -> None:
    """A usage error (exit 2) for a workspace id that is not one, before anything is opened."""
    try:
        check_workspace(args.workspace)
    except NotesError as exc:
        args.parser.error(f"--workspace: {exc.message}")


def embed_now(args: argparse.Namespace, ws: Workspace) -> tuple[EmbedOutcome, ModelInfo | None]:
    """Embed the workspace's pending notes with the library's model, if the library and proxy allow;
    the outcome, and the library's model (``None`` when the library cannot be read)."""
    db, proxy, token = connection_from_args(args)
    try:
        store = open_library(db)
    except AmicusError as exc:
        return EmbedOutcome(0, None, exc.code.value, f"The library cannot be read: {exc.message}"), None
    try:
        library = ModelInfo(store.info.model_id, store.info.dims)
    finally:
        store.close()

    async def run() -> EmbedOutcome:
        client = EmbedClient(proxy, token)
        try:
            return await embed_pending(inline(ws), client, library)
        finally:
            await client.aclose()

    return asyncio.run(run()), library


def not_embedded_sentence(outcome: EmbedOutcome) -> str:
    """What a reader is told when notes could not be embedded (never a note's text)."""
    if outcome.pending is None:
        waiting = "The notes of this workspace that are not embedded yet"
    else:
        waiting = f"{outcome.pending} note{'s' * (outcome.pending != 1)} of this workspace"
    return (f"Saved, but not embedded. {outcome.problem or ''} {waiting} will be searched by words only until "
            "a notes or query command reaches the proxy, which embeds them.")


def _saved(args: argparse.Namespace, ws: Workspace, note: Note, verb: str) -> int:
    outcome, library = embed_now(args, ws)
    embedded = library is not None and ws.get(note.id).embedded_with(library.id)
    if args.json:
        print(json.dumps({"id": note.id, "workspace": ws.id, "ref": ref_json(note.ref), "embedded": embedded}))
    else:
        where = f" on {note.ref.label()}" if note.ref else ""
        print(f"{verb} {note.id} in workspace {ws.id}{where}" + ("; embedded." if embedded else "."))
    if not embedded:
        print(not_embedded_sentence(outcome), file=sys.stderr)
    return 0


# -- actions --------------------------------------------------------------------------------------------

def run_add(args: argparse.Namespace) -> int:
    check_workspace_arg(args)
    ref = _ref(args)
    try:
        with store_errors(), NotesStore() as store:
            ws = _workspace(args, store)
            note = ws.add(args.text, ref)
            return _saved(args, ws, note, "Saved")
    except NotesError as exc:
        return _fail(args, exc)


def run_edit(args: argparse.Namespace) -> int:
    check_workspace_arg(args)
    ref = KEEP if args.ref is None and not args.no_ref else (None if args.no_ref else _ref(args))
    if args.text is None and ref is KEEP:
        args.parser.error("give the new TEXT, --ref or --no-ref")
    try:
        with store_errors(), NotesStore() as store:
            ws = _workspace(args, store)
            note = ws.edit(args.id, args.text, ref)
            return _saved(args, ws, note, "Edited")
    except NotesError as exc:
        return _fail(args, exc)


def run_list(args: argparse.Namespace) -> int:
    check_workspace_arg(args)
    on = _ref(args)
    try:
        with store_errors(), NotesStore() as store:
            ws = _workspace(args, store)
            notes = ws.notes(on=on)
    except NotesError as exc:
        return _fail(args, exc)
    if args.json:
        print(json.dumps({"workspace": ws.id, "notes": [{**n.to_json(), "models": list(n.models)} for n in notes]},
                         ensure_ascii=False))
        return 0
    if not notes:
        print(f"No notes in workspace {ws.id}" + (f" on {on.label()}." if on else "."))
    for n in notes:
        where = n.ref.label() if n.ref else "—"
        first = textwrap.shorten(" ".join(n.text.split()), width=70, placeholder=" …")
        print(f"{n.id}  {where:<22.22}  {n.updated[:16].replace('T', ' ')}  {first}")
    return 0


def run_marks(args: argparse.Namespace) -> int:
    check_workspace_arg(args)
    on = _ref(args)
    try:
        with store_errors(), NotesStore() as store:
            marks = _workspace(args, store).marks()
            found = marks.search(args.search) if args.search else marks.marks(on=on, label=args.label)
            if args.search:
                found = [m for m in found if m in marks.marks(on=on, label=args.label)]
            labels = marks.labels()
    except NotesError as exc:
        return _fail(args, exc)
    if args.json:
        print(json.dumps({"workspace": args.workspace, "marks": [m.to_json() for m in found],
                          "labels": dict(labels)}, ensure_ascii=False))
        return 0
    if not found:
        print(f"No bookmarks or highlights in workspace {args.workspace}.")
    for m in found:
        kind = m.kind.value if m.colour is None else f"{m.kind.value} ({m.colour})"
        print(f"{m.id}  {m.ref.label():<22.22}  {kind:<18}  {', '.join(m.labels)}")
    return 0


def run_rm(args: argparse.Namespace) -> int:
    check_workspace_arg(args)
    try:
        with store_errors(), NotesStore() as store:
            ws = _workspace(args, store)
            note = ws.remove(args.id)
    except NotesError as exc:
        return _fail(args, exc)
    if args.json:
        print(json.dumps({"id": note.id, "workspace": ws.id, "removed": True}))
    else:
        print(f"Deleted {note.id} from workspace {ws.id}.")
    return 0


def run_export(args: argparse.Namespace) -> int:
    check_workspace_arg(args)
    try:
        with store_errors(), NotesStore() as store:
            ws = _workspace(args, store)
            count = ws.count()
            data = (export_markdown(ws) if args.format == "markdown"
                    else json.dumps(export_json(ws), ensure_ascii=False, indent=1) + "\n")
    except NotesError as exc:
        return _fail(args, exc)
    if args.out == "-":
        sys.stdout.write(data)
        return 0
    out = Path(args.out)
    try:  # a target refused (a database by name or by its bytes, a folder, a pipe, a device): usage, exit 2
        check_target(out, (paths.notes_path(),), what="notes", hint="a name ending in .json or .md")
    except FileWriteError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    try:
        write_atomic(out, data, mode=0o600)  # the reader's notes: readable by the reader alone, as the store is
    except FileWriteError as exc:  # the write itself failed (a full disk): exit 1, nothing changed
        print(f"error: {exc.message}", file=sys.stderr)
        return 1
    print(f"Exported {count} note{'s' * (count != 1)} of workspace {ws.id} to {out}.", file=sys.stderr)
    return 0


def run_import(args: argparse.Namespace) -> int:
    check_workspace_arg(args)
    try:
        with store_errors(), NotesStore() as store:
            ws = _workspace(args, store)
            report = import_file(ws, Path(args.file))
            outcome = embed_now(args, ws)[0] if report.imported else None
    except NotesError as exc:
        return _fail(args, exc)
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        print(f"Imported {len(report.imported)} note{'s' * (len(report.imported) != 1)} into workspace {ws.id}.")
        for index, old, new in report.renamed:
            print(f"  note {index}: its id {old} was taken; it is {new} now")
        for index, message in report.errors:
            print(f"  note {index} skipped: {message}")
    if outcome is not None and outcome.code is not None:
        print(not_embedded_sentence(outcome), file=sys.stderr)
    return 1 if report.errors else 0

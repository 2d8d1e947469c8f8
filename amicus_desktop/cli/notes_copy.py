"""``amicus-desktop notes copy --from STORE --to STORE``: a whole notes store into another (:mod:`..notes.copy`).

A store is a notes file or a ``postgresql://`` URL; ``--from`` defaults to the data folder's file. Exit 0
done, 1 a store that cannot be used (the message says which and why). Never prints a note.
"""

from __future__ import annotations

import argparse
import json
import sys


def run_copy(args: argparse.Namespace) -> int:
    from ..notes.copy import copy_store
    from ..notes.errors import NotesError
    from ..notes.postgres import open_store
    from ..notes.store import store_errors

    try:
        with store_errors(), open_store(args.source) as source, open_store(args.target) as target:
            report = copy_store(source, target)
    except NotesError as exc:
        if args.json:
            print(json.dumps(exc.to_json(), ensure_ascii=False))
        else:
            print(f"error: {exc.message}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        print(f"Copied {report.notes} notes and {report.marks} marks of {report.workspaces} workspaces "
              f"({report.skipped} already there). The target embeds them when a question or a notes command "
              "next reaches the proxy.")
    return 0

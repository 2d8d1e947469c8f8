"""``amicus-desktop validate overlay|bundle FILE``: is this file an overlay, or a saved bundle? (CONTRACT section 12)

Checks FILE against the shipped JSON Schema (``resources/schemas/overlay.schema.json`` or
``bundle.schema.json``, with ``jsonschema``) and the rules a schema cannot state, and prints one
``<json-pointer>: <problem>`` line per problem (``--json``: ``{"valid", "errors": [{"path", "message"}]}``).
Exit 0 when valid, 1 when not (a file that is not JSON is one problem at ``/``), 2 for usage — bad flags,
or a file that cannot be read at all.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..bundle.check import check_bundle
from ..overlays import check
from ..overlays.load import MAX_OVERLAY_BYTES
from ..schemas import NotJson, Problem, read_json
from .common import text_arg

#: a saved bundle holds the text of up to 50 results and thousands of rejected ids: a few MB at most
MAX_BUNDLE_BYTES = 64 << 20


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "validate",
        help="check an overlay or a saved query --json against its schema",
        description="Check FILE against the shipped JSON Schema of an overlay or of the retrieval bundle "
                    "(what query --json prints) and print one '<json-pointer>: <problem>' line per problem. "
                    "Exit 0 when valid, 1 when not.",
    )
    p.add_argument("kind", choices=("overlay", "bundle"), help="what FILE should be")
    p.add_argument("file", metavar="FILE", type=text_arg)
    p.add_argument("--json", action="store_true", help='print {"valid": bool, "errors": [{"path", "message"}]}')
    p.set_defaults(func=run, parser=p)


def run(args: argparse.Namespace) -> int:
    try:
        found = _overlay_problems(args.file) if args.kind == "overlay" else _bundle_problems(args.file)
    except OSError as exc:
        print(f"error: {args.file} cannot be read ({exc.strerror or exc})", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"valid": not found, "errors": [p.to_json() for p in found]}, ensure_ascii=False))
    elif found:
        print("\n".join(str(p) for p in found))
    else:
        print(f"{args.file}: a valid {args.kind}")
    return 1 if found else 0


def _overlay_problems(path: str) -> list[Problem]:
    try:
        data = read_json(path, MAX_OVERLAY_BYTES)
    except NotJson as exc:
        return list(exc.problems)
    return check(data)


def _bundle_problems(path: str) -> list[Problem]:
    try:
        data = read_json(path, MAX_BUNDLE_BYTES)
    except NotJson as exc:
        return list(exc.problems)
    return check_bundle(data)

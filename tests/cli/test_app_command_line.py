"""The app's own command line (no sub-command) is parsed without importing the sub-commands' modules: their
servers, benchmarks and evaluations cost the app ~ 10 MB at start (docs/PERFORMANCE.md, start-up memory)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from amicus_desktop.cli import build_parser, only_app_options

HEAVY = ("uvicorn", "starlette", "amicus_desktop.bench", "amicus_desktop.serve.app", "amicus_desktop.proxy.server")


@pytest.mark.parametrize(("argv", "app"), [
    ([], True),
    (["--db", "a.db", "--proxy", "http://127.0.0.1:1", "--query", "query", "--chapter", "romans:3"], True),
    (["--screenshot=out.png", "--db", "verses"], True),  # a value that names a sub-command is still a value
    (["query", "grace"], False),
    (["--db", "a.db", "doctor"], False),
    (["--version"], False),
    (["-h"], False),
    (["--db"], False),  # a missing value: the full parser says so
    (["--d", "a.db"], False),  # an abbreviation: argparse's own rules
])
def test_which_command_lines_are_the_apps_own(argv: list[str], app: bool) -> None:
    assert only_app_options(argv) is app


def test_the_apps_parser_reads_its_options_without_the_sub_commands() -> None:
    args = build_parser(()).parse_args(["--db", "a.db", "--query", "doctor", "--chapter", "john:3"])
    assert (args.command, args.db, args.query, args.chapter) == (None, "a.db", "doctor", "john:3")
    full = build_parser().parse_args(["--db", "a.db", "--query", "doctor"])
    assert (full.command, full.db, full.query) == (None, "a.db", "doctor")


def _imported(code: str) -> list[str]:
    probe = f"import json, sys\n{code}\nprint(json.dumps([m for m in {HEAVY!r} if m in sys.modules]))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return list(json.loads(out))


def test_the_apps_command_line_imports_no_server_or_benchmark() -> None:
    assert _imported("from amicus_desktop.cli import build_parser\nbuild_parser(()).parse_args(['--db', 'x'])") == []
    assert set(_imported("from amicus_desktop.cli import build_parser\nbuild_parser()")) >= {"uvicorn", "starlette"}

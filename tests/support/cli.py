"""Running ``amicus-desktop`` as another program would: as a subprocess, or in this process (faster).

The in-process runner calls the same ``main()`` the console script calls, with stdout and stderr
captured and ``SystemExit`` (argparse's usage errors) turned into an exit code.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from typing import Any

from amicus_desktop.cli import main

from .bundles import check_printed


def cli(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m amicus_desktop ARGS`` in a subprocess (a bundle it prints is checked: :mod:`.bundles`)."""
    proc = subprocess.run(
        [sys.executable, "-m", "amicus_desktop", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )
    check_printed(args, proc.returncode, proc.stdout)
    return proc


def run(*args: str) -> tuple[int, str, str]:
    """``amicus-desktop ARGS`` in this process: exit code, stdout, stderr (a bundle it prints is checked)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    check_printed(args, code, out.getvalue())
    return code, out.getvalue(), err.getvalue()


def query_json(*args: str, subprocess_: bool = False) -> tuple[int, dict[str, Any]]:
    """``query ARGS --json``: the exit code and the one JSON object it printed on one line."""
    if subprocess_:
        proc = cli("query", *args, "--json")
        code, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
    else:
        code, stdout, stderr = run("query", *args, "--json")
    assert stdout.count("\n") == 1, stdout + stderr
    return code, json.loads(stdout)

"""The core knows nothing of Qt: only ``amicus_desktop/ui/`` may import PySide6 or qasync.

That includes ``amicus_desktop/session/``, the app's state and async work: the window is only one
way to drive it (the tests in ``tests/session/`` are another).
"""

from __future__ import annotations

import ast
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import amicus_desktop

PACKAGE = Path(amicus_desktop.__file__).parent
QT_MODULES = ("PySide6", "shiboken6", "qasync", "PyQt5", "PyQt6")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_no_qt_import_outside_ui() -> None:
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "ui":
            continue
        for name in imported_modules(path):
            if name.split(".")[0] in QT_MODULES:
                offenders.append(f"{rel}: {name}")
    assert offenders == []


def test_importing_every_core_module_loads_no_qt() -> None:
    modules = [
        m.name
        for m in pkgutil.walk_packages([str(PACKAGE)], prefix="amicus_desktop.")
        if not m.name.startswith("amicus_desktop.ui") and m.name != "amicus_desktop.__main__"
    ]
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {QT_MODULES!r}]\n"
        "print(bad); raise SystemExit(1 if bad else 0)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert len(modules) > 10
    assert {"amicus_desktop.session.controller", "amicus_desktop.session.engine"} <= set(modules)


def test_a_session_runs_without_qt(tmp_path: Path) -> None:
    """Build a session, ask it for a retrieval context, start it (no database: the welcome state)
    and close it, in a process where importing Qt would fail."""
    code = (
        "import asyncio, sys\n"
        f"for name in {QT_MODULES!r}: sys.modules[name] = None  # any Qt import now raises\n"
        "from amicus_desktop.session import DbStatus, Overrides, Session\n"
        "async def main():\n"
        "    s = Session(overrides=Overrides(proxy_url='http://127.0.0.1:9'))\n"
        "    assert s.context('grace').k == s.prefs.settings.k\n"
        "    s.start()\n"
        "    assert await s.until(lambda: s.library.state.status is DbStatus.MISSING, 10)\n"
        "    await s.aclose()\n"
        "asyncio.run(main())\n"
    )
    env = {**os.environ, "AMICUS_HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=120,
                          env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr


#: What SQL looks like in this code base (keywords in capitals, as every statement here writes them).
_SQL = re.compile(
    r"\b(SELECT\b[\s\S]*\bFROM|INSERT INTO|UPDATE \w+ SET|DELETE FROM|CREATE (VIRTUAL )?TABLE|CREATE INDEX"
    r"|ATTACH DATABASE|PRAGMA \w+|json_each)"
)


#: The modules of the reader's notes store (``notes/``): it owns the SQL of its own file, as ``store/``
#: owns scripture.db's; the rest of ``notes/`` (model, exchange, embedding) asks it typed questions too.
NOTES_STORE_MODULES = frozenset({"schema.py", "store.py", "workspace.py", "search.py", "index.py", "marks.py"})


def test_the_store_owns_its_sql() -> None:
    """Outside ``store/`` (and the notes store's own modules) the app asks the stores typed questions: no
    SQL text, no apsw, no reaching for the store's connection or its raw ``rows``."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "store" or (rel.parts[0] == "notes" and rel.name in NOTES_STORE_MODULES):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if "apsw" in {name.split(".")[0] for name in imported_modules(path)}:
            offenders.append(f"{rel}: imports apsw")
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and _SQL.search(node.value):
                offenders.append(f"{rel}:{node.lineno}: SQL {node.value[:60]!r}")
            if (isinstance(node, ast.Attribute) and node.attr in ("con", "rows")
                    and ast.unparse(node.value).endswith("store")):
                offenders.append(f"{rel}:{node.lineno}: {ast.unparse(node)}")
    assert offenders == []

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
#: owns scripture.db's (on PostgreSQL too: postgres.py and pg*.py); the rest of ``notes/`` (model, exchange,
#: embedding) asks it typed questions too.
NOTES_STORE_MODULES = frozenset({"schema.py", "store.py", "workspace.py", "search.py", "index.py", "marks.py",
                                 # the same store on PostgreSQL (postgres.py)
                                 "postgres.py", "pgschema.py", "pgworkspace.py", "pgmarks.py", "pgsearch.py",
                                 "pgvectors.py"})


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


#: The floors of the house, lowest first: a module imports only from its own floor or the floors below
#: (``TYPE_CHECKING`` imports aside). A question flows up through them: understand/store → candidates →
#: rerank/bundle → retrieval → present → evaluate → session → the faces (the window, the command line,
#: the service, the MCP server). A new package takes its floor here, in the change that adds it.
FLOORS: tuple[frozenset[str], ...] = tuple(frozenset(f.split()) for f in (
    "__init__ core resources paths files http schemas knobs allocator",  # plain data, the user's files, HTTP rules, the
    # table of a search request's knobs
    "pin_scopes settings_values settings config logs",  # what the user set, and where it lives
    "understand store embedding overlays",  # the question, the library, vectors, a role's policy
    "notes context connectivity states",  # the reader's notes, context blocks, the proxy's state, app states
    "candidates",
    "rerank bundle",
    "retrieval",
    "verses study",  # searches and study aids built on the retrieval pipeline
    "present",  # words for people
    "corpus evaluate",  # building libraries; golden sets and measurement
    "session",  # the app's state and work, without Qt
    "ui cli serve mcp proxy bench __main__",  # the faces
))

#: Upward imports still to remove, each with its issue: an entry here is a debt, not a permission.
KNOWN_UPWARD: frozenset[tuple[str, str]] = frozenset()


def floor_of(name: str) -> int:
    for level, names in enumerate(FLOORS):
        if name in names:
            return level
    raise AssertionError(f"amicus_desktop/{name} has no floor: add it to FLOORS in tests/test_architecture.py")


def package_imports(package: Path) -> list[tuple[str, str, str]]:
    """``(importing file, its top-level part, the imported top-level part)`` for every import between two
    different top-level parts of ``package`` outside ``if TYPE_CHECKING:`` blocks."""
    found = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package)
        source = rel.parts[0] if len(rel.parts) > 1 else rel.stem
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                       and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
        for node in ast.walk(tree):
            if id(node) in typing_only or not isinstance(node, ast.ImportFrom | ast.Import):
                continue
            if isinstance(node, ast.Import):
                targets = [a.name.split(".")[1] for a in node.names
                           if a.name.startswith(f"{package.name}.") and a.name.count(".") >= 1]
            elif node.level == 0:
                mod = node.module or ""
                targets = [mod.split(".")[1]] if mod.startswith(f"{package.name}.") else []
            else:
                base = list(rel.parts[:-1])[: len(rel.parts) - node.level]
                parts = base + [p for p in (node.module or "").split(".") if p]
                # ``from .. import x``: x is a module or package of its own, or a name of the package's __init__
                targets = [parts[0]] if parts else [
                    a.name if (package / a.name).is_dir() or (package / f"{a.name}.py").is_file() else "__init__"
                    for a in node.names]
            found += [(str(rel), source, t) for t in targets if t != source]
    return found


def upward_imports(package: Path) -> list[str]:
    return [f"{rel} imports {target} ({source} is on floor {floor_of(source)}, {target} on {floor_of(target)})"
            for rel, source, target in package_imports(package)
            if floor_of(target) > floor_of(source) and (source, target) not in KNOWN_UPWARD]


def test_imports_only_go_down() -> None:
    assert upward_imports(PACKAGE) == []


def test_the_floor_check_finds_a_planted_upward_import(tmp_path: Path) -> None:
    """The check itself: a copy of two modules with ``core`` importing ``session`` is caught."""
    planted = tmp_path / "amicus_desktop"
    (planted / "core").mkdir(parents=True)
    (planted / "session").mkdir()
    (planted / "core" / "query.py").write_text("from ..session.controller import Session\n", encoding="utf-8")
    (planted / "session" / "controller.py").write_text("from ..core.query import RetrievalContext\n",
                                                       encoding="utf-8")
    assert upward_imports(planted) == ["core/query.py imports session (core is on floor 0, session on 10)"]


def test_every_known_upward_import_still_exists() -> None:
    """An entry of :data:`KNOWN_UPWARD` whose import is gone is removed from the list."""
    present = {(source, target) for _, source, target in package_imports(PACKAGE)}
    assert KNOWN_UPWARD <= present


#: the sub-commands that start the service and the MCP server: the only modules of ``cli/`` that import them
LAUNCHERS = frozenset({"cli/serve.py", "cli/mcp.py"})


def test_flags_are_read_in_cli_alone_and_the_faces_keep_apart() -> None:
    """Issue 31: no argparse outside ``cli/`` (a request is typed data, not a Namespace); ``serve/`` and ``mcp/``
    import nothing of ``cli/``, and ``cli/`` imports them only in the sub-commands that start them."""
    offenders = [f"{path.relative_to(PACKAGE)}: imports argparse" for path in PACKAGE.rglob("*.py")
                 if path.relative_to(PACKAGE).parts[0] != "cli" and "argparse" in imported_modules(path)]
    for rel, source, target in package_imports(PACKAGE):
        if (source in ("serve", "mcp") and target == "cli") or (
                source == "cli" and target in ("serve", "mcp") and rel not in LAUNCHERS):
            offenders.append(f"{rel} imports {target}")
    assert offenders == []

"""The window's code runs on one qasync loop over Qt's: a coroutine of ``ui/`` (or of the screenshot scripts in
``tools/``, which drive the same window) never spins Qt's event loop itself.

``QApplication.processEvents()`` called inside a running task delivers other tasks' wake-ups re-entrantly; qasync
refuses them ("Cannot enter into task … while another task … is being executed") and drops the wake-up, so that
task waits for ever and the session's close, which waits for every task, never returns: a ``--screenshot`` run
that saved its PNG and never exited. A coroutine lets the loop do the work instead (``await asyncio.sleep``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import amicus_desktop

UI = Path(amicus_desktop.__file__).parent / "ui"
TOOLS = Path(__file__).resolve().parents[2] / "tools"
SPINS = {"processEvents", "sendPostedEvents", "exec", "exec_"}


def _spins_in_coroutines(tree: ast.AST) -> list[tuple[str, int]]:
    """(coroutine, line) of every call spinning the event loop in the body of an ``async def`` (nested plain
    functions excluded: they run when called, wherever that is)."""
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST, coroutine: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.AsyncFunctionDef):
                visit(child, child.name)
            elif isinstance(child, (ast.FunctionDef, ast.Lambda, ast.ClassDef)):
                visit(child, None)
            else:
                if (coroutine is not None and isinstance(child, ast.Call) and isinstance(child.func, ast.Attribute)
                        and child.func.attr in SPINS):
                    found.append((coroutine, child.lineno))
                visit(child, coroutine)

    visit(tree, None)
    return found


def test_no_coroutine_of_the_window_spins_the_event_loop() -> None:
    files = sorted(UI.rglob("*.py")) + sorted(TOOLS.rglob("*.py"))
    assert len(files) > 60
    offenders = [f"{path}:{line} in {name}()" for path in files
                 for name, line in _spins_in_coroutines(ast.parse(path.read_text(encoding="utf-8")))]
    assert offenders == []


def test_the_rule_sees_a_spin_inside_a_coroutine_and_not_outside() -> None:
    source = '''
async def shoot(window):
    await asyncio.sleep(0.3)
    QApplication.processEvents()

def paint(app):
    app.processEvents()

async def outer():
    def later():
        app.processEvents()
    return later
'''
    assert _spins_in_coroutines(ast.parse(source)) == [("shoot", 4)]

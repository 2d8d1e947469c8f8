"""What leaves the window: the work behind *Export results…* and *Copy as Amicus context*, and the
rule for which files an export never writes over. No Qt.

Each function reads what it needs from the session now and returns a function over plain values
(a result, a path, names, a budget) for a worker thread — an :class:`~.background.Op`'s work. The
window runs it (``ui/export.py``) and shows the outcome. Writing and its refusals are
:func:`amicus_desktop.present.export.export_result`'s; which database it protects is decided here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from ..context import Context, WordPieceCounter, assemble
from ..core.results import RetrievalResult
from ..present import citation
from ..present.export import ExportFormat, export_result

if TYPE_CHECKING:
    from .controller import Session


def protected_paths(session: Session) -> tuple[Path, ...]:
    """The files an export refuses to write over under any name (a link to one included): the
    database the session is set to open."""
    return (session.prefs.endpoints.db_path,)


def export_work(session: Session, result: RetrievalResult, path: Path, fmt: ExportFormat) -> Callable[[], int]:
    """Writing ``result`` to ``path`` as ``fmt``: returns the rows written, raises
    :class:`~amicus_desktop.present.export.ExportError` with a sentence for the user."""
    return partial(export_result, result, path, fmt, session.library.names, protected_paths(session))


def context_work(session: Session) -> Callable[[], Context] | None:
    """Assembling the results on screen within the saved budget (the tokenizer loads and counts on
    the worker thread); ``None`` when there are no results."""
    view = session.question.view
    if view is None:
        return None
    budget = session.prefs.settings.context_budget
    names = session.library.names
    results = view.result.results

    def build() -> Context:
        return assemble(results, budget=budget, count=WordPieceCounter(), cite=lambda r: citation(r, names))

    return build

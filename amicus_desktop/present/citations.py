"""Citation lines for context assembly: what a chunk is, whose (the scholar's display name and
work), and where. The wording is :func:`amicus_desktop.present.titles.citation`'s; this adapts it to
ranked results, the shape ``context`` assembles."""

from __future__ import annotations

from ..core.results import RetrievedChunk
from . import titles
from .titles import DEFAULT_NAMES, Names


def citation(r: RetrievedChunk, names: Names = DEFAULT_NAMES) -> str:
    """``Section note: Matthew Henry, Concise Commentary — Romans 9:6-13``. Pass the database's
    ``Names`` (``books``, ``ScriptureStore.scholars()``) to use its own names; without them the
    built-in book table and known scholars name things."""
    return titles.citation(r.candidate, names)

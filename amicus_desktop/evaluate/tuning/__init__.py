"""The weight search: the boosts, cap, fusion and the app policy's spread and focus, searched on a training
half of a golden set and reported on the other half (``eval --search-weights``, the workbench's *Tune* tab).

:func:`search_weights` retrieves every question once (on the retriever's DB thread) and runs the search in
a worker thread, so neither the event loop nor the window waits; the search itself is
:func:`.search.coordinate_ascent` (the knobs: :mod:`.space`), its words :mod:`.verdict`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from ...retrieval import Retriever
from ..golden import GoldenSet
from ..run import EvalConfig, evaluate
from .search import Outcome, Progress, coordinate_ascent, held_out, split
from .space import KNOBS, Knob, differences, knobs_for
from .verdict import changes, summary, to_json, warnings


async def search_weights(retriever: Retriever, golden: GoldenSet, start: EvalConfig, *, budget: float = 60.0,
                         asked: Callable[[int, int], None] | None = None,
                         progress: Callable[[Progress], None] | None = None,
                         stop: Callable[[], bool] | None = None) -> Outcome:
    """Ask every question of ``golden`` once under ``start`` (``asked(done, total)`` after each), then search
    for at most ``budget`` seconds off the event loop. ``progress``/``stop`` are called from the worker thread."""
    report = await evaluate(retriever, golden, start, keep_results=True, progress=asked)
    book_ids = sorted(await retriever.run_db(lambda store: store.book_ids()))
    return await asyncio.to_thread(coordinate_ascent, golden, report.results, book_ids, start, budget=budget,
                                   progress=progress, stop=stop)


__all__ = ["KNOBS", "Knob", "Outcome", "Progress", "changes", "coordinate_ascent", "differences", "held_out",
           "knobs_for", "search_weights", "split", "summary", "to_json", "warnings"]

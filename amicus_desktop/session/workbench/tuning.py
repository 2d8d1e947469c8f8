"""The weight search in the workbench: started from the curator's saved configuration, run off the UI
thread with progress and a time budget, and — when the curator chooses — applied as their weights. No Qt.

The search itself is :mod:`amicus_desktop.evaluate.tuning`: every question asked once on the engine (its DB
thread), then coordinate ascent in a worker thread; its progress is handed to the event loop's thread
before any listener sees it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...core.errors import AmicusError
from ...evaluate import tuning
from ...evaluate.golden import GoldenSet
from ...evaluate.run import EvalConfig

if TYPE_CHECKING:
    from .facade import Workbench

log = logging.getLogger("amicus.curate")


@dataclass(frozen=True)
class TuneProgress:
    """``asked`` of ``questions`` retrieved, then ``tried`` configurations (of about ``planned``)."""

    asked: int
    questions: int
    tried: int = 0
    planned: int = 0
    best: float | None = None


class TuneJob:
    """:attr:`outcome` (the last search's, for the set it ran on) and :attr:`running`."""

    def __init__(self, bench: Workbench) -> None:
        self._bench = bench
        self.outcome: tuning.Outcome | None = None
        self.running = False
        self._task: asyncio.Task[None] | None = None
        self._stop = threading.Event()

    def start_config(self) -> EvalConfig:
        """Where the search starts: the curator's saved weights, with the app's mode, fusion and policy."""
        config = self._bench.eval_job.eval_config()
        return EvalConfig(config.mode, self._bench.whatif_job.saved_weights, config.fusion, config.candidates, "",
                          config.policy)

    def start(self, budget: float = 60.0) -> asyncio.Task[None] | None:
        bench = self._bench
        golden, engine = bench.golden_job.golden, bench.session.engine
        if golden is None or len(golden.queries) < 4:
            bench.notice.emit("Open a golden set of at least four questions first: the search needs a half to "
                              "train on and a half to check on.")
            return None
        if engine is None or not bench.session.can_ask:
            bench.notice.emit("The database and the proxy must be ready to search the weights.")
            return None
        self.cancel()
        self._stop = threading.Event()
        self.running, self.outcome = True, None
        bench.changed.emit(None)
        self._task = engine.spawn(self._run(golden, self.start_config(), budget, self._stop))
        return self._task

    async def _run(self, golden: GoldenSet, start: EvalConfig, budget: float, stop: threading.Event) -> None:
        bench = self._bench
        engine = bench.session.engine
        loop = asyncio.get_running_loop()
        n = len(golden.queries)

        def asked(done: int, total: int) -> None:
            bench.tune_progress.emit(TuneProgress(done, total))

        def searched(p: tuning.Progress) -> None:  # the worker thread
            loop.call_soon_threadsafe(bench.tune_progress.emit, TuneProgress(n, n, p.tried, p.planned, p.best))

        try:
            if engine is None:
                return
            outcome = await tuning.search_weights(engine.retriever, golden, start, budget=budget, asked=asked,
                                                  progress=searched, stop=stop.is_set)
            if bench.golden_job.golden is not None and bench.golden_job.golden.name == golden.name:
                self.outcome = outcome
            log.info("weights searched", extra={"tried": outcome.tried, "ended": outcome.ended})
        except AmicusError as err:
            bench.notice.emit(f"The weight search stopped: {err.message}")
        finally:
            stop.set()  # a search thread still running sees it at its next try
            if asyncio.current_task() is self._task:
                self.running = False
                bench.changed.emit(None)

    def cancel(self) -> None:
        self._stop.set()
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
        if self.running:
            self.running = False
            self._bench.changed.emit(None)

    def apply(self) -> bool:
        """Save the found configuration as the curator's: boosts, cap, fusion, α, spread and focus
        (Settings); every later question uses it. ``False`` when there is nothing to apply."""
        outcome = self.outcome
        if outcome is None or not tuning.differences(outcome.start, outcome.best):
            return False
        best, session = outcome.best, self._bench.session
        w, p = best.weights, best.policy
        session.apply_settings(session.prefs.settings.replace(
            chapter_boost=w.chapter, scholar_boost=w.scholar, tradition_boost=w.tradition,
            reference_boost=w.reference, per_scholar_cap=w.per_scholar_cap, fusion=best.fusion.method.value,
            alpha=best.fusion.alpha, spread=p.spread, focus_boost=p.focus))
        self._bench.notice.emit("The found weights are now your weights (Settings); Reset in What-if does not "
                                "undo this — the Settings dialog does.")
        return True

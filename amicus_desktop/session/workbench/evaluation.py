"""Evaluating the set: every golden question asked with the what-if weights, off the UI thread. No Qt."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...core.errors import AmicusError
from ...evaluate.golden import GoldenSet
from ...evaluate.run import EvalConfig, EvalReport, evaluate

if TYPE_CHECKING:
    from .facade import Workbench

log = logging.getLogger("amicus.curate")


@dataclass(frozen=True)
class Progress:
    """``done`` of ``total`` golden questions evaluated."""

    done: int
    total: int


class EvaluationJob:
    """The last run's :attr:`report` and whether one is running (:attr:`evaluating`)."""

    def __init__(self, bench: Workbench) -> None:
        self._bench = bench
        self.report: EvalReport | None = None
        self.evaluating = False
        self._task: asyncio.Task[None] | None = None

    def eval_config(self) -> EvalConfig:
        """What "Evaluate set" measures: what a reader gets — the saved search mode, candidates, fusion and
        ranking policy (``app_context``'s) — with the what-if weights."""
        s = self._bench.session.prefs.settings
        return EvalConfig(mode=s.search_mode, weights=self._bench.whatif_job.weights, fusion=s.fusion_config,
                          candidates=max(s.candidates, s.k), policy=s.policy)

    def evaluate_set(self) -> asyncio.Task[None] | None:
        """Run every golden question (off the UI thread); :attr:`Workbench.progress` after each,
        :attr:`report` at the end."""
        bench = self._bench
        golden, engine = bench.golden_job.golden, bench.session.engine
        if golden is None or not golden.queries:
            bench.notice.emit("Open a golden set with at least one question first.")
            return None
        if engine is None or not bench.session.can_ask:
            bench.notice.emit("The database and the proxy must be ready to evaluate the set.")
            return None
        self.cancel_evaluation()
        self.evaluating = True
        bench.changed.emit(None)
        self._task = engine.spawn(self._evaluate(golden, self.eval_config()))
        return self._task

    async def _evaluate(self, golden: GoldenSet, config: EvalConfig) -> None:
        bench = self._bench
        engine = bench.session.engine
        try:
            if engine is None:
                return
            report = await evaluate(engine.retriever, golden, config,
                                    progress=lambda done, total: bench.progress.emit(Progress(done, total)))
            current = bench.golden_job.golden
            if golden is current or (current is not None and current.name == golden.name):
                self.report = report
                bench.golden_job.missing = report.missing
            log.info("golden set evaluated", extra={"queries": len(report.queries)})
            bench.history_job.record(report)
        except AmicusError as err:
            bench.notice.emit(f"The evaluation stopped: {err.message}")
        finally:
            if asyncio.current_task() is self._task:
                self.evaluating = False
                bench.changed.emit(None)

    def cancel_evaluation(self) -> None:
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
        if self.evaluating:
            self.evaluating = False
            self._bench.changed.emit(None)

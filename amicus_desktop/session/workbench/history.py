"""The open golden set's history: every "Evaluate set" run kept in the data folder, and the runs read
back for the trend. No Qt; the files are :mod:`amicus_desktop.evaluate.history`'s, read and written off
the UI thread."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from ... import paths
from ...evaluate import history as history_io
from ...evaluate.run import EvalReport

if TYPE_CHECKING:
    from .facade import Workbench

log = logging.getLogger("amicus.curate")


class HistoryJob:
    """:attr:`runs`: the open set's runs, oldest first (empty until read)."""

    def __init__(self, bench: Workbench) -> None:
        self._bench = bench
        self.runs: list[history_io.Run] = []

    def refresh(self) -> asyncio.Task[None] | None:
        """Read the open set's runs again (off the UI thread)."""
        golden = self._bench.golden_job.golden
        if golden is None:
            self.runs = []
            return None
        return self._bench.spawn(self._read(golden.name))

    async def _read(self, name: str) -> None:
        runs = await asyncio.to_thread(history_io.load, paths.history_dir(), name)
        if self._bench.golden_job.golden is not None and self._bench.golden_job.golden.name == name:
            self.runs = runs
            self._bench.changed.emit(None)

    def record(self, report: EvalReport, source: str = "workbench") -> asyncio.Task[None]:
        """Keep ``report`` in its set's history, then read the runs again; a history that cannot be
        written is said once in the notice line and the evaluation stands."""
        state = self._bench.session.library.state
        run = history_io.Run.of(report, library=str(state.path), source=source,
                                chunks=state.info.chunk_count if state.info is not None else None)
        return self._bench.spawn(self._record(report.name, run))

    async def _record(self, name: str, run: history_io.Run) -> None:
        try:
            await asyncio.to_thread(history_io.record, paths.history_dir(), name, run)
        except OSError as exc:
            self._bench.notice.emit(f"The run was not kept in the history ({exc.strerror or type(exc).__name__}).")
            return
        log.info("evaluation kept in the history")
        await self._read(name)

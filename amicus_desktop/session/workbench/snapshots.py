"""Snapshots: an evaluation's rankings saved under a name with the configuration, library and metrics that made
them; two of them compared per question; any number lined up against a baseline (per kind of question, with
intervals, and the rank of each judged chunk in each); one asked again on today's library and explained. No Qt."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from ... import paths
from ...core.errors import AmicusError
from ...evaluate import snapshots as snap_io
from ...evaluate.golden import GoldenSet
from ...evaluate.lineup import Lineup, Ranking, lineup
from ...evaluate.replay import Replay, library_of, replay
from ...evaluate.run import EvalReport
from .evaluation import Progress

#: the lineup's name for the workbench's last "Evaluate set"
LAST_RUN = "the last evaluation"

if TYPE_CHECKING:
    from .facade import Workbench


class SnapshotJob:
    """The saved snapshots, newest first (:attr:`snapshot_files`; :meth:`refresh_snapshots` re-reads
    the folder) and the last comparison (:attr:`changes`: name of A, name of B, per-question changes)."""

    def __init__(self, bench: Workbench) -> None:
        self._bench = bench
        self.snapshot_files: list[Path] = []
        self.changes: tuple[str, str, list[snap_io.QueryChange]] | None = None
        #: the last lineup of snapshots (and the last evaluation), and the last replay
        self.lineup: Lineup | None = None
        self.replayed: Replay | None = None
        self.replaying = False

    def save_snapshot(self, name: str) -> asyncio.Task[Path | None] | None:
        """Save the last evaluation's rankings as snapshot ``name`` (needs an "Evaluate set" first);
        written off the UI thread, then :attr:`snapshot_files` is refreshed."""
        report = self._bench.eval_job.report
        if report is None:
            self._bench.notice.emit("Evaluate the set first: a snapshot keeps the rankings of that run.")
            return None
        try:
            snapshot = snap_io.Snapshot.of(name, report, self.library())
            snap_io.file_name(name)
        except ValueError as exc:
            self._bench.notice.emit(f"{exc}.")
            return None
        return self._bench.spawn(self._save_snapshot(snapshot))

    async def _save_snapshot(self, snapshot: snap_io.Snapshot) -> Path | None:
        try:
            path = await asyncio.to_thread(snap_io.save, snapshot, paths.snapshot_dir())
        except OSError as exc:
            self._bench.notice.emit(f"The snapshot could not be saved ({exc.strerror or type(exc).__name__}).")
            return None
        await self._list_snapshots()
        return path

    def refresh_snapshots(self) -> asyncio.Task[None]:
        """Re-read the list of saved snapshots (off the UI thread) into :attr:`snapshot_files`."""
        return self._bench.spawn(self._list_snapshots())

    async def _list_snapshots(self) -> None:
        files = await asyncio.to_thread(snap_io.listing, paths.snapshot_dir())
        if files != self.snapshot_files:
            self.snapshot_files = files
            self._bench.changed.emit(None)

    def compare_snapshots(self, a: Path, b: Path) -> asyncio.Task[list[snap_io.QueryChange] | None] | None:
        """Per golden question, nDCG@10 in ``a`` and ``b`` on the open set's judgments (read off the UI
        thread); the result also lands in :attr:`changes`."""
        golden = self._bench.golden_job.golden
        if golden is None:
            self._bench.notice.emit("Open the golden set the snapshots were made from first.")
            return None
        return self._bench.spawn(self._compare_snapshots(a, b, golden))

    async def _compare_snapshots(self, a: Path, b: Path, golden: GoldenSet) -> list[snap_io.QueryChange] | None:
        try:
            sa, sb = await asyncio.to_thread(lambda: (snap_io.load(a), snap_io.load(b)))
        except snap_io.SnapshotError as exc:
            self._bench.notice.emit(f"{exc}.")
            return None
        self.changes = (sa.name, sb.name, snap_io.compare(sa, sb, golden))
        self._bench.changed.emit(None)
        return self.changes[2]

    def library(self) -> dict[str, object]:
        """The open library as a snapshot records it (path, build id, chunks, model, when built)."""
        state = self._bench.session.library.state
        info = state.info
        if info is None:
            return {"path": str(state.path)}
        return library_of(str(state.path), info.chunk_count, info.model_id, info.meta)

    # -- N side by side --------------------------------------------------------------------------
    def line_up(self, files: list[Path], *, with_last_run: bool,
                baseline: int = 0) -> asyncio.Task[Lineup | None] | None:
        """The snapshots ``files`` (and, ``with_last_run``, the last "Evaluate set" first) side by side on the open
        set's judgments, against the ``baseline``-th; read and computed off the UI thread (the intervals are
        bootstrapped), then in :attr:`lineup`."""
        golden, report = self._bench.golden_job.golden, self._bench.eval_job.report
        if golden is None:
            self._bench.notice.emit("Open the golden set the snapshots were made from first.")
            return None
        if with_last_run and report is None:
            self._bench.notice.emit("Evaluate the set first, or leave the last evaluation out of the comparison.")
            return None
        if len(files) + with_last_run < 2:
            self._bench.notice.emit("Choose two rankings or more to compare (snapshots, or one and the last "
                                    "evaluation).")
            return None
        return self._bench.spawn(self._line_up(files, golden, report if with_last_run else None, baseline))

    async def _line_up(self, files: list[Path], golden: GoldenSet, report: EvalReport | None,
                       baseline: int) -> Lineup | None:
        def compute() -> Lineup:
            rankings = [Ranking.of_report(LAST_RUN, report)] if report is not None else []
            rankings += [Ranking.of_snapshot(snap_io.load(f)) for f in files]
            return lineup(rankings, golden, min(baseline, len(rankings) - 1))

        try:
            found = await asyncio.to_thread(compute)
        except snap_io.SnapshotError as exc:
            self._bench.notice.emit(f"{exc}.")
            return None
        self.lineup = found
        self._bench.changed.emit(None)
        return found

    # -- replay ----------------------------------------------------------------------------------
    def replay(self, file: Path) -> asyncio.Task[Replay | None] | None:
        """Ask every question again under the configuration the snapshot ``file`` kept, on the library open now
        (on the engine's tasks: the UI never waits), and explain per question what moved; in :attr:`replayed`."""
        bench = self._bench
        golden, engine = bench.golden_job.golden, bench.session.engine
        if golden is None:
            bench.notice.emit("Open the golden set the snapshot was made from first.")
            return None
        if engine is None or not bench.session.can_ask:
            bench.notice.emit("The database and the proxy must be ready to replay a snapshot.")
            return None
        self.replaying = True
        bench.changed.emit(None)
        return engine.spawn(self._replay(file, golden))

    async def _replay(self, file: Path, golden: GoldenSet) -> Replay | None:
        bench = self._bench
        engine = bench.session.engine
        try:
            snapshot = await asyncio.to_thread(snap_io.load, file)
            if engine is None:
                return None
            found = await replay(snapshot, engine.retriever, golden, self.library(),
                                 progress=lambda done, total: bench.progress.emit(Progress(done, total)))
        except (snap_io.SnapshotError, ValueError) as exc:
            bench.notice.emit(f"{exc}.")
            return None
        except AmicusError as err:
            bench.notice.emit(f"The replay stopped: {err.message}")
            return None
        finally:
            self.replaying = False
            bench.changed.emit(None)
        self.replayed = found
        bench.changed.emit(None)
        return found

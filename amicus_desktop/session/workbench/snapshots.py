"""Snapshots: an evaluation's rankings saved under a name, and two of them compared per question. No Qt."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from ... import paths
from ...evaluate import snapshots as snap_io
from ...evaluate.golden import GoldenSet

if TYPE_CHECKING:
    from .facade import Workbench


class SnapshotJob:
    """The saved snapshots, newest first (:attr:`snapshot_files`; :meth:`refresh_snapshots` re-reads
    the folder) and the last comparison (:attr:`changes`: name of A, name of B, per-question changes)."""

    def __init__(self, bench: Workbench) -> None:
        self._bench = bench
        self.snapshot_files: list[Path] = []
        self.changes: tuple[str, str, list[snap_io.QueryChange]] | None = None

    def save_snapshot(self, name: str) -> asyncio.Task[Path | None] | None:
        """Save the last evaluation's rankings as snapshot ``name`` (needs an "Evaluate set" first);
        written off the UI thread, then :attr:`snapshot_files` is refreshed."""
        report = self._bench.report
        if report is None:
            self._bench.notice.emit("Evaluate the set first: a snapshot keeps the rankings of that run.")
            return None
        try:
            snapshot = snap_io.Snapshot.of(name, report)
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
        golden = self._bench.golden
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

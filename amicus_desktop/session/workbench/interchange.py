"""Judgments in and out of the open golden set: Quepid CSV, TREC qrels, ``_rank_eval`` — read, merged under
a judge's name and saved, or written, off the UI thread. No Qt; the formats are
:mod:`amicus_desktop.evaluate.interchange`'s."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from ...evaluate import interchange
from ...evaluate.golden import GoldenSet
from ...files import FileWriteError

if TYPE_CHECKING:
    from .facade import Workbench


class InterchangeJob:
    def __init__(self, bench: Workbench) -> None:
        self._bench = bench

    def named_judges(self, path: str | Path, fmt: str) -> asyncio.Task[list[str] | None]:
        """The judges ``path`` names (a Quepid CSV's ``judge`` column; ``[]``: it names none), read off the UI
        thread, so the import dialog can offer them; ``None`` (and the notice line says why) for a file that
        cannot be read as ``fmt``."""
        return self._bench.spawn(self._named(Path(path), fmt))

    async def _named(self, path: Path, fmt: str) -> list[str] | None:
        try:
            return await asyncio.to_thread(interchange.named_judges, path, fmt)
        except ValueError as exc:
            self._bench.notice.emit(f"{path.name} was not imported: {exc}.")
        except OSError as exc:
            self._bench.notice.emit(f"{path.name} could not be read ({exc.strerror or type(exc).__name__}).")
        return None

    def import_file(self, path: str | Path, fmt: str, scale: str, judge: str | None = None, *,
                    replace_grades: bool = False) -> asyncio.Task[bool] | None:
        """Read ``path`` into the open set as ``judge``'s ratings (a line naming its own judge is theirs) and
        save the set; the notice line says what was added, or what in the file is wrong (a rating nobody is
        named for among it: a judge is a person, never the file's name)."""
        golden = self._bench.golden_job.golden
        if golden is None:
            self._bench.notice.emit("Open or create a golden set first: the ratings are added to it.")
            return None
        try:
            reading = interchange.scale(scale, reading=True)
        except ValueError as exc:
            self._bench.notice.emit(f"{exc}.")
            return None
        return self._bench.spawn(self._import(Path(path), fmt, golden, reading, judge, replace_grades))

    async def _import(self, path: Path, fmt: str, golden: GoldenSet, scale: interchange.Scale, judge: str | None,
                      replace_grades: bool) -> bool:
        try:
            merged, summary = await asyncio.to_thread(interchange.import_file, path, fmt, golden, scale,
                                                      judge=judge, replace_grades=replace_grades)
        except ValueError as exc:  # InterchangeError, ScaleError
            self._bench.notice.emit(f"{path.name} was not imported: {exc}.")
            return False
        except OSError as exc:
            self._bench.notice.emit(f"{path.name} could not be read ({exc.strerror or type(exc).__name__}).")
            return False
        if self._bench.golden_job.golden is not golden:
            self._bench.notice.emit(f"{path.name} was not imported: another golden set was opened meanwhile.")
            return False
        task = self._bench.golden_job.replace_golden(merged)
        saved = await task if task is not None else False
        if saved:
            self._bench.notice.emit(f"Imported {path.name}: {summary.sentence()}")
        return bool(saved)

    def export_file(self, path: str | Path, fmt: str, scale: str) -> asyncio.Task[bool] | None:
        golden = self._bench.golden_job.golden
        if golden is None:
            self._bench.notice.emit("Open a golden set first: its grades are what is exported.")
            return None
        try:
            writing = interchange.scale(scale, reading=False)
        except ValueError as exc:
            self._bench.notice.emit(f"{exc}.")
            return None
        return self._bench.spawn(self._export(Path(path), fmt, golden, writing))

    async def _export(self, path: Path, fmt: str, golden: GoldenSet, scale: interchange.Scale) -> bool:
        try:
            await asyncio.to_thread(interchange.export_file, golden, path, fmt, scale)
        except FileWriteError as exc:
            self._bench.notice.emit(exc.message)
            return False
        except ValueError as exc:
            self._bench.notice.emit(f"{path.name} was not written: {exc}.")
            return False
        judged = sum(len(q.judgments) for q in golden.queries)
        self._bench.notice.emit(f"Exported {judged} grades to {path.name} ({interchange.FORMATS[fmt].label}).")
        return True

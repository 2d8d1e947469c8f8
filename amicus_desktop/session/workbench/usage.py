"""Judgments from use, on the reader's side and the curator's: recording — only with consent, per workspace, off
by default — which results of a question were opened, copied, pinned or added to context, and turning the
record into candidate grades (:mod:`amicus_desktop.evaluate.usage`: the cascade model) for a curator to confirm.
No Qt. The record lives in the current workspace's own file; switching workspaces switches files, so nothing of
one workspace is read or written while another is open. The question's text is never logged."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from ... import paths
from ...evaluate import usage as usage_io
from ...evaluate.golden import GoldenQuery
from ...evaluate.usage import Candidate, Comparison, UsageLog
from ..question import ResultView

if TYPE_CHECKING:
    from .facade import Workbench

log = logging.getLogger("amicus.curate")


def usage_dir() -> Path:
    """Where each workspace's record of use is kept (one file per workspace)."""
    return paths.data_dir() / "usage"


class UsageJob:
    """The current workspace's :attr:`record` (consent and askings); :meth:`set_consent`, :meth:`asked` and
    :meth:`acted` change it and save it off the UI thread, in order; :meth:`candidates` and :meth:`agreement`
    read it for the curator."""

    def __init__(self, bench: Workbench) -> None:
        self._bench = bench
        self.record = UsageLog(self.workspace)
        self._saving: asyncio.Task[None] | None = None
        self._loaded_for: str | None = None
        bench.session.question.result_changed.connect(self.asked)

    @property
    def workspace(self) -> str:
        return self._bench.session.notebook.workspace_id

    def load(self) -> asyncio.Task[None]:
        """Read the current workspace's record (off the UI thread); another workspace's is dropped first."""
        workspace = self.workspace
        self.record = UsageLog(workspace)
        self._loaded_for = workspace
        return self._bench.spawn(self._load(workspace))

    async def _load(self, workspace: str) -> None:
        found = await asyncio.to_thread(usage_io.load, usage_dir(), workspace)
        if workspace == self.workspace:
            self.record = found
            self._bench.changed.emit(None)

    def _current(self) -> UsageLog:
        """The record of the workspace open now (a switch since the last read drops the old one at once)."""
        if self._loaded_for != self.workspace:
            self.load()
        return self.record

    @property
    def consent(self) -> bool:
        return self._current().consent

    def set_consent(self, on: bool) -> asyncio.Task[None]:
        """Record use in this workspace from now on, or stop and delete what was recorded (the file goes)."""
        record = self._current()
        self.record = UsageLog(record.workspace, on, record.askings if on else ())
        log.info("use recording %s", "on" if on else "off and cleared")
        self._bench.changed.emit(None)
        return self._save()

    def asked(self, view: ResultView | None) -> None:
        """A question was answered on screen: its shown results, when consent is on (else nothing at all)."""
        record = self._current()
        if view is None or not record.consent:
            return
        self.record = record.asked(view.result.query, [r.chunk_id for r in view.result.results])
        self._save()

    def acted(self, chunk_id: str, action: str) -> None:
        """The reader opened, copied, pinned or added to context ``chunk_id`` of the question on screen."""
        record = self._current()
        question = self._bench.question
        if not record.consent or question is None:
            return
        changed = record.acted(question, chunk_id, action)
        if changed is not record:
            self.record = changed
            self._save()
            self._bench.changed.emit(None)

    def _save(self) -> asyncio.Task[None]:
        previous, record = self._saving, self.record
        self._saving = self._bench.spawn(self._write_after(previous, record))
        return self._saving

    async def _write_after(self, previous: asyncio.Task[None] | None, record: UsageLog) -> None:
        if previous is not None:
            await asyncio.wait([previous])
        try:
            folder = usage_dir()
            # a closure, not the record as an argument: an executor's debug line never spells the questions
            await asyncio.to_thread(lambda: usage_io.save(record, folder))
        except OSError as exc:
            self._bench.notice.emit(f"The record of use could not be saved ({exc.strerror or type(exc).__name__}).")

    async def flush(self) -> None:
        if self._saving is not None:
            await asyncio.wait([self._saving])

    # -- for the curator -------------------------------------------------------------------------
    def candidates(self) -> list[Candidate]:
        """Candidate grades from this workspace's record, matched to the open golden set's questions."""
        return usage_io.candidates(self._current(), self._bench.golden_job.golden)

    def agreement(self) -> Comparison | None:
        golden = self._bench.golden_job.golden
        return usage_io.against(self.candidates(), golden) if golden is not None else None

    def confirm(self, candidate: Candidate, grade: int | None = None) -> bool:
        """The curator confirms ``candidate`` (at ``grade``, default its own) into the open set as their own grade,
        with the evidence as its reason; a question the set does not hold yet is added."""
        golden_job = self._bench.golden_job
        golden = golden_job.golden
        if golden is None or golden_job.golden_path is None:
            self._bench.notice.emit("Open or create a golden set first: a confirmed grade is added to it.")
            return False
        query_id = candidate.query_id
        if query_id is None or golden.query(query_id) is None:
            query_id = next((q.id for q in golden.queries if usage_io.key(q.query) == usage_io.key(candidate.question)),
                            None)
        if query_id is None:
            ids = {q.id for q in golden.queries}
            n = len(ids) + 1
            while f"q{n}" in ids:
                n += 1
            query_id = f"q{n}"
            golden_job.golden = golden.with_query(GoldenQuery(query_id, candidate.question, {}))
        if not golden_job.judge_item(query_id, candidate.chunk_id, candidate.grade if grade is None else grade):
            return False
        return golden_job.set_why(candidate.chunk_id, f"from use, confirmed: {candidate.evidence()}", query_id)

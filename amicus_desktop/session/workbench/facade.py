"""The curator workbench: one facade over its jobs, each in its own module. No Qt.

:class:`Workbench` owns what the jobs share — the session it reads, its events, its own background
tasks (file work: golden sets, snapshots; searches run on the engine's) — and forwards the rules
between them: a new question on screen re-ranks the what-if and drops an A/B of another question,
new saved weights carry the what-if along, a database that opens re-checks the judged chunks (and the
first time, reopens the golden set open when the app last closed), an opened set reads its history.
Widgets use one style: they call the job they need by name and read its state there —
:attr:`whatif_job` (weights tried on the question on screen), :attr:`golden_job` (the set and judging),
:attr:`ab_job`, :attr:`eval_job` ("Evaluate set"), :attr:`snapshot_job`, :attr:`preview` (the selected chunk),
:attr:`review` (gaps and agreement), :attr:`tune` (the weight search), :attr:`history_job` (the runs kept),
:attr:`interchange` (Quepid, TREC, ``_rank_eval``) and :attr:`usage` (judgments from use). Each job gets
this small context: the session, the events, :meth:`spawn` and the other jobs.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

from ...core.results import Candidate
from ...settings import Settings
from ...states import DbState, DbStatus
from ..background import Tasks
from ..controller import Session
from ..events import Event
from ..question import ResultView
from .ab import ABJob
from .evaluation import EvaluationJob, Progress
from .golden import GoldenJob
from .history import HistoryJob
from .interchange import InterchangeJob
from .preview import PreviewJob
from .review import ReviewJob
from .snapshots import SnapshotJob
from .tuning import TuneJob, TuneProgress
from .usage import UsageJob
from .whatif import WhatIfJob

T = TypeVar("T")


class Workbench:
    """Events: :attr:`changed` (anything the workbench shows), :attr:`notice` (a sentence for the
    curator: a file that could not be read or written, a step that needs something first; ``""`` when the
    last one no longer holds), :attr:`progress` (while "Evaluate set" runs), :attr:`tune_progress` (while
    the weight search runs) and :attr:`previewed` (the chunk to show for the selected row)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.changed: Event[None] = Event("workbench changed")
        self.notice: Event[str] = Event("workbench notice")
        self.progress: Event[Progress] = Event("evaluation progress")
        self.tune_progress: Event[TuneProgress] = Event("weight search progress")
        self.previewed: Event[Candidate | None] = Event("chunk previewed")
        self.tasks = Tasks("workbench")
        self.whatif_job = WhatIfJob(self)
        self.golden_job = GoldenJob(self)
        self.ab_job = ABJob(self)
        self.eval_job = EvaluationJob(self)
        self.snapshot_job = SnapshotJob(self)
        self.history_job = HistoryJob(self)
        self.preview = PreviewJob(self)
        self.review = ReviewJob(self)
        self.tune = TuneJob(self)
        self.interchange = InterchangeJob(self)
        self.usage = UsageJob(self)
        self._disconnects = [
            session.question.result_changed.connect(self._result_changed),
            session.prefs.changed.connect(self._settings_changed),
            session.library.changed.connect(self._library_changed),
        ]

    # -- the rules between jobs ------------------------------------------------------------
    def _result_changed(self, view: ResultView | None) -> None:
        self.ab_job.forget_other_question(view.result.query if view is not None else None)
        self.whatif_job.rerank()

    def _settings_changed(self, _settings: Settings) -> None:
        self.whatif_job.settings_changed()

    def _library_changed(self, state: DbState) -> None:
        if state.status is DbStatus.READY:
            self.review.forget_titles()
            self.golden_job.check_missing()
            self.golden_job.reopen()

    def golden_opened(self) -> None:
        """A golden set was opened: the weight search's outcome measured another; its history is read."""
        self.tune.outcome = None
        self.history_job.refresh()

    @property
    def question(self) -> str | None:
        """The question on screen (``None`` before one is answered)."""
        view = self.session.question.view
        return view.result.query if view is not None else None

    # -- tasks -----------------------------------------------------------------------------
    def spawn(self, coro: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """Run ``coro`` as one of the workbench's own tasks (file work). The group is never closed:
        a save under way when the window closes still finishes."""
        task = self.tasks.spawn(coro)
        if task is None:  # not reached: nothing closes the group
            raise RuntimeError("the workbench's tasks are closed")
        return task

    def close(self) -> None:
        """Stop listening to the session and cancel the work under way (a save already in its thread finishes)."""
        for disconnect in self._disconnects:
            disconnect()
        self._disconnects = []
        self.eval_job.cancel_evaluation()
        self.ab_job.cancel()
        self.tune.cancel()

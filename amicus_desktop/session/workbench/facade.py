"""The curator workbench: one facade over its jobs, each in its own module. No Qt.

:class:`Workbench` owns what the jobs share — the session it reads, its events, its own background
tasks (file work: golden sets, snapshots; searches run on the engine's) — and forwards the rules
between them: a new question on screen re-ranks the what-if and drops an A/B of another question,
new saved weights carry the what-if along, a database that opens re-checks the judged chunks (and the
first time, reopens the golden set open when the app last closed), an opened set reads its history.
Widgets read the first five jobs' state through the properties here and call its methods; the curator's
review tools are jobs of their own that widgets call by name — :attr:`preview` (the selected chunk),
:attr:`review` (gaps and agreement), :attr:`tune` (the weight search), :attr:`history_job` (the runs
kept) and :attr:`interchange` (Quepid, TREC, ``_rank_eval``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from ...core.query import BoostWeights, SearchMode
from ...core.results import Candidate
from ...evaluate import snapshots as snap_io
from ...evaluate.golden import GoldenQuery, GoldenSet
from ...evaluate.run import EvalConfig, EvalReport
from ...settings import Settings
from ...states import DbState, DbStatus
from ..background import Tasks
from ..controller import Session
from ..events import Event
from ..question import ResultView
from .ab import ABJob, ABResult, Side
from .evaluation import EvaluationJob, Progress
from .golden import GoldenJob
from .history import HistoryJob
from .interchange import InterchangeJob
from .preview import PreviewJob
from .review import ReviewJob
from .snapshots import SnapshotJob
from .tuning import TuneJob, TuneProgress
from .usage import UsageJob
from .whatif import WhatIf, WhatIfJob

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

    # -- what-if (whatif.py) ---------------------------------------------------------------
    @property
    def weights(self) -> BoostWeights:
        return self.whatif_job.weights

    @property
    def whatif(self) -> WhatIf | None:
        return self.whatif_job.whatif

    @property
    def saved_weights(self) -> BoostWeights:
        return self.whatif_job.saved_weights

    @property
    def dirty(self) -> bool:
        """Whether the what-if weights differ from the saved ones."""
        return self.whatif_job.dirty

    def set_weights(self, weights: BoostWeights) -> None:
        self.whatif_job.set_weights(weights)

    def save_weights(self) -> None:
        self.whatif_job.save_weights()

    def reset(self) -> None:
        self.whatif_job.reset()

    # -- the golden set (golden.py) --------------------------------------------------------
    @property
    def golden(self) -> GoldenSet | None:
        return self.golden_job.golden

    @property
    def golden_path(self) -> Path | None:
        return self.golden_job.golden_path

    @property
    def missing(self) -> tuple[str, ...]:
        """Judged chunk ids the open database does not hold."""
        return self.golden_job.missing

    def new_golden(self, name: str) -> asyncio.Task[bool] | None:
        return self.golden_job.new_golden(name)

    def open_golden(self, path: str | Path) -> asyncio.Task[bool]:
        return self.golden_job.open_golden(path)

    async def flush(self) -> None:
        await self.golden_job.flush()

    def current_query(self) -> GoldenQuery | None:
        return self.golden_job.current_query()

    def grade(self, chunk_id: str) -> int | None:
        return self.golden_job.grade(chunk_id)

    def judge(self, chunk_id: str, grade: int | None) -> bool:
        return self.golden_job.judge(chunk_id, grade)

    def judge_item(self, query_id: str, chunk_id: str, grade: int | None) -> bool:
        return self.golden_job.judge_item(query_id, chunk_id, grade)

    @property
    def judge_name(self) -> str:
        return self.golden_job.judge_name

    def question_scores(self) -> dict[str, float] | None:
        return self.golden_job.question_scores()

    # -- A/B (ab.py) -----------------------------------------------------------------------
    @property
    def ab(self) -> ABResult | None:
        return self.ab_job.ab

    @property
    def ab_running(self) -> bool:
        return self.ab_job.ab_running

    def side(self, mode: SearchMode, weights: BoostWeights, *, profile: bool = True, chapter: bool = True,
             label: str = "") -> Side:
        return self.ab_job.side(mode, weights, profile=profile, chapter=chapter, label=label)

    def compare(self, a: Side, b: Side) -> asyncio.Task[None] | None:
        return self.ab_job.compare(a, b)

    # -- evaluating the set (evaluation.py) ------------------------------------------------
    @property
    def report(self) -> EvalReport | None:
        return self.eval_job.report

    @property
    def evaluating(self) -> bool:
        return self.eval_job.evaluating

    def eval_config(self) -> EvalConfig:
        return self.eval_job.eval_config()

    def evaluate_set(self) -> asyncio.Task[None] | None:
        return self.eval_job.evaluate_set()

    def cancel_evaluation(self) -> None:
        self.eval_job.cancel_evaluation()

    # -- snapshots (snapshots.py) ----------------------------------------------------------
    @property
    def snapshot_files(self) -> list[Path]:
        return self.snapshot_job.snapshot_files

    @property
    def changes(self) -> tuple[str, str, list[snap_io.QueryChange]] | None:
        return self.snapshot_job.changes

    def save_snapshot(self, name: str) -> asyncio.Task[Path | None] | None:
        return self.snapshot_job.save_snapshot(name)

    def refresh_snapshots(self) -> asyncio.Task[None]:
        return self.snapshot_job.refresh_snapshots()

    def compare_snapshots(self, a: Path, b: Path) -> asyncio.Task[list[snap_io.QueryChange] | None] | None:
        return self.snapshot_job.compare_snapshots(a, b)

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
        self.cancel_evaluation()
        self.ab_job.cancel()
        self.tune.cancel()

"""The curator workbench's state: what-if weights, judging into a golden set, A/B, evaluation,
snapshots. No Qt.

:class:`Workbench` sits beside the :class:`~.controller.Session` it reads (the question on screen,
the open chapter, the saved weights, the engine) and never changes retrieval semantics: every
ranking it shows comes from :func:`~amicus_desktop.retrieval.rerank_result` (what-if: the kept
candidates, no embedding, no search) or :meth:`Retriever.retrieve
<amicus_desktop.retrieval.Retriever.retrieve>` (the A/B sides and "Evaluate set", on the engine's
tasks, so the DB work runs on its thread and the UI never waits).

Files (all plain JSON, written atomically, never inside ``scripture.db``): golden sets in
``data_dir()/golden/``, snapshots in ``data_dir()/snapshots/``. Query text never reaches the log.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Coroutine, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from .. import paths
from ..core.errors import AmicusError
from ..core.query import BoostWeights, Profile, SearchMode
from ..core.references import ChapterRef
from ..core.results import RetrievalResult
from ..evaluate import golden as golden_io
from ..evaluate import metrics
from ..evaluate import snapshots as snap_io
from ..evaluate.golden import GoldenError, GoldenQuery, GoldenSet
from ..evaluate.run import EvalConfig, EvalReport, evaluate, present_ids
from ..retrieval import rerank_result
from ..settings import Settings
from .controller import Session
from .engine import Engine
from .events import Event
from .library import DbState, DbStatus
from .question import ResultView

log = logging.getLogger("amicus.curate")

K = metrics.K
T = TypeVar("T")


@dataclass(frozen=True)
class WhatIf:
    """The question on screen re-ranked with the what-if weights.

    ``saved_ranks``: each chunk's rank under the saved weights (the Move column compares with it);
    ``ms``: how long the re-rank took.
    """

    result: RetrievalResult
    weights: BoostWeights
    saved_ranks: Mapping[str, int]
    ms: float

    def move(self, chunk_id: str, rank: int) -> int | None:
        """Places moved up (+) or down (−) against the saved weights; ``None``: new in the top k."""
        before = self.saved_ranks.get(chunk_id)
        return None if before is None else before - rank


@dataclass(frozen=True)
class Side:
    """One configuration of the A/B comparison."""

    mode: SearchMode
    weights: BoostWeights
    profile: Profile = field(default_factory=Profile)
    chapter: ChapterRef | None = None
    label: str = ""


@dataclass(frozen=True)
class ABResult:
    """Both sides' answers to the same question, and how much they agree."""

    a: RetrievalResult
    b: RetrievalResult
    overlap: float
    rbo: float
    ranks_a: Mapping[str, int] = field(default_factory=dict)
    ranks_b: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, a: RetrievalResult, b: RetrievalResult) -> ABResult:
        ids_a = [r.chunk_id for r in a.results]
        ids_b = [r.chunk_id for r in b.results]
        return cls(a, b, metrics.overlap(ids_a, ids_b), metrics.rbo(ids_a, ids_b),
                   {r.chunk_id: r.rank for r in a.results}, {r.chunk_id: r.rank for r in b.results})


@dataclass(frozen=True)
class Progress:
    """``done`` of ``total`` golden questions evaluated."""

    done: int
    total: int


class Workbench:
    """Events: :attr:`changed` (anything the workbench shows), :attr:`notice` (a sentence for the
    curator: a file that could not be read or written, a step that needs something first),
    :attr:`progress` (while "Evaluate set" runs)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.weights: BoostWeights = session.prefs.settings.weights
        self.whatif: WhatIf | None = None
        self.golden: GoldenSet | None = None
        self.golden_path: Path | None = None
        #: judged chunk ids the open database does not hold (checked when a set is opened)
        self.missing: tuple[str, ...] = ()
        self.ab: ABResult | None = None
        self.ab_running = False
        self.report: EvalReport | None = None
        self.evaluating = False
        #: the saved snapshots, newest first (:meth:`refresh_snapshots` re-reads the folder)
        self.snapshot_files: list[Path] = []
        #: the last snapshot comparison: (name of A, name of B, per-question changes)
        self.changes: tuple[str, str, list[snap_io.QueryChange]] | None = None
        self._eval_task: asyncio.Task[None] | None = None
        self._ab_task: asyncio.Task[None] | None = None
        self._saving: asyncio.Task[bool] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.changed: Event[None] = Event("workbench changed")
        self.notice: Event[str] = Event("workbench notice")
        self.progress: Event[Progress] = Event("evaluation progress")
        self._last_saved = self.weights
        self._disconnects = [
            session.question.result_changed.connect(self._result_changed),
            session.prefs.changed.connect(self._settings_changed),
            session.library.changed.connect(self._library_changed),
        ]

    # -- what-if ---------------------------------------------------------------------------
    @property
    def saved_weights(self) -> BoostWeights:
        return self.session.prefs.settings.weights

    @property
    def dirty(self) -> bool:
        """Whether the what-if weights differ from the saved ones."""
        return self.weights != self.saved_weights

    def set_weights(self, weights: BoostWeights) -> None:
        """Try ``weights``: the question on screen re-ranks from its kept candidates."""
        if weights != self.weights:
            self.weights = weights
            self._rerank()

    def save_weights(self) -> None:
        """Make the what-if weights the saved ones (the settings file; every later ask uses them)."""
        w = self.weights
        s = self.session.prefs.settings.replace(
            chapter_boost=w.chapter, scholar_boost=w.scholar, tradition_boost=w.tradition,
            reference_boost=w.reference, per_scholar_cap=w.per_scholar_cap)
        self.session.apply_settings(s)

    def reset(self) -> None:
        """Back to the saved weights."""
        self.set_weights(self.saved_weights)

    def _result_changed(self, view: ResultView | None) -> None:
        if self.ab is not None and (view is None or view.result.query != self.ab.a.query):
            self.ab = None  # it answered another question
        self._rerank()

    def _settings_changed(self, _settings: Settings) -> None:
        """New saved weights (here or in the settings dialog): what-if weights that were the old saved
        ones follow them; weights being tried stay."""
        if self.weights == self._last_saved:
            self.weights = self.saved_weights
        self._last_saved = self.saved_weights
        self._rerank()

    def _rerank(self) -> None:
        view = self.session.question.view
        if view is None:
            self.whatif = None
        else:
            ctx = self.session.context(view.result.query).replace(weights=self.weights)
            t0 = time.perf_counter()
            result = rerank_result(view.result, ctx)
            ms = (time.perf_counter() - t0) * 1000
            self.whatif = WhatIf(result, self.weights, {r.chunk_id: r.rank for r in view.result.results}, ms)
        self.changed.emit(None)

    # -- the golden set --------------------------------------------------------------------
    def new_golden(self, name: str) -> asyncio.Task[bool] | None:
        """Start an empty golden set called ``name`` in the data folder (an existing file is opened).
        The file is written off the UI thread; the task says whether it worked."""
        slug = re.sub(r"[^A-Za-z0-9_-]+", "-", name.strip()).strip("-")
        if not slug:
            self.notice.emit("A golden set needs a name with at least one letter or digit.")
            return None
        return self._spawn(self._new_golden(name.strip(), paths.golden_dir() / f"{slug}.json"))

    async def _new_golden(self, name: str, path: Path) -> bool:
        if await asyncio.to_thread(path.exists):
            return await self._open_golden(path)
        golden = GoldenSet(name, ())
        if not await self._save(golden, path):
            return False
        self._use(golden, path)
        return True

    def open_golden(self, path: str | Path) -> asyncio.Task[bool]:
        """Open a golden set (read off the UI thread); a file that is not one is reported and nothing
        else changes. The task says whether it opened."""
        return self._spawn(self._open_golden(Path(path)))

    async def _open_golden(self, path: Path) -> bool:
        try:
            golden = await asyncio.to_thread(golden_io.load, path)
        except GoldenError as exc:
            self.notice.emit(f"{path.name} is not a golden set: {exc}.")
            return False
        except OSError as exc:
            self.notice.emit(f"{path.name} could not be read ({exc.strerror or type(exc).__name__}).")
            return False
        self._use(golden, path)
        return True

    def _use(self, golden: GoldenSet, path: Path) -> None:
        self.golden, self.golden_path = golden, path
        self.missing, self.report = (), None
        log.info("golden set opened", extra={"queries": len(golden.queries), "path": str(path)})
        self._check_missing()
        self.changed.emit(None)

    def _library_changed(self, state: DbState) -> None:
        if state.status is DbStatus.READY:
            self._check_missing()

    def _check_missing(self) -> None:
        """Look up the judged chunk ids in the open database (again after the database changed)."""
        engine, golden = self.session.engine, self.golden
        if engine is not None and golden is not None and self.session.library.ready:
            engine.spawn(self._find_missing(engine, golden))

    async def _find_missing(self, engine: Engine, golden: GoldenSet) -> None:
        judged = sorted(golden.judged_ids())
        if not judged:
            return
        try:
            present = await engine.run_db(lambda store: present_ids(store, judged))
        except AmicusError as err:
            self.notice.emit(f"The judged chunks could not be checked against the database: {err.message}")
            return
        if self.golden is not None and self.golden_path is not None and golden.name == self.golden.name:
            self.missing = tuple(c for c in judged if c not in present)
            self.changed.emit(None)

    def _save(self, golden: GoldenSet, path: Path) -> asyncio.Task[bool]:
        """Save ``golden`` atomically off the UI thread, after the saves queued before it (in order)."""
        previous = self._saving
        self._saving = self._spawn(self._write_after(previous, golden, path))
        return self._saving

    async def _write_after(self, previous: asyncio.Task[bool] | None, golden: GoldenSet, path: Path) -> bool:
        if previous is not None:
            await asyncio.wait([previous])
        try:
            await asyncio.to_thread(golden_io.save, golden, path)
        except OSError as exc:
            self.notice.emit(f"{path.name} could not be saved ({exc.strerror or type(exc).__name__}); "
                             "the judgments stay in the workbench and are saved with the next grade.")
            return False
        return True

    async def flush(self) -> None:
        """Wait until every judgment given so far is on disk (or its save failed)."""
        if self._saving is not None:
            await asyncio.wait([self._saving])

    @property
    def question(self) -> str | None:
        view = self.session.question.view
        return view.result.query if view is not None else None

    def current_query(self) -> GoldenQuery | None:
        """The golden question with the text of the question on screen (case and spacing ignored)."""
        text = self.question
        if self.golden is None or text is None:
            return None
        key = _key(text)
        return next((q for q in self.golden.queries if _key(q.query) == key), None)

    def grade(self, chunk_id: str) -> int | None:
        q = self.current_query()
        return q.judgments.get(chunk_id) if q is not None else None

    def judge(self, chunk_id: str, grade: int | None) -> bool:
        """Grade ``chunk_id`` 0–3 for the question on screen (``None`` removes the grade): shown at
        once, saved off the UI thread (:meth:`flush` waits for it). A question new to the set is added
        with the chapter open and the mode it was asked in."""
        if self.golden is None or self.golden_path is None:
            self.notice.emit("Open or create a golden set first (File ▸ Open golden set… or New golden set…).")
            return False
        view = self.session.question.view
        if view is None:
            return False
        query = self.current_query()
        if query is None:
            chapter = view.result.context.chapter if view.result.context else None
            query = GoldenQuery(_new_id(self.golden), view.result.query, {}, mode=view.result.mode,
                                chapter=str(chapter) if chapter else None)
        self.golden = self.golden.with_query(query.judge(chunk_id, grade))
        self._save(self.golden, self.golden_path)
        self.changed.emit(None)
        return True

    def question_scores(self) -> dict[str, float] | None:
        """nDCG@10 and MRR@10 of the what-if ranking on the current question's judgments."""
        q = self.current_query()
        if q is None or self.whatif is None:
            return None
        ranked = [r.chunk_id for r in self.whatif.result.results]
        return {"ndcg@10": metrics.ndcg(ranked, q.judgments), "mrr@10": metrics.mrr(ranked, q.judgments)}

    # -- A/B -------------------------------------------------------------------------------
    def side(self, mode: SearchMode, weights: BoostWeights, *, profile: bool = True, chapter: bool = True,
             label: str = "") -> Side:
        """A side built from the app's state: ``profile``/``chapter`` say whether the reader's are used."""
        return Side(mode, weights, self.session.prefs.profile if profile else Profile(),
                    self.session.reader.chapter if chapter else None, label)

    def compare(self, a: Side, b: Side) -> asyncio.Task[None] | None:
        """Answer the question on screen under ``a`` and ``b`` (each its own search), off the UI thread."""
        text, engine = self.question, self.session.engine
        if text is None or engine is None or not self.session.can_ask:
            self.notice.emit("Ask a question first (and wait for the proxy): A/B answers it twice.")
            return None
        if self._ab_task is not None:
            self._ab_task.cancel()
        self.ab_running = True
        self.changed.emit(None)
        self._ab_task = engine.spawn(self._compare(text, a, b))
        return self._ab_task

    async def _compare(self, text: str, a: Side, b: Side) -> None:
        retriever = self.session.engine.retriever if self.session.engine else None
        try:
            if retriever is None:
                return
            results = []
            for side in (a, b):
                ctx = self.session.context(text).replace(mode=side.mode, weights=side.weights,
                                                         profile=side.profile, chapter=side.chapter)
                results.append(await retriever.retrieve(ctx))
            self.ab = ABResult.of(results[0], results[1])
        except AmicusError as err:
            self.notice.emit(f"The comparison could not be made: {err.message}")
        finally:
            if asyncio.current_task() is self._ab_task:
                self.ab_running = False
                self.changed.emit(None)

    # -- evaluating the set ----------------------------------------------------------------
    def eval_config(self) -> EvalConfig:
        """What "Evaluate set" measures: the saved search mode and candidates with the what-if weights."""
        s = self.session.prefs.settings
        return EvalConfig(mode=s.search_mode, weights=self.weights, candidates=max(s.candidates, s.k))

    def evaluate_set(self) -> asyncio.Task[None] | None:
        """Run every golden question (off the UI thread); :attr:`progress` after each, :attr:`report` at the end."""
        golden, engine = self.golden, self.session.engine
        if golden is None or not golden.queries:
            self.notice.emit("Open a golden set with at least one question first.")
            return None
        if engine is None or not self.session.can_ask:
            self.notice.emit("The database and the proxy must be ready to evaluate the set.")
            return None
        self.cancel_evaluation()
        self.evaluating = True
        self.changed.emit(None)
        self._eval_task = engine.spawn(self._evaluate(golden, self.eval_config()))
        return self._eval_task

    async def _evaluate(self, golden: GoldenSet, config: EvalConfig) -> None:
        engine = self.session.engine
        try:
            if engine is None:
                return
            report = await evaluate(engine.retriever, golden, config,
                                    progress=lambda done, total: self.progress.emit(Progress(done, total)))
            if golden is self.golden or (self.golden is not None and self.golden.name == golden.name):
                self.report = report
                self.missing = report.missing
            log.info("golden set evaluated", extra={"queries": len(report.queries)})
        except AmicusError as err:
            self.notice.emit(f"The evaluation stopped: {err.message}")
        finally:
            if asyncio.current_task() is self._eval_task:
                self.evaluating = False
                self.changed.emit(None)

    def cancel_evaluation(self) -> None:
        task, self._eval_task = self._eval_task, None
        if task is not None and not task.done():
            task.cancel()
        if self.evaluating:
            self.evaluating = False
            self.changed.emit(None)

    # -- snapshots -------------------------------------------------------------------------
    def save_snapshot(self, name: str) -> asyncio.Task[Path | None] | None:
        """Save the last evaluation's rankings as snapshot ``name`` (needs an "Evaluate set" first);
        written off the UI thread, then :attr:`snapshot_files` is refreshed."""
        if self.report is None:
            self.notice.emit("Evaluate the set first: a snapshot keeps the rankings of that run.")
            return None
        try:
            snapshot = snap_io.Snapshot.of(name, self.report)
            snap_io.file_name(name)
        except ValueError as exc:
            self.notice.emit(f"{exc}.")
            return None
        return self._spawn(self._save_snapshot(snapshot))

    async def _save_snapshot(self, snapshot: snap_io.Snapshot) -> Path | None:
        try:
            path = await asyncio.to_thread(snap_io.save, snapshot, paths.snapshot_dir())
        except OSError as exc:
            self.notice.emit(f"The snapshot could not be saved ({exc.strerror or type(exc).__name__}).")
            return None
        await self._list_snapshots()
        return path

    def refresh_snapshots(self) -> asyncio.Task[None]:
        """Re-read the list of saved snapshots (off the UI thread) into :attr:`snapshot_files`."""
        return self._spawn(self._list_snapshots())

    async def _list_snapshots(self) -> None:
        files = await asyncio.to_thread(snap_io.listing, paths.snapshot_dir())
        if files != self.snapshot_files:
            self.snapshot_files = files
            self.changed.emit(None)

    def compare_snapshots(self, a: Path, b: Path) -> asyncio.Task[list[snap_io.QueryChange] | None] | None:
        """Per golden question, nDCG@10 in ``a`` and ``b`` on the open set's judgments (read off the UI
        thread); the result also lands in :attr:`changes`."""
        if self.golden is None:
            self.notice.emit("Open the golden set the snapshots were made from first.")
            return None
        return self._spawn(self._compare_snapshots(a, b, self.golden))

    async def _compare_snapshots(self, a: Path, b: Path, golden: GoldenSet) -> list[snap_io.QueryChange] | None:
        try:
            sa, sb = await asyncio.to_thread(lambda: (snap_io.load(a), snap_io.load(b)))
        except snap_io.SnapshotError as exc:
            self.notice.emit(f"{exc}.")
            return None
        self.changes = (sa.name, sb.name, snap_io.compare(sa, sb, golden))
        self.changed.emit(None)
        return self.changes[2]

    # -- tasks -----------------------------------------------------------------------------
    def _spawn(self, coro: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def close(self) -> None:
        """Stop listening to the session and cancel the work under way (a save already in its thread finishes)."""
        for disconnect in self._disconnects:
            disconnect()
        self._disconnects = []
        self.cancel_evaluation()
        if self._ab_task is not None:
            self._ab_task.cancel()


def _key(text: str) -> str:
    return " ".join(text.split()).casefold()


def _new_id(golden: GoldenSet) -> str:
    ids = {q.id for q in golden.queries}
    n = len(ids) + 1
    while f"q{n}" in ids:
        n += 1
    return f"q{n}"

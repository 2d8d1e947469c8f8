"""The golden set: creating and opening one (and the last one again at the next start), judging the
question on screen — or any golden question's chunk, from a queue — into it under the curator's name,
saving each judgment off the UI thread in order, and which judged chunks the open database lacks. No Qt."""

from __future__ import annotations

import asyncio
import getpass
import logging
import re
from pathlib import Path
from typing import TYPE_CHECKING

from ... import paths, resources
from ...core.errors import AmicusError
from ...core.references import ChapterRef
from ...evaluate import golden as golden_io
from ...evaluate import metrics
from ...evaluate.golden import GoldenError, GoldenQuery, GoldenSet
from ...evaluate.judges import now
from ...evaluate.run import present_ids
from ...files import write_atomic
from ...understand import PassageError, parse_passage
from ..engine import Engine

if TYPE_CHECKING:
    from .facade import Workbench

log = logging.getLogger("amicus.curate")


class GoldenJob:
    """The open golden set (:attr:`golden`, :attr:`golden_path`) and the judged chunk ids the open
    database does not hold (:attr:`missing`, checked when a set is opened)."""

    def __init__(self, bench: Workbench) -> None:
        self._bench = bench
        self.golden: GoldenSet | None = None
        self.golden_path: Path | None = None
        self.missing: tuple[str, ...] = ()
        self._saving: asyncio.Task[bool] | None = None
        #: the shipped set the open one is a copy of (``None`` for the curator's own sets)
        self.copied_from: Path | None = None
        self._reopened = False

    @property
    def judge_name(self) -> str:
        """Whose grades the workbench records: the setting, else the account's login name."""
        name = self._bench.session.prefs.settings.judge_name
        if name:
            return name
        try:
            return getpass.getuser() or "curator"
        except (OSError, KeyError, ImportError):  # no login name (a container without a passwd entry)
            return "curator"

    def reopen(self) -> asyncio.Task[bool] | None:
        """Open the golden set that was open when the app last closed, once (a file gone since is forgotten)."""
        if self._reopened or self.golden is not None:
            return None
        self._reopened = True
        path = self._bench.session.prefs.settings.golden_set
        if not path:
            return None
        return self._bench.spawn(self._reopen(Path(path)))

    async def _reopen(self, path: Path) -> bool:
        if not await asyncio.to_thread(path.is_file):
            self._bench.session.prefs.remember_golden_set(None)
            return False
        return await self._open_golden(path)

    # -- opening ---------------------------------------------------------------------------
    def new_golden(self, name: str) -> asyncio.Task[bool] | None:
        """Start an empty golden set called ``name`` in the data folder (an existing file is opened).
        The file is written off the UI thread; the task says whether it worked."""
        slug = re.sub(r"[^A-Za-z0-9_-]+", "-", name.strip()).strip("-")
        if not slug:
            self._bench.notice.emit("A golden set needs a name with at least one letter or digit.")
            return None
        return self._bench.spawn(self._new_golden(name.strip(), paths.golden_dir() / f"{slug}.json"))

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
        return self._bench.spawn(self._open_golden(Path(path)))

    async def _open_golden(self, path: Path) -> bool:
        if shipped(path):  # a shipped set is never written: the curator grades a copy in the data folder
            try:
                copy, made = await asyncio.to_thread(own_copy, path)
            except OSError as exc:
                self._bench.notice.emit(f"{path.name} ships with Amicus Desktop and is never changed, and a copy "
                                        f"to grade could not be made in {paths.golden_dir()} "
                                        f"({exc.strerror or type(exc).__name__}).")
                return False
            said = (f"{path.name} ships with Amicus Desktop and is never changed: you are grading your own copy, "
                    f"{copy}.") if made else ""
            path, copied_from = copy, path
        else:
            copied_from, said = None, ""
        try:
            golden = await asyncio.to_thread(golden_io.load, path)
        except GoldenError as exc:
            self._bench.notice.emit(f"{path.name} is not a golden set: {exc}.")
            return False
        except OSError as exc:
            self._bench.notice.emit(f"{path.name} could not be read ({exc.strerror or type(exc).__name__}).")
            return False
        self._use(golden, path, copied_from)
        if said:
            self._bench.notice.emit(said)
        return True

    def _use(self, golden: GoldenSet, path: Path, copied_from: Path | None = None) -> None:
        self.golden, self.golden_path, self.copied_from = golden, path, copied_from
        self._reopened = True
        self.missing = ()
        self._bench.eval_job.report = None  # it measured another set
        log.info("golden set opened", extra={"queries": len(golden.queries), "path": str(path)})
        self._bench.session.prefs.remember_golden_set(str(path))
        self.check_missing()
        self._bench.notice.emit("")  # "open a golden set first" no longer holds
        self._bench.golden_opened()
        self._bench.changed.emit(None)

    def replace_golden(self, golden: GoldenSet) -> asyncio.Task[bool] | None:
        """Make ``golden`` the open set (an import into it) and save it."""
        if self.golden_path is None:
            return None
        self.golden = golden
        task = self._save(golden, self.golden_path)
        self._bench.changed.emit(None)
        return task

    def check_missing(self) -> None:
        """Look up the judged chunk ids in the open database (again after the database changed)."""
        session = self._bench.session
        engine, golden = session.engine, self.golden
        if engine is not None and golden is not None and session.library.ready:
            engine.spawn(self._find_missing(engine, golden))

    async def _find_missing(self, engine: Engine, golden: GoldenSet) -> None:
        judged = sorted(golden.judged_ids())
        if not judged:
            return
        try:
            present = await engine.run_db(lambda store: present_ids(store, judged))
        except AmicusError as err:
            self._bench.notice.emit(f"The judged chunks could not be checked against the database: {err.message}")
            return
        if self.golden is not None and self.golden_path is not None and golden.name == self.golden.name:
            self.missing = tuple(c for c in judged if c not in present)
            self._bench.changed.emit(None)

    # -- saving ----------------------------------------------------------------------------
    def _save(self, golden: GoldenSet, path: Path) -> asyncio.Task[bool]:
        """Save ``golden`` atomically off the UI thread, after the saves queued before it (in order)."""
        previous = self._saving
        self._saving = self._bench.spawn(self._write_after(previous, golden, path))
        return self._saving

    async def _write_after(self, previous: asyncio.Task[bool] | None, golden: GoldenSet, path: Path) -> bool:
        if previous is not None:
            await asyncio.wait([previous])
        try:
            await asyncio.to_thread(golden_io.save, golden, path)
        except OSError as exc:
            self._bench.notice.emit(f"{path.name} could not be saved ({exc.strerror or type(exc).__name__}); "
                                    "the judgments stay in the workbench and are saved with the next grade.")
            return False
        return True

    async def flush(self) -> None:
        """Wait until every judgment given so far is on disk (or its save failed)."""
        if self._saving is not None:
            await asyncio.wait([self._saving])

    # -- judging ---------------------------------------------------------------------------
    def current_query(self) -> GoldenQuery | None:
        """The golden question with the text of the question on screen (case and spacing ignored)."""
        text = self._bench.question
        if self.golden is None or text is None:
            return None
        key = _key(text)
        return next((q for q in self.golden.queries if _key(q.query) == key), None)

    def question(self, query_id: str) -> tuple[str, ChapterRef | None] | None:
        """How the golden question ``query_id`` is asked: its text and its open chapter."""
        q = self.golden.query(query_id) if self.golden is not None else None
        if q is None:
            return None
        try:
            chapter = parse_passage(q.chapter, check_bounds=False).chapter_ref if q.chapter else None
        except PassageError:
            chapter = None
        return q.query, chapter

    def grade(self, chunk_id: str) -> int | None:
        q = self.current_query()
        return q.judgments.get(chunk_id) if q is not None else None

    def judge(self, chunk_id: str, grade: int | None) -> bool:
        """Grade ``chunk_id`` 0–3 for the question on screen (``None`` removes the grade): shown at
        once, saved off the UI thread (:meth:`flush` waits for it). A question new to the set is added
        with the chapter open and the mode it was asked in."""
        if self.golden is None or self.golden_path is None:
            self._bench.notice.emit("Open or create a golden set first (File ▸ Open golden set… or New golden set…).")
            return False
        view = self._bench.session.question.view
        if view is None:
            return False
        query = self.current_query()
        if query is None:
            chapter = view.result.context.chapter if view.result.context else None
            query = GoldenQuery(_new_id(self.golden), view.result.query, {}, mode=view.result.mode,
                                chapter=str(chapter) if chapter else None)
        self._record(query, chunk_id, grade)
        return True

    def judge_item(self, query_id: str, chunk_id: str, grade: int | None) -> bool:
        """Grade ``chunk_id`` for the golden question ``query_id`` (a gap or a disagreement in a queue),
        without asking it."""
        query = self.golden.query(query_id) if self.golden is not None else None
        if query is None or self.golden_path is None:
            self._bench.notice.emit("Open the golden set this question belongs to first.")
            return False
        self._record(query, chunk_id, grade)
        return True

    def _record(self, query: GoldenQuery, chunk_id: str, grade: int | None) -> None:
        assert self.golden is not None and self.golden_path is not None
        self.golden = self.golden.with_query(query.judge(chunk_id, grade, by=self.judge_name, at=now()))
        self._save(self.golden, self.golden_path)
        self._bench.changed.emit(None)

    def why(self, chunk_id: str, query_id: str | None = None) -> str:
        """The reason given for ``chunk_id``'s grade for the golden question ``query_id`` (default: the
        question on screen); ``""`` when none is."""
        q = self.current_query() if query_id is None else (self.golden.query(query_id) if self.golden else None)
        return q.why(chunk_id) if q is not None else ""

    def set_why(self, chunk_id: str, text: str, query_id: str | None = None) -> bool:
        """Keep ``text`` as the reason for ``chunk_id``'s grade (blank removes it) for the golden question
        ``query_id`` (default: the question on screen), saved atomically off the UI thread into the open set —
        the curator's own copy when a shipped set was opened. A question not in the set yet is refused: a
        reason goes with a grade, so grade the result first."""
        if self.golden is None or self.golden_path is None:
            self._bench.notice.emit("Open or create a golden set first (File ▸ Open golden set… or New golden set…).")
            return False
        query = self.current_query() if query_id is None else self.golden.query(query_id)
        if query is None:
            self._bench.notice.emit("Grade this result first: its question is not in the golden set yet.")
            return False
        if query.why(chunk_id) == " ".join(text.split()):
            return True
        self.golden = self.golden.with_query(query.with_why(chunk_id, text))
        self._save(self.golden, self.golden_path)
        self._bench.changed.emit(None)
        return True

    def question_scores(self) -> dict[str, float] | None:
        """nDCG@10 and MRR@10 of the what-if ranking on the current question's judgments."""
        q = self.current_query()
        whatif = self._bench.whatif_job.whatif
        if q is None or whatif is None:
            return None
        ranked = [r.chunk_id for r in whatif.result.results]
        return {"ndcg@10": metrics.ndcg(ranked, q.judgments), "mrr@10": metrics.mrr(ranked, q.judgments)}


def _key(text: str) -> str:
    return " ".join(text.split()).casefold()


def _new_id(golden: GoldenSet) -> str:
    ids = {q.id for q in golden.queries}
    n = len(ids) + 1
    while f"q{n}" in ids:
        n += 1
    return f"q{n}"


def shipped(path: Path) -> bool:
    """Whether ``path`` is one of the golden sets that ship with the app (``resources/golden/``)."""
    try:
        return path.resolve().is_relative_to(resources.resource_path("golden").resolve())
    except OSError:
        return False


def own_copy(path: Path) -> tuple[Path, bool]:
    """The curator's copy of the shipped set ``path`` in the data folder, made on first use (whether it was
    made now is the second value). An existing copy is kept as it is: it holds the curator's grades."""
    copy = paths.golden_dir() / path.name
    if copy.is_file():
        return copy, False
    copy.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(copy, path.read_bytes())
    return copy, True

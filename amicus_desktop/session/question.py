"""The question and its results: asking, superseding, re-ranking the kept candidates. No Qt.

:class:`Question` runs one question at a time through an :class:`~.engine.Engine` (a newer one
cancels the one in flight, whose answer is then never shown) and holds the answer as a
:class:`ResultView`. A profile or settings change re-ranks that answer's candidates
(:meth:`Question.rerank`) without a new embedding or search. The retrieval context always comes
from the one function the session gives it, so what is asked and what is re-ranked agree.

**Stable answers.** Only a deliberate change of context re-ranks: the reader moving to another chapter,
a profile or settings change. Opening or peeking at a result never does (the session opens it with
``peek``), and an answer stays ranked for the chapter it was asked with while it was in flight. A re-rank is
visible (its cause and the rank moves are on the view) and can be undone in one step (:meth:`Question.undo`).

Failures are told apart: an :class:`~amicus_desktop.core.errors.AmicusError` is the proxy's, the
database's or the question's; anything else is a bug in Amicus Desktop and is reported as an
:class:`InternalError` pointing at the log file, never dressed up as a proxy failure.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Literal

from .. import logs
from ..bundle.warnings import chosen_by_reader
from ..core.errors import AmicusError
from ..core.query import RetrievalContext
from ..core.references import ChapterRef
from ..core.results import RetrievalResult, RetrievalWarning
from ..retrieval import rerank_result, validate_query
from ..states import AskFailure, InternalError
from .engine import Engine
from .events import Event
from .history import History

log = logging.getLogger("amicus.session")

#: Why the results on screen are what they are: a fresh answer, a re-rank after a change, or the
#: same question asked again because the pins changed (its ranks compared with the ones before).
Cause = Literal["ask", "chapter", "profile", "settings", "pins", "overlay", "library"]


@dataclass(frozen=True)
class ResultView:
    """What the results pane shows.

    ``previous_ranks`` maps chunk ids to their rank before a re-rank (``None`` after a fresh ask);
    ``stale`` marks results asked before the proxy went away.
    """

    result: RetrievalResult
    previous_ranks: Mapping[str, int] | None
    cause: Cause
    asked_at: float
    stale: bool = False
    #: whether :meth:`Question.undo` can bring back the answer before this re-rank
    undoable: bool = False
    #: ranked for the whole library: the reader turned the open chapter off for this question
    whole_library: bool = False

    @property
    def shown_warnings(self) -> tuple[RetrievalWarning, ...]:
        """The answer's warnings the reader is shown: not those that only restate the reader's own choice."""
        ctx = self.result.context
        return tuple(w for w in self.result.warnings if ctx is None or not chosen_by_reader(w, ctx))




class Question:
    """Events: :attr:`busy_changed`, :attr:`answered` (the engine's raw result,
    before any re-rank), :attr:`result_changed` (what to show, or ``None``), :attr:`failed`.

    :attr:`history` holds this session's questions; :attr:`failed_text` is the question whose
    asking failed last (``None`` once a question is answered), so it can be asked again in one key.
    """

    def __init__(self, context: Callable[[str], RetrievalContext]) -> None:
        self._context = context
        self.view: ResultView | None = None
        self.busy = False
        self._task: asyncio.Task[None] | None = None
        self.history = History()
        self.failed_text: str | None = None
        self.busy_changed: Event[bool] = Event("busy")
        self.answered: Event[RetrievalResult] = Event("answered")
        self.result_changed: Event[ResultView | None] = Event("result")
        self.failed: Event[AskFailure] = Event("ask failed")
        #: the question was answered from the library alone: the workspace's notes store failed (why)
        self.notes_failed: Event[AmicusError] = Event("notes unavailable")
        #: whether the reader moved on purpose while a question was in flight
        self._moved = False
        #: the answer before the last re-rank, to go back to (``None``: nothing to undo)
        self.undo_view: ResultView | None = None
        #: the question on screen is ranked for the whole library, not the open chapter (the reader's choice
        #: for this question: :meth:`set_whole_library`; the session turns it off for the next question)
        self.whole_library = False
        #: asks the question on screen again (the session's; ``None`` back when it cannot): a re-rank whose
        #: context asks for pins the answer was not searched with (a passage pin, the reader in its chapter)
        self.reask: Callable[[], object] = lambda: None

    @property
    def in_flight(self) -> bool:
        """Whether a question is being asked now (from the moment it is asked, before its task has started)."""
        return self._task is not None and not self._task.done()

    @property
    def ranked_for(self) -> ChapterRef | None:
        """The chapter the answer on screen is ranked for (``None``: no answer, or none was open)."""
        ctx = self.view.result.context if self.view is not None else None
        return ctx.chapter if ctx is not None else None

    # -- asking ----------------------------------------------------------------------------
    def check(self, text: str) -> bool:
        """Whether ``text`` can be asked at all; if not, :attr:`failed` says why (no I/O)."""
        try:
            validate_query(text)
        except AmicusError as err:
            self.failed.emit(err)
            return False
        return True

    def ask(self, engine: Engine, text: str, cause: Cause = "ask", *,
            before: Awaitable[None] | None = None) -> asyncio.Task[None] | None:
        """Ask ``text`` (already :meth:`check`-ed) on ``engine``, superseding a question in flight
        (it stays busy: the new question takes over). With ``cause="pins"`` the answer keeps the
        ranks on screen now as its previous ranks, so the Move column shows what the pins moved.
        ``before`` is awaited first (a note being written is saved, so the question finds it)."""
        self._drop_current()
        self._moved = False
        if cause == "ask":  # asked again for new pins: the same question, already in the history
            self.history.add(text)
        previous = None
        if cause != "ask" and self.view is not None:
            previous = {r.chunk_id: r.rank for r in self.view.result.results}
        self._task = engine.spawn(self._run(engine, self._context(text), cause, previous, before))
        return self._task

    def cancel(self) -> None:
        """Drop the question in flight, if any: its answer will never be shown."""
        self._drop_current()
        self._set_busy(False)

    def _drop_current(self) -> None:
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()

    def _is_current(self) -> bool:
        return asyncio.current_task() is self._task

    async def _run(self, engine: Engine, ctx: RetrievalContext, cause: Cause = "ask",
                   previous: Mapping[str, int] | None = None, before: Awaitable[None] | None = None) -> None:
        self._set_busy(True)
        log.info("ask", extra={"query_chars": len(ctx.query), "k": ctx.k})
        try:
            if before is not None:
                await before
            result = await self._retrieve(engine, ctx)
        except asyncio.CancelledError:
            # Superseded by a newer question, or the engine closed: nothing to show.
            if self._is_current():
                self._set_busy(False)
            return
        except AmicusError as err:
            if self._is_current():
                self._set_busy(False)
                self.failed_text = ctx.query
                log.warning("ask failed", extra={"code": err.code.value})
                self.failed.emit(err)
            return
        except Exception as exc:  # a bug in Amicus Desktop: say so, rather than blame the proxy
            if self._is_current():
                self._set_busy(False)
                self.failed_text = ctx.query
                log.exception("ask crashed")
                self.failed.emit(InternalError(type(exc).__name__, logs.log_file()))
            return
        if not self._is_current():
            return
        self._set_busy(False)
        self.failed_text = None
        self.answered.emit(result)
        # The profile or settings may have changed while the question was in flight, and the reader may have
        # moved on purpose (the new chapter is then the context); peeking at a result moves no context.
        current = self._context(ctx.query)
        if not self._moved:
            current = current.replace(chapter=ctx.chapter)
        if current != ctx:
            result = rerank_result(_with_pins(result, current.pins) or result, current)
        self.undo_view = None
        self._show(ResultView(result, previous, cause if previous is not None else "ask", time.time(),
                              whole_library=self.whole_library))

    async def _retrieve(self, engine: Engine, ctx: RetrievalContext) -> RetrievalResult:
        """The answer to ``ctx``; when only the workspace's notes store failed (damaged, or busy with another
        writer), the library's answer without the notes, and :attr:`notes_failed` says why — a damaged
        notes store must not stop the library."""
        try:
            result = await engine.retriever.retrieve(ctx)
        except AmicusError as err:
            if not err.notes_only or ctx.workspace is None:
                raise
            log.warning("notes unavailable; answered from the library", extra={"code": err.code.value})
            result = await engine.retriever.retrieve(ctx.replace(workspace=None))
            if self._is_current():
                self.notes_failed.emit(err)
            return replace(result, context=ctx)
        return result

    def _set_busy(self, busy: bool) -> None:
        if busy != self.busy:
            self.busy = busy
            self.busy_changed.emit(busy)

    # -- the answer on screen --------------------------------------------------------------
    def set_whole_library(self, whole: bool) -> bool:
        """Rank the question on screen (and one in flight) for the whole library, or for the open chapter
        again (``False``): re-ranked from the kept candidates, undoably. ``True`` when that changed it."""
        if whole == self.whole_library:
            return False
        self.whole_library = whole
        self.rerank("library")
        return True

    def rerank(self, cause: Cause) -> None:
        """Re-rank the kept candidates for the current context (no embedding, no search), undoably.

        Only ``cause="chapter"`` (the reader moved) and ``"library"`` (the open chapter turned off or on) move
        the answer to the chapter the context has now; any other cause keeps the chapter the answer is ranked
        for. While the question is ranked for the whole library a chapter move changes nothing.
        """
        moves = cause == "library" or (cause == "chapter" and not self.whole_library)
        if cause == "chapter" and self.whole_library:
            return
        if moves and self._task is not None and not self._task.done():
            self._moved = True  # the answer in flight is to be ranked where the reader went
        view = self.view
        if view is None:
            return
        ctx = self._context(view.result.query)
        if not moves:
            ctx = ctx.replace(chapter=self.ranked_for)
        source = _with_pins(view.result, ctx.pins)
        if source is None and self.reask() is not None:
            return  # a pin now in scope was not searched for: asked again ("pins")
        previous = {r.chunk_id: r.rank for r in view.result.results}
        result = rerank_result(source or view.result, ctx)
        self.undo_view = view
        self._show(ResultView(result, previous, cause, view.asked_at, view.stale, undoable=True,
                              whole_library=self.whole_library))

    def undo(self) -> bool:
        """Go back to the answer as it was before the last re-rank; ``False`` when there is nothing to undo.

        It comes back as it was shown (its cause and rank moves), marked stale if the proxy went away since.
        """
        view, self.undo_view = self.undo_view, None
        if view is None or self.view is None:
            return False
        self.whole_library = view.whole_library
        self._show(replace(view, stale=view.stale or self.view.stale, undoable=False))
        return True

    def mark_stale(self) -> None:
        """The proxy went away: the answer on screen stays, marked as from before."""
        if self.view is not None and not self.view.stale:
            self._show(replace(self.view, stale=True))

    def clear(self) -> None:
        self.undo_view = None
        self._show(None)

    def _show(self, view: ResultView | None) -> None:
        self.view = view
        self.result_changed.emit(view)


def _with_pins(result: RetrievalResult, pins: tuple[str, ...]) -> RetrievalResult | None:
    """``result`` keeping only the pinned chunks among ``pins`` (a pin out of scope after a move leaves the
    answer); ``None`` when ``pins`` holds one the result was not searched with (it needs asking again)."""
    asked = set(result.context.pins) if result.context is not None else {c.chunk_id for c in result.pinned}
    if not set(pins) <= asked:
        return None
    if set(pins) == asked:
        return result
    return replace(result, pinned=tuple(c for c in result.pinned if c.chunk_id in pins))

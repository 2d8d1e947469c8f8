"""A/B: the question on screen answered under two configurations, and how much the answers agree. No Qt."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...core.errors import AmicusError
from ...core.query import BoostWeights, Profile, SearchMode
from ...core.references import ChapterRef
from ...core.results import RetrievalResult
from ...evaluate import metrics

if TYPE_CHECKING:
    from .facade import Workbench


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


class ABJob:
    """The last comparison (:attr:`ab`; dropped when another question is on screen) and whether one
    is running (:attr:`ab_running`)."""

    def __init__(self, bench: Workbench) -> None:
        self._bench = bench
        self.ab: ABResult | None = None
        self.ab_running = False
        self._task: asyncio.Task[None] | None = None

    def side(self, mode: SearchMode, weights: BoostWeights, *, profile: bool = True, chapter: bool = True,
             label: str = "") -> Side:
        """A side built from the app's state: ``profile``/``chapter`` say whether the reader's are used."""
        session = self._bench.session
        return Side(mode, weights, session.prefs.profile if profile else Profile(),
                    session.reader.chapter if chapter else None, label)

    def compare(self, a: Side, b: Side) -> asyncio.Task[None] | None:
        """Answer the question on screen under ``a`` and ``b`` (each its own search), off the UI thread."""
        bench = self._bench
        text, engine = bench.question, bench.session.engine
        if text is None or engine is None or not bench.session.can_ask:
            bench.notice.emit("Ask a question first (and wait for the proxy): A/B answers it twice.")
            return None
        if self._task is not None:
            self._task.cancel()
        self.ab_running = True
        bench.changed.emit(None)
        self._task = engine.spawn(self._compare(text, a, b))
        return self._task

    async def _compare(self, text: str, a: Side, b: Side) -> None:
        session = self._bench.session
        retriever = session.engine.retriever if session.engine else None
        try:
            if retriever is None:
                return
            results = []
            for side in (a, b):
                ctx = session.context(text).replace(mode=side.mode, weights=side.weights,
                                                    profile=side.profile, chapter=side.chapter)
                results.append(await retriever.retrieve(ctx))
            self.ab = ABResult.of(results[0], results[1])
        except AmicusError as err:
            self._bench.notice.emit(f"The comparison could not be made: {err.message}")
        finally:
            if asyncio.current_task() is self._task:
                self.ab_running = False
                self._bench.changed.emit(None)

    def forget_other_question(self, query: str | None) -> None:
        """The question on screen changed: a comparison that answered another question goes."""
        if self.ab is not None and query != self.ab.a.query:
            self.ab = None

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()

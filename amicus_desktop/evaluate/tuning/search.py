"""The weight search: coordinate ascent on a training half, measured on the held-out half. No Qt, no I/O.

Each golden question is retrieved once (``evaluate(..., keep_results=True)``); a candidate pool does not
depend on the weights, the fusion or the ranking policy, so every configuration tried is the same
re-rank the what-if tab does — no new embedding, no new search — and a configuration costs milliseconds.

The questions are split by a hash of their id (:func:`split`): a question stays on its side however the
set grows, and the search never sees the held-out side. From the starting configuration, each round tries
every value of every knob in turn (the others held), keeps a value only when it raises the training mean
nDCG@10, and stops when a round changes nothing, after :data:`MAX_ROUNDS`, at the time budget or when
asked to. Both configurations are then scored on the held-out questions, with a paired bootstrap interval.
"""

from __future__ import annotations

import hashlib
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ...core.query import RetrievalContext
from ...core.results import RetrievalResult
from ...rerank import rerank
from ...understand import PassageError
from .. import metrics
from ..compare import paired_bootstrap
from ..golden import GoldenQuery, GoldenSet
from ..run import EvalConfig
from .space import Knob, knobs_for

MAX_ROUNDS = 4
#: a change smaller than this is no change (float noise)
EPSILON = 1e-9


def held_out(query_id: str) -> bool:
    """Whether a question is on the held-out side: the last bit of the SHA-256 of its id."""
    return hashlib.sha256(query_id.encode("utf-8")).digest()[-1] % 2 == 1


def split(golden: GoldenSet) -> tuple[list[GoldenQuery], list[GoldenQuery]]:
    """(training questions, held-out questions), each in the set's order."""
    return [q for q in golden.queries if not held_out(q.id)], [q for q in golden.queries if held_out(q.id)]


@dataclass(frozen=True)
class Progress:
    """``tried`` configurations so far, of about ``planned`` for this round; the best training mean yet."""

    tried: int
    planned: int
    round: int
    best: float


class Scorer:
    """Scores a configuration on some golden questions from their kept retrievals (questions that could
    not be asked score 0 under every configuration)."""

    def __init__(self, queries: Sequence[GoldenQuery], results: Mapping[str, RetrievalResult],
                 book_ids: Sequence[str], start: EvalConfig) -> None:
        self.queries = list(queries)
        self._results = results
        self._contexts: dict[str, RetrievalContext] = {}
        for q in self.queries:
            result = results.get(q.id)
            if result is None:
                continue
            try:
                self._contexts[q.id] = start.context(q, book_ids).replace(mode=result.mode)
            except PassageError:
                continue

    def ranked(self, q: GoldenQuery, config: EvalConfig) -> list[str]:
        ctx = self._contexts.get(q.id)
        result = self._results.get(q.id)
        if ctx is None or result is None:
            return []
        ctx = ctx.replace(weights=config.weights, fusion=config.fusion, policy=config.policy)
        results, _rejected = rerank(result.candidates, ctx, result.pinned, result.trace.references, result.quoted)
        return [r.chunk_id for r in results[: metrics.K]]

    def per_question(self, config: EvalConfig) -> list[float]:
        return [metrics.ndcg(self.ranked(q, config), q.judgments) for q in self.queries]

    def mean(self, config: EvalConfig) -> float:
        values = self.per_question(config)
        return statistics.fmean(values) if values else 0.0

    def judged_share(self, config: EvalConfig) -> float:
        shares = [s for q in self.queries if (s := metrics.judged_share(self.ranked(q, config), q.judgments))
                  is not None]
        return statistics.fmean(shares) if shares else 0.0


@dataclass(frozen=True)
class Outcome:
    """What the search found, and how it measures on both halves."""

    start: EvalConfig
    best: EvalConfig
    train: int
    held: int
    train_before: float
    train_after: float
    held_before: tuple[float, ...]
    held_after: tuple[float, ...]
    low: float
    high: float
    judged_before: float
    judged_after: float
    tried: int
    rounds: int
    seconds: float
    #: ``converged`` (a round changed nothing), ``rounds`` (MAX_ROUNDS reached), ``budget`` or ``stopped``
    ended: str

    @property
    def held_mean_before(self) -> float:
        return statistics.fmean(self.held_before) if self.held_before else 0.0

    @property
    def held_mean_after(self) -> float:
        return statistics.fmean(self.held_after) if self.held_after else 0.0

    @property
    def held_delta(self) -> float:
        return self.held_mean_after - self.held_mean_before

    @property
    def train_delta(self) -> float:
        return self.train_after - self.train_before

    @property
    def significant(self) -> bool:
        return self.low > 0 or self.high < 0


def coordinate_ascent(golden: GoldenSet, results: Mapping[str, RetrievalResult], book_ids: Sequence[str],
                      start: EvalConfig, *, budget: float = 60.0, knobs: Sequence[Knob] | None = None,
                      progress: Callable[[Progress], None] | None = None,
                      stop: Callable[[], bool] | None = None, clock: Callable[[], float] = time.monotonic,
                      ) -> Outcome:
    """Search from ``start`` for ``budget`` seconds at most; see the module's description."""
    t0 = clock()
    train_q, held_q = split(golden)
    train = Scorer(train_q, results, book_ids, start)
    modes = {r.mode for r in results.values()}
    knobs = tuple(knobs) if knobs is not None else knobs_for(start, modes)
    best, best_score = start, train.mean(start)
    tried, rounds, ended = 1, 0, "rounds"
    planned = sum(len(k.choices(start)) - 1 for k in knobs)
    while rounds < MAX_ROUNDS:
        rounds += 1
        changed = False
        for knob in knobs:
            for value in knob.choices(best):
                if value == knob.get(best):
                    continue
                if stop is not None and stop():
                    ended = "stopped"
                    break
                if clock() - t0 > budget:
                    ended = "budget"
                    break
                trial = knob.put(best, value)
                score = train.mean(trial)
                tried += 1
                if score > best_score + EPSILON:
                    best, best_score, changed = trial, score, True
                if progress is not None:
                    progress(Progress(tried, planned * rounds, rounds, best_score))
            if ended in ("stopped", "budget"):
                break
        if ended in ("stopped", "budget"):
            break
        if not changed:
            ended = "converged"
            break
    held = Scorer(held_q, results, book_ids, start)
    before, after = held.per_question(start), held.per_question(best)
    low, high = paired_bootstrap(np.array(before), np.array(after))
    return Outcome(start, best, len(train_q), len(held_q), train.mean(start), best_score, tuple(before),
                   tuple(after), low, high, held.judged_share(start), held.judged_share(best), tried, rounds,
                   clock() - t0, ended)

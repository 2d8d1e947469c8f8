"""Running a golden set through the retrieval pipeline under one configuration.

The configuration is what a curator varies (mode, weights, the cap, the fusion, the number of
candidates); the database — and with it the embedding model — is the :class:`Retriever`'s. Every
question is retrieved as the app would retrieve it (its chapter open, its profile set) and scored on
its top 10 ranked results (CONTRACT section 8). A question that cannot be asked is reported by its id
and scores 0; the others are still evaluated.

Beside the ranking's scores each question says how the search itself did and how much of its top 10 is
judged: the **pool recall** — the share of its relevant chunks (grade ≥ 1, as Recall@10 counts them) that
the candidate pool holds (``candidates`` per search: 40 by default, so "recall@40"; hybrid pools both
searches) — so a relevant chunk missing from the top 10 is the search's miss when the pool lacks it and
the re-rank's when the pool holds it; and the top 10's **unjudged** chunks, which count as not relevant, so
a configuration that ranks many of them is measured low for that alone (:mod:`.gaps`).
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..bundle.warnings import strength
from ..core.errors import AmicusError, ErrorCode
from ..core.governance import Governance
from ..core.preset import Preset
from ..core.query import (
    DEFAULT_CANDIDATES,
    NO_BOOSTS,
    BoostWeights,
    Fusion,
    Profile,
    RankingPolicy,
    RetrievalContext,
    SearchMode,
)
from ..core.references import ChapterRef
from ..core.results import RetrievalResult
from ..knobs import BY_NAME, words
from ..retrieval import Retriever
from ..store.library import LibraryStore
from ..understand import PassageError, parse_passage
from . import metrics
from .golden import GoldenQuery, GoldenSet

METRICS = ("ndcg@10", "mrr@10", "recall@10")


@dataclass(frozen=True)
class EvalConfig:
    """One configuration to evaluate.

    Its parts are a :class:`~amicus_desktop.core.preset.Preset`'s (``mode``, ``weights``, ``fusion``,
    ``candidates``, ``policy``), so every knob whose place is in one of them (``weights.chapter``,
    ``policy.focus``) is read and set here by its row of :data:`~amicus_desktop.knobs.KNOBS`; a knob whose
    place is a field of the :class:`~amicus_desktop.core.query.RetrievalContext` itself that this class does
    not name (``k``, ``min_similarity``, a new knob's) is held in :attr:`other_knobs` and set on each
    question's context by the same row — so a new knob needs no line here (README, "How to add a knob").
    """

    mode: SearchMode = SearchMode.SEMANTIC
    weights: BoostWeights = BoostWeights()
    fusion: Fusion = Fusion()
    candidates: int = DEFAULT_CANDIDATES
    label: str = ""
    policy: RankingPolicy = RankingPolicy()
    #: the workspace whose notes join the candidates (judgments may name its notes' ids)
    workspace: str | None = None
    #: an overlay's forbidden sources and vocabulary (CONTRACT section 12), and its preferred sources,
    #: which join each question's own profile
    governance: Governance | None = None
    preferred: Profile = field(default_factory=Profile)
    #: ``(knob name, value)`` of the knobs set that have no part here, by name (:meth:`Knob.put
    #: <amicus_desktop.knobs.Knob.put>` keeps them; unset, a question gets the knob's default)
    other_knobs: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, preset: Preset, label: str = "") -> EvalConfig:
        """A preset's configuration (``--preset app``: what a reader gets)."""
        return cls(preset.mode, preset.weights, preset.fusion, preset.candidates, label, preset.policy)

    def describe(self) -> str:
        if self.label:
            return self.label
        w = self.weights
        boosts = "no boosts" if w == NO_BOOSTS else (
            f"chapter ×{w.chapter:g}, scholar ×{w.scholar:g}, tradition ×{w.tradition:g}, "
            f"reference ×{w.reference:g}, cap {w.per_scholar_cap or 'none'}"
        )
        fusion = f", {self.fusion.method.value} α {self.fusion.alpha:g}" if self.mode is SearchMode.HYBRID else ""
        overlay = f", overlay {self.governance.role_id}" if self.governance else ""
        others = "".join(f", {BY_NAME[name].key} {words(value)}" for name, value in self.other_knobs)
        return f"{self.mode.value}{fusion}, {boosts}{overlay}{others}"

    def retrieval(self, query: str = "", *, profile: Profile | None = None, chapter: ChapterRef | None = None,
                  mode: SearchMode | None = None) -> RetrievalContext:
        """The retrieval this configuration makes of ``query`` (``mode``: the question's own, else the
        configuration's), every knob it holds in place."""
        ctx = RetrievalContext(
            query=query,
            profile=Profile() if profile is None else profile,
            chapter=chapter,
            candidates=self.candidates,
            weights=self.weights,
            mode=mode or self.mode,
            fusion=self.fusion,
            policy=self.policy,
            workspace=self.workspace,
            governance=self.governance,
        )
        for name, value in self.other_knobs:
            ctx = BY_NAME[name].put(ctx, value)
        return ctx

    def context(self, q: GoldenQuery, book_ids: Sequence[str]) -> RetrievalContext:
        chapter = parse_passage(q.chapter, book_ids, check_bounds=False).chapter_ref if q.chapter else None
        profile = Profile.of([*q.scholars, *self.preferred.preferred_scholars],
                             [*q.traditions, *self.preferred.preferred_traditions])
        return self.retrieval(q.query, profile=profile, chapter=chapter, mode=q.mode)


@dataclass(frozen=True)
class QueryScore:
    """One question's scores and its top 10."""

    id: str
    query: str
    ranked: tuple[str, ...]
    scores: Mapping[str, float]
    #: the best ``base`` among the ranked results, weighed as the no-strong-match warning weighs it
    #: (:func:`~amicus_desktop.bundle.warnings.strength`), for calibrating its floor
    best_base: float | None = None
    #: the best similarity among the ranked results (the meaning floor of hybrid; ``None`` in keyword mode)
    best_similarity: float | None = None
    #: how many ranked results the question got (fewer than 10: a short list)
    n_ranked: int = 0
    #: the codes of the warnings the answer carried
    warnings: tuple[str, ...] = ()
    #: how many authors the top 10 holds, and the most chunks one author has there (the list's diversity)
    authors: int = 0
    most_by_one: int = 0
    #: why the question could not be asked (``QUERY_INVALID``: empty, too long): it retrieved nothing
    error: str | None = None
    #: the question's relevant chunks (grade ≥ 1), how many of them the candidate pool held, how large it was
    relevant: int = 0
    in_pool: int = 0
    pool_size: int = 0
    #: the top 10's chunks the golden set does not judge, in rank order
    unjudged: tuple[str, ...] = ()

    @property
    def pool_recall(self) -> float:
        """The share of the relevant chunks the candidate pool held (0 for a question with none)."""
        return self.in_pool / self.relevant if self.relevant else 0.0

    @property
    def misses(self) -> tuple[int, int]:
        """Relevant chunks not in the top 10: (the search's — not in the pool, the re-rank's — in the pool)."""
        in_top = round(self.scores.get("recall@10", 0.0) * self.relevant)
        return self.relevant - self.in_pool, self.in_pool - in_top

    @property
    def judged_share(self) -> float | None:
        """The share of the top 10 that carries a judgment when it was evaluated (``None``: nothing ranked)."""
        return metrics.judged_share(self.ranked, {c: 0 for c in self.ranked if c not in self.unjudged})

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"id": self.id, **self.scores, "ranked": list(self.ranked),
                                  "pool_recall": self.pool_recall, "unjudged": list(self.unjudged)}
        if self.error is not None:
            out["error"] = self.error
        return out


@dataclass(frozen=True)
class EvalReport:
    """A golden set's scores under one configuration."""

    name: str
    config: EvalConfig
    model: str
    queries: tuple[QueryScore, ...]
    #: judged chunk ids the database does not hold (allowed; reported)
    missing: tuple[str, ...] = ()
    results: Mapping[str, RetrievalResult] = field(default_factory=dict, repr=False)

    @property
    def failed(self) -> tuple[QueryScore, ...]:
        """The questions that could not be asked (they score 0)."""
        return tuple(q for q in self.queries if q.error is not None)

    @property
    def mean(self) -> dict[str, float]:
        return {m: statistics.fmean(q.scores[m] for q in self.queries) if self.queries else 0.0 for m in METRICS}

    @property
    def pool_recall(self) -> float:
        """Mean pool recall over the questions with a relevant chunk."""
        values = [q.pool_recall for q in self.queries if q.relevant]
        return statistics.fmean(values) if values else 0.0

    @property
    def judged_share(self) -> float:
        """Mean share of each question's top 10 that carries a judgment (questions that ranked something)."""
        shares = [s for q in self.queries if (s := q.judged_share) is not None]
        return statistics.fmean(shares) if shares else 0.0

    @property
    def unjudged(self) -> int:
        return sum(len(q.unjudged) for q in self.queries)

    @property
    def misses(self) -> tuple[int, int]:
        """Relevant chunks left out of a top 10, over every question: (the search's, the re-rank's)."""
        pairs = [q.misses for q in self.queries]
        return sum(a for a, _ in pairs), sum(b for _, b in pairs)

    def to_json(self) -> dict[str, object]:
        search, rerank = self.misses
        return {
            "name": self.name,
            "mean": self.mean,
            "queries": [q.to_json() for q in self.queries],
            "config": self.config.describe(),
            "model": self.model,
            "missing_judged_ids": list(self.missing),
            "pool_recall": self.pool_recall,
            "candidates": self.config.candidates,
            "judged_share": self.judged_share,
            "unjudged": self.unjudged,
            "misses": {"search": search, "rerank": rerank},
        }


async def evaluate(
    retriever: Retriever,
    golden: GoldenSet,
    config: EvalConfig,
    *,
    keep_results: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> EvalReport:
    """Retrieve every question of ``golden`` under ``config`` and score its top 10."""
    info = await retriever.open()
    book_ids = sorted(await retriever.run_db(lambda store: store.book_ids()))
    judged = sorted(golden.judged_ids())
    present = await retriever.run_db(lambda store: present_ids(store, judged))
    if config.workspace is not None:  # judged notes of the workspace are there too
        notes = [c for c in judged if c.startswith("note:")]
        workspace = config.workspace
        present |= set(await retriever.run_db(lambda _: retriever.notes.workspace(workspace).rowids_of(notes)))
    scores: list[QueryScore] = []
    kept: dict[str, RetrievalResult] = {}
    for i, q in enumerate(golden.queries, start=1):
        try:
            result = await retriever.retrieve(config.context(q, book_ids))
        except (AmicusError, PassageError) as exc:
            # A question that cannot be asked (over 2,000 characters, say) fails alone, by its id; the
            # database or the proxy failing fails every question, so that still ends the run.
            if isinstance(exc, AmicusError) and exc.code is not ErrorCode.QUERY_INVALID:
                raise
            message = exc.message if isinstance(exc, AmicusError) else str(exc)
            scores.append(QueryScore(q.id, q.query, (), metrics.scores((), q.judgments), error=message,
                                     relevant=sum(g >= 1 for g in q.judgments.values())))
            continue
        ranked = tuple(r.chunk_id for r in result.ranked[: metrics.K])
        best = max((strength(r) for r in result.ranked), default=None)
        closest = max((r.breakdown.similarity for r in result.ranked if r.breakdown.similarity is not None),
                      default=None)
        by_author = Counter(r.candidate.metadata.scholar_id for r in result.ranked[: metrics.K]
                            if r.candidate.metadata.scholar_id)
        relevant = {c for c, g in q.judgments.items() if g >= 1}
        pool = {c.chunk_id for c in result.candidates}
        scores.append(QueryScore(q.id, q.query, ranked, metrics.scores(ranked, q.judgments), best, closest,
                                 len(result.ranked), tuple(w.code.value for w in result.warnings),
                                 len(by_author), max(by_author.values(), default=0),
                                 relevant=len(relevant), in_pool=len(relevant & pool), pool_size=len(pool),
                                 unjudged=tuple(c for c in ranked if c not in q.judgments)))
        if keep_results:
            kept[q.id] = result
        if progress is not None:
            progress(i, len(golden.queries))
    return EvalReport(
        name=golden.name,
        config=config,
        model=info.model_id,
        queries=tuple(scores),
        missing=tuple(c for c in judged if c not in present),
        results=kept,
    )


def present_ids(store: LibraryStore, chunk_ids: Sequence[str]) -> set[str]:
    """Which of ``chunk_ids`` the database holds."""
    return set(store.rowids_for(chunk_ids))


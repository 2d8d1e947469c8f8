"""How a candidate's final score was made: a base score and a list of named factors. Plain data, no I/O.

Each re-ranking step (:mod:`amicus_desktop.rerank.factors`) returns one :class:`Factor` — its name, its
value, and what the sentence that explains it needs (``flags``) — and :class:`ScoreBreakdown` holds them
in the order the steps ran. ``final`` is computed once, here, from the list; the JSON (CONTRACT sections 4,
6, 12 and 15), the labels and the "why" sentences (:mod:`amicus_desktop.present.factors`) and the bundle
check (:mod:`amicus_desktop.bundle.check`) all read the list, so the order is written in one place.

The contract's JSON keys stay what they always were (``chapter_boost``, ``scholar_boost``, …): a factor
carries its key, and :class:`FactorPart` says which part of the contract defines it — where the key sits in
the JSON and when it is there.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any

from .query import SearchMode


class FactorPart(enum.Enum):
    """Which part of the contract defines a factor: when its key is in the JSON, and where."""

    #: section 4's three boosts: always there, written before ``final``
    CONTRACT = "contract"
    #: section 6's: always there, written after ``lexical``
    SEARCH = "search"
    #: section 15's, under a ranking policy (the breakdown is ``extended``); the factors' flags are written after them
    POLICY = "policy"
    #: section 12's, under an overlay (the breakdown is ``governed``)
    OVERLAY = "overlay"


@dataclass(frozen=True)
class Factor:
    """One multiplier of a score, as the re-ranking step that made it returns it.

    ``name`` is the key of its label and sentence (``chapter``); ``key`` its JSON key (``chapter_boost``);
    ``flags`` what else its sentence needs and the JSON carries (``chapter_focus``: true); ``last`` marks a
    factor applied after the list is ordered (the spread's ``diversity``), which ``final`` multiplies after
    the others.
    """

    name: str
    value: float
    key: str
    part: FactorPart = FactorPart.CONTRACT
    flags: tuple[tuple[str, bool], ...] = ()
    last: bool = False

    def flag(self, name: str) -> bool:
        """The flag ``name`` (``False`` when the factor does not carry it)."""
        return dict(self.flags).get(name, False)


@dataclass(frozen=True)
class ScoreBreakdown:
    """How a candidate's final score was made: data, not a string.

    ``final = base × each factor``, in the order of :attr:`factors` (those marked ``last`` after the
    others); in ``semantic`` mode ``base == similarity`` (CONTRACT sections 3 and 6). The contract's four
    boosts are always among the factors; under the app's ranking policy
    (:class:`~amicus_desktop.core.query.RankingPolicy`) so are ``source_prior`` and ``diversity`` — the
    breakdown is ``extended`` and the chapter's factor carries its flags (``chapter_suspended``: the open
    chapter gave way to a passage the question names, …) — and under an overlay (CONTRACT section 12) the
    ``vocabulary_boost`` (``governed``).
    """

    distance: float | None
    similarity: float | None
    factors: tuple[Factor, ...] = ()
    mode: SearchMode = SearchMode.SEMANTIC
    base: float | None = None
    lexical: float | None = None
    final: float = field(init=False)

    def __post_init__(self) -> None:
        if self.base is None:  # semantic: the base is the similarity
            object.__setattr__(self, "base", self.similarity)
        value = self.base if self.base is not None else 0.0
        for f in (*(f for f in self.factors if not f.last), *(f for f in self.factors if f.last)):
            value *= f.value
        object.__setattr__(self, "final", value)

    def factor(self, name: str) -> Factor | None:
        """The factor called ``name`` (``None`` when this breakdown has none)."""
        return next((f for f in self.factors if f.name == name), None)

    def value(self, name: str) -> float:
        """The value of the factor called ``name`` (1.0 when this breakdown has none: it multiplied nothing)."""
        f = self.factor(name)
        return 1.0 if f is None else f.value

    def with_factor(self, name: str, value: float) -> ScoreBreakdown:
        """This breakdown with the factor ``name`` set to ``value`` (its ``final`` computed again)."""
        return replace(self, factors=tuple(replace(f, value=value) if f.name == name else f for f in self.factors))

    @property
    def boosts(self) -> dict[str, float]:
        """The multipliers by name, in the order they are listed."""
        return {f.name: f.value for f in self.factors}

    @property
    def extended(self) -> bool:
        """Scored under the app's ranking policy (the JSON carries its keys)."""
        return any(f.part is FactorPart.POLICY for f in self.factors)

    @property
    def governed(self) -> bool:
        """Scored under an overlay (the JSON carries its key)."""
        return any(f.part is FactorPart.OVERLAY for f in self.factors)

    # The contract's keys by name, for code that reads one of them.
    @property
    def chapter_boost(self) -> float:
        return self.value("chapter")

    @property
    def scholar_boost(self) -> float:
        return self.value("scholar")

    @property
    def tradition_boost(self) -> float:
        return self.value("tradition")

    @property
    def reference_boost(self) -> float:
        return self.value("reference")

    @property
    def source_prior(self) -> float:
        return self.value("source")

    @property
    def diversity(self) -> float:
        return self.value("diversity")

    @property
    def vocabulary_boost(self) -> float:
        return self.value("vocabulary")

    @property
    def chapter_suspended(self) -> bool:
        """The open chapter gave way to a passage the question names."""
        return self._chapter_flag("chapter_suspended")

    @property
    def chapter_focus(self) -> bool:
        """The chapter boost is the focus chapter's (no chapter was open; :mod:`amicus_desktop.rerank.focus`)."""
        return self._chapter_flag("chapter_focus")

    @property
    def chapter_off_topic(self) -> bool:
        """The open chapter's boost was set aside: the question does not relate to the chapter, or this chunk is
        far from the question (:attr:`amicus_desktop.core.query.RankingPolicy.chapter_relation`, ``chapter_floor``)."""
        return self._chapter_flag("chapter_off_topic")

    def _chapter_flag(self, name: str) -> bool:
        f = self.factor("chapter")
        return f is not None and f.flag(name)

    def to_json(self) -> dict[str, Any]:
        """The contract's breakdown object: section 4's keys in their order, then section 6's, then the ranking
        policy's (its factors, then their flags) and the overlay's — each key once, as the factors carry it."""

        def part(p: FactorPart) -> dict[str, Any]:
            return {f.key: f.value for f in self.factors if f.part is p}

        out: dict[str, Any] = {"distance": self.distance, "similarity": self.similarity, **part(FactorPart.CONTRACT),
                               "final": self.final, "mode": self.mode.value, "base": self.base,
                               "lexical": self.lexical, **part(FactorPart.SEARCH), **part(FactorPart.POLICY)}
        for f in self.factors:
            out.update(f.flags)
        out.update(part(FactorPart.OVERLAY))
        return out

"""What the weight search may change, and to which values: one :class:`Knob` per setting.

The boosts, the cap per scholar (or per source, under the spread), the fusion and its α, and the app
policy's spread factor and focus boost — each over a short grid of values a curator would try by hand,
always including the value the search starts from. A knob that cannot matter for the starting
configuration is left out (α under RRF fusion, the spread factor without the spread).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ...core.query import Fusion, FusionMethod, SearchMode
from ..run import EvalConfig


@dataclass(frozen=True)
class Knob:
    """One setting: its name (as ``eval --compare`` spells it), its values, how to read and set it."""

    name: str
    label: str
    values: tuple[Any, ...]
    get: Callable[[EvalConfig], Any]
    put: Callable[[EvalConfig, Any], EvalConfig]

    def choices(self, start: EvalConfig) -> tuple[Any, ...]:
        """The values to try from ``start``: the grid, with the starting value in it."""
        current = self.get(start)
        return self.values if current in self.values else (current, *self.values)

    def words(self, value: Any) -> str:
        if value is None:
            return "none" if self.name == "scholar-cap" else "off"
        if isinstance(value, float):
            return f"{value:g}"
        return str(value)


def _weights(field: str) -> tuple[Callable[[EvalConfig], Any], Callable[[EvalConfig, Any], EvalConfig]]:
    return (lambda c: getattr(c.weights, field),
            lambda c, v: replace(c, weights=replace(c.weights, **{field: v})))


def _policy(field: str) -> tuple[Callable[[EvalConfig], Any], Callable[[EvalConfig, Any], EvalConfig]]:
    return (lambda c: getattr(c.policy, field),
            lambda c, v: replace(c, policy=replace(c.policy, **{field: v})))


def _set_method(c: EvalConfig, v: str) -> EvalConfig:
    return replace(c, fusion=Fusion(FusionMethod(v), c.fusion.alpha, c.fusion.rrf_k))


def _set_alpha(c: EvalConfig, v: float) -> EvalConfig:
    return replace(c, fusion=Fusion(c.fusion.method, v, c.fusion.rrf_k))


KNOBS: tuple[Knob, ...] = (
    Knob("chapter-boost", "Chapter ×", (1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0), *_weights("chapter")),
    Knob("reference-boost", "Reference ×", (1.0, 1.1, 1.25, 1.5, 2.0), *_weights("reference")),
    Knob("scholar-boost", "Scholar ×", (1.0, 1.1, 1.25, 1.5), *_weights("scholar")),
    Knob("tradition-boost", "Tradition ×", (1.0, 1.05, 1.1, 1.25), *_weights("tradition")),
    Knob("scholar-cap", "Cap", (1, 2, 3, 4, 5, None), *_weights("per_scholar_cap")),
    Knob("fusion", "Fusion", ("convex", "rrf"), lambda c: c.fusion.method.value, _set_method),
    Knob("alpha", "Fusion α", (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9), lambda c: c.fusion.alpha, _set_alpha),
    Knob("spread", "Spread ×", (0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 1.0), *_policy("spread")),
    Knob("focus", "Focus ×", (None, 1.1, 1.2, 1.3, 1.5), *_policy("focus")),
)


def knobs_for(config: EvalConfig, modes: set[SearchMode]) -> tuple[Knob, ...]:
    """The knobs that can change a ranking of ``config`` whose questions are asked in ``modes``."""
    hybrid = SearchMode.HYBRID in modes
    out = []
    for knob in KNOBS:
        if knob.name in ("fusion", "alpha") and not hybrid:
            continue
        if knob.name == "spread" and config.policy.spread is None:
            continue
        out.append(knob)
    return tuple(out)


def differences(a: EvalConfig, b: EvalConfig) -> list[tuple[Knob, Any, Any]]:
    """Each knob whose value differs between ``a`` and ``b``: (knob, in a, in b)."""
    return [(k, k.get(a), k.get(b)) for k in KNOBS if k.get(a) != k.get(b)]

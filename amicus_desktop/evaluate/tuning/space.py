"""What the weight search may change, and to which values: one :class:`Knob` per setting.

The boosts, the cap per scholar (or per source, under the spread), the fusion and its α, and the app
policy's spread factor and focus boost — each over a short grid of values a curator would try by hand,
always including the value the search starts from: each knob of the table with a ``grid``
(:data:`amicus_desktop.knobs.KNOBS`), so a new knob joins the search by its row. A knob that
cannot matter for the starting configuration is left out (α under RRF fusion, the spread factor without
the spread).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...core.query import SearchMode
from ...knobs import KNOBS as TABLE
from ...knobs import Knob as Setting
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


def _knob(setting: Setting) -> Knob:
    """The search's knob for a setting of the table (its grid, its label, its path in an EvalConfig)."""
    return Knob(setting.key, setting.label, setting.grid, setting.read, setting.put)


#: the settings of the table with a grid, in its order
KNOBS: tuple[Knob, ...] = tuple(_knob(s) for s in TABLE if s.grid)


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

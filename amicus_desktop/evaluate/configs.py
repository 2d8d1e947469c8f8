"""A configuration as plain JSON and back, so a snapshot can be asked again on another day's library.

What :class:`~amicus_desktop.evaluate.run.EvalConfig` holds is written in the words of the knob table
(:data:`amicus_desktop.knobs.KNOBS`: the request model's knobs — mode, candidates, every weight, the cap, the
fusion, spread, focus, the workspace), the ranking policy's other rules, and the overlay's part (its role,
forbidden sources, vocabulary and preferred sources) — enough to rebuild the same configuration::

    {"knobs": {"mode": "hybrid", "candidates": 40, "chapter_boost": 1.5, …, "workspace": null},
     "policy": {"passage_first": true, "source_priors": true, …},
     "overlay": {"role_id": "pastor", "forbidden_scholars": ["…"], …, "preferred_scholars": ["…"]},
     "label": ""}

:func:`from_json` reads it back; a key it does not know is left alone (a snapshot from a later version
still replays with what this one understands), a value of the wrong type is a ``ValueError`` naming the key.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from ..core.governance import Governance
from ..core.query import Profile, RankingPolicy
from ..knobs import KNOBS, Kind, Knob, KnobValueError, preset_values
from .run import EvalConfig

_SCALARS = (bool, int, float, str, type(None))
#: the policy's fields that are knobs (``spread``, ``focus``): kept with the knobs, not with the policy's rules
POLICY_KNOBS = frozenset(k.target.removeprefix("policy.") for k in KNOBS
                         if k.target is not None and k.target.startswith("policy."))


def to_json(config: EvalConfig) -> dict[str, Any]:
    """``config`` as plain JSON (see the module's docstring)."""
    knobs = preset_values(config)
    policy = {f.name: getattr(config.policy, f.name) for f in dataclasses.fields(RankingPolicy)
              if f.name not in POLICY_KNOBS}
    out: dict[str, Any] = {"knobs": knobs, "policy": policy, "overlay": None, "label": config.label}
    g = config.governance
    if g is not None:
        out["overlay"] = {
            "role_id": g.role_id, "forbidden_scholars": sorted(g.forbidden_scholars),
            "forbidden_source_types": sorted(g.forbidden_source_types), "boost_terms": list(g.boost_terms),
            "suppress_terms": list(g.suppress_terms), "vocabulary_everywhere": g.vocabulary_everywhere,
            "preferred_scholars": sorted(config.preferred.preferred_scholars),
            "preferred_traditions": sorted(config.preferred.preferred_traditions)}
    return out


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{where}: expected a list of strings")
    return tuple(value)


def _fits(knob: Knob, value: Any) -> bool:
    """Whether ``value`` is of ``knob``'s kind (``None`` where the knob may be off: a cap, an optional number)."""
    if value is None:
        return knob.kind in (Kind.CAP, Kind.TEXT) or knob.default is None or (knob.target or "").startswith("policy.")
    if isinstance(value, bool):
        return False
    if knob.kind in (Kind.WHOLE, Kind.CAP):
        return isinstance(value, int)
    if knob.kind is Kind.NUMBER:
        return isinstance(value, (int, float)) and math.isfinite(value)
    if knob.kind is Kind.CHOICE:
        return value in knob.choices
    return isinstance(value, str)


def from_json(data: Any) -> EvalConfig:
    """The configuration :func:`to_json` wrote (``ValueError`` naming the key for a value that cannot be one)."""
    if not isinstance(data, dict):
        raise ValueError("the configuration is not an object")
    config = EvalConfig()
    knobs = data.get("knobs", {})
    if not isinstance(knobs, dict):
        raise ValueError("knobs: expected an object")
    for knob in KNOBS:
        if knob.name not in knobs or not knob.held(config):
            continue
        value = knobs[knob.name]
        if not _fits(knob, value):
            raise ValueError(f"knobs.{knob.name}: {value!r} is not a value of this setting")
        try:
            config = knob.put(config, value)
        except (KnobValueError, ValueError, TypeError):
            raise ValueError(f"knobs.{knob.name}: {value!r} is not a value of this setting") from None
    policy = data.get("policy", {})
    if not isinstance(policy, dict):
        raise ValueError("policy: expected an object")
    known = {f.name for f in dataclasses.fields(RankingPolicy)}
    rules = {k: v for k, v in policy.items() if k in known and k not in POLICY_KNOBS}
    if not all(isinstance(v, _SCALARS) for v in rules.values()):
        raise ValueError("policy: expected plain values")
    config = dataclasses.replace(config, policy=dataclasses.replace(config.policy, **rules))
    overlay = data.get("overlay")
    if overlay is not None:
        if not isinstance(overlay, dict) or not isinstance(overlay.get("role_id"), str):
            raise ValueError("overlay: expected an object with its role_id")
        governance = Governance(
            overlay["role_id"],
            frozenset(_strings(overlay.get("forbidden_scholars", []), "overlay.forbidden_scholars")),
            frozenset(_strings(overlay.get("forbidden_source_types", []), "overlay.forbidden_source_types")),
            _strings(overlay.get("boost_terms", []), "overlay.boost_terms"),
            _strings(overlay.get("suppress_terms", []), "overlay.suppress_terms"),
            bool(overlay.get("vocabulary_everywhere", False)))
        preferred = Profile.of(_strings(overlay.get("preferred_scholars", []), "overlay.preferred_scholars"),
                               _strings(overlay.get("preferred_traditions", []), "overlay.preferred_traditions"))
        config = dataclasses.replace(config, governance=governance, preferred=preferred)
    label = data.get("label", "")
    return dataclasses.replace(config, label=label if isinstance(label, str) else "")

"""An overlay as the program holds it: a frozen, already-checked copy of the file (CONTRACT section 12).

:class:`Overlay` is made from a value the schema accepted (:func:`.load.parse_overlay`); it says what each
part means to the pipeline:

* :meth:`Overlay.flag_defaults` — the retrieval policy and the preferred sources as the values of the
  knobs they stand for (each knob's ``overlay`` key in :data:`amicus_desktop.knobs.KNOBS`, and
  ``prefer_scholar``, ``prefer_tradition``): the preset mechanism's idea, so a knob given explicitly wins;
* :attr:`Overlay.governance` — forbidden sources and vocabulary, the two rules only an overlay has;
* :meth:`Overlay.to_json` — the file again (what the app exports), keys in the contract's order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..core.governance import Governance
from ..knobs import BY_OVERLAY, Kind


@dataclass(frozen=True)
class Overlay:
    """One role's overlay. Lists keep the file's order; absent parts are empty."""

    role_id: str
    mission: str | None = None
    anti_goals: tuple[str, ...] = ()
    boost_terms: tuple[str, ...] = ()
    suppress_terms: tuple[str, ...] = ()
    preferred_scholars: tuple[str, ...] = ()
    preferred_traditions: tuple[str, ...] = ()
    forbidden_scholars: tuple[str, ...] = ()
    forbidden_source_types: tuple[str, ...] = ()
    #: ``retrieval_policy`` as given (only the keys the file holds; ``weights`` a mapping of its own)
    retrieval_policy: Mapping[str, Any] = field(default_factory=dict)
    golden_set: str | None = None
    #: ``vocabulary.scope``: ``related`` (the default: under the app's ranking the boost words count only in the
    #: passages a question relates to) or ``every_question``
    vocabulary_scope: str = "related"

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Overlay:
        """The overlay of a value the schema accepted (:func:`.load.parse_overlay` checks it first)."""
        vocabulary = data.get("vocabulary", {})
        sources = data.get("source_policy", {})
        policy = dict(data.get("retrieval_policy", {}))
        if "weights" in policy:
            policy["weights"] = dict(policy["weights"])
        return cls(
            role_id=data["role_id"],
            mission=data.get("mission"),
            anti_goals=tuple(data.get("anti_goals", ())),
            boost_terms=tuple(vocabulary.get("boost", ())),
            suppress_terms=tuple(vocabulary.get("suppress", ())),
            preferred_scholars=tuple(sources.get("preferred_scholars", ())),
            preferred_traditions=tuple(sources.get("preferred_traditions", ())),
            forbidden_scholars=tuple(sources.get("forbidden_scholars", ())),
            forbidden_source_types=tuple(sources.get("forbidden_source_types", ())),
            retrieval_policy=policy,
            golden_set=data.get("eval_profile", {}).get("golden_set"),
            vocabulary_scope=vocabulary.get("scope", "related"),
        )

    def to_json(self) -> dict[str, Any]:
        """The overlay as a file holds it (empty parts left out); :func:`.load.parse_overlay` reads it back."""
        out: dict[str, Any] = {"role_id": self.role_id}
        if self.mission is not None:
            out["mission"] = self.mission
        if self.anti_goals:
            out["anti_goals"] = list(self.anti_goals)
        vocabulary: dict[str, Any] = {k: list(v) for k, v in (("boost", self.boost_terms),
                                                              ("suppress", self.suppress_terms)) if v}
        if self.vocabulary_scope != "related":
            vocabulary["scope"] = self.vocabulary_scope
        if vocabulary:
            out["vocabulary"] = vocabulary
        sources = {k: list(v) for k, v in (
            ("preferred_scholars", self.preferred_scholars), ("preferred_traditions", self.preferred_traditions),
            ("forbidden_scholars", self.forbidden_scholars), ("forbidden_source_types", self.forbidden_source_types),
        ) if v}
        if sources:
            out["source_policy"] = sources
        if self.retrieval_policy:
            out["retrieval_policy"] = {k: dict(v) if isinstance(v, Mapping) else v
                                       for k, v in self.retrieval_policy.items()}
        if self.golden_set is not None:
            out["eval_profile"] = {"golden_set": self.golden_set}
        return out

    def replace(self, **changes: Any) -> Overlay:
        return replace(self, **changes)

    @property
    def governance(self) -> Governance:
        """The rules only an overlay has: forbidden sources and vocabulary."""
        return Governance(self.role_id, frozenset(self.forbidden_scholars), frozenset(self.forbidden_source_types),
                          self.boost_terms, self.suppress_terms, self.vocabulary_scope == "every_question")

    @property
    def vocabulary_weight(self) -> float | None:
        """``retrieval_policy.weights.vocabulary`` when the file sets it."""
        weight = self.retrieval_policy.get("weights", {}).get("vocabulary")
        return float(weight) if weight is not None else None

    def flag_defaults(self) -> dict[str, Any]:
        """The knobs this overlay sets (by name, as ``query``'s flags' dests), with its values as they would
        be given: each ``retrieval_policy`` key is a knob's ``overlay`` in the table (``weights.chapter``)."""
        out: dict[str, Any] = {}
        for key, knob in BY_OVERLAY.items():
            section, _, name = key.rpartition(".")
            held = self.retrieval_policy.get(section, {}) if section else self.retrieval_policy
            if name in held:
                value = held[name]
                if knob.choices:
                    value = knob.aliases.get(value, value)
                elif knob.kind is Kind.NUMBER and value is not None:
                    value = float(value)
                out[knob.name] = value
        if self.preferred_scholars:
            out["prefer_scholar"] = list(self.preferred_scholars)
        if self.preferred_traditions:
            out["prefer_tradition"] = list(self.preferred_traditions)
        return out

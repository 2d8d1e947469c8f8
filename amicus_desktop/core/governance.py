"""What a role's overlay asks of a ranking, as plain data (CONTRACT section 12). No Qt, no I/O.

An overlay file (:mod:`amicus_desktop.overlays`) is read, checked against its JSON Schema and turned
into what the pipeline already understands: a profile, weights, a mode, limits — and this
:class:`Governance`, the two rules only an overlay has:

* **forbidden sources** — a candidate by a forbidden scholar, or of a forbidden source type, is never a
  result nor a pin: re-ranking rejects it with reason ``forbidden_source`` (:mod:`amicus_desktop.rerank.forbidden`);
* **vocabulary** — a chunk holding a boost term is multiplied by ``weights.vocabulary``, one holding a
  suppress term by its reciprocal (:mod:`amicus_desktop.rerank.vocabulary`); boost terms also join the
  keyword search's words (:func:`amicus_desktop.understand.query.plan`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class ForbiddenRule(enum.StrEnum):
    """Which rule of an overlay removed a candidate: the JSON pointer of the list that names it."""

    SCHOLAR = "/source_policy/forbidden_scholars"
    SOURCE_TYPE = "/source_policy/forbidden_source_types"


@dataclass(frozen=True)
class Governance:
    """One role's rules for a retrieval: who it is, what it must never cite, which words matter."""

    role_id: str
    forbidden_scholars: frozenset[str] = frozenset()
    forbidden_source_types: frozenset[str] = frozenset()
    #: terms (a word or a phrase) whose chunks count ``weights.vocabulary`` times more
    boost_terms: tuple[str, ...] = ()
    #: terms whose chunks count ``1 / weights.vocabulary`` as much (a suppress term wins over a boost term)
    suppress_terms: tuple[str, ...] = ()
    #: the overlay says its boost terms count in every question (``vocabulary.scope: every_question``); else,
    #: under the app's ranking, only in the passages the question relates to (:mod:`amicus_desktop.rerank.vocabulary`)
    vocabulary_everywhere: bool = False

    def forbids(self, scholar_id: str | None, source_type: str) -> ForbiddenRule | None:
        """The rule that forbids a chunk of this scholar and source type, or ``None``. The scholar's rule
        is named first when both apply."""
        if scholar_id is not None and scholar_id in self.forbidden_scholars:
            return ForbiddenRule.SCHOLAR
        if source_type in self.forbidden_source_types:
            return ForbiddenRule.SOURCE_TYPE
        return None

    @property
    def has_vocabulary(self) -> bool:
        return bool(self.boost_terms or self.suppress_terms)

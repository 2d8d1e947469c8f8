"""The ``base`` score each mode re-ranks from (CONTRACT section 6).

* ``semantic``: the cosine similarity (section 3, unchanged);
* ``keyword``: the normalised keyword score (see :mod:`amicus_desktop.candidates.lexical`);
* ``hybrid``: the two fused, by the method in :class:`~amicus_desktop.core.query.Fusion`:
  ``convex`` — ``alpha × similarity + (1 − alpha) × lexical`` (both are absolute scores in [0, 1] for
  cosine-similar texts, so the result can be compared with a floor); or ``rrf`` — reciprocal rank
  fusion over the pool, ``1/(k + rank by similarity) + 1/(k + rank by lexical)``, where a chunk
  without any of the question's words has no keyword rank. The choice and its constants are the
  relevance benchmark's (docs/RELEVANCE.md).

A hybrid question with no words to look for (only a reference, or only stop-words) has no keyword
score at all (``lexical`` is ``None``, not 0): its base is the similarity, as in ``semantic`` mode.
A question whose words no chunk holds does have one — 0 — and that is evidence of a poor match.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.query import Fusion, FusionMethod, SearchMode
from ..core.results import Candidate


def _ranks(values: dict[str, float]) -> dict[str, int]:
    """1-based ranks by value descending (ties by chunk id)."""
    order = sorted(values, key=lambda cid: (-values[cid], cid))
    return {cid: i for i, cid in enumerate(order, start=1)}


def base_scores(candidates: Sequence[Candidate], mode: SearchMode, fusion: Fusion) -> dict[str, float]:
    """``chunk_id → base`` for every candidate (pins included: they are scored like any other)."""
    if mode is SearchMode.SEMANTIC:
        return {c.chunk_id: _require(c.similarity, c) for c in candidates}
    if mode is SearchMode.KEYWORD:
        return {c.chunk_id: _require(c.lexical, c) for c in candidates}
    if fusion.method is FusionMethod.CONVEX:
        a = fusion.alpha
        return {
            c.chunk_id: _require(c.similarity, c)
            if c.lexical is None
            else a * _require(c.similarity, c) + (1 - a) * c.lexical
            for c in candidates
        }
    by_sim = _ranks({c.chunk_id: _require(c.similarity, c) for c in candidates})
    by_lex = _ranks({c.chunk_id: c.lexical for c in candidates if c.lexical is not None and c.lexical > 0})
    k = fusion.rrf_k
    return {
        c.chunk_id: 1 / (k + by_sim[c.chunk_id]) + (1 / (k + by_lex[c.chunk_id]) if c.chunk_id in by_lex else 0.0)
        for c in candidates
    }


def _require(value: float | None, candidate: Candidate) -> float:
    if value is None:
        raise ValueError(f"candidate {candidate.chunk_id!r} lacks the score this mode needs")
    return value

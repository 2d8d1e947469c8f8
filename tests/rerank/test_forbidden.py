"""An overlay's forbidden sources in re-ranking (``rerank/forbidden.py``, CONTRACT section 12): never a result
nor a pin, rejected with their rule, moving nothing — and without an overlay nothing changes."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from amicus_desktop.core.governance import ForbiddenRule, Governance
from amicus_desktop.core.query import BoostWeights, Fusion, FusionMethod, RetrievalContext, SearchMode
from amicus_desktop.core.results import Candidate, ChunkMetadata, Origin, RejectReason
from amicus_desktop.rerank import rerank

_ids = itertools.count()


def cand(distance: float, source_type: str = "section_panel", text: str = "text", *, lexical: float | None = None,
         pin: bool = False, **meta: Any) -> Candidate:
    cid = f"c{next(_ids):03d}"
    origins = frozenset({Origin.PIN}) if pin else frozenset({Origin.DENSE})
    return Candidate(0, cid, source_type, cid, text, ChunkMetadata(**meta), distance, lexical, origins)


ROLE = Governance("pastor", frozenset({"scofield"}), frozenset({"meta_faq"}), ("covenant", "new birth"),
                  ("dispensation",))


# -- forbidden sources -------------------------------------------------------------------------------
def test_forbidden_sources_are_rejected_with_their_rule_pins_too() -> None:
    ok = [cand(0.1 + i / 100, scholar_id="henry") for i in range(3)]
    by_scofield = cand(0.05, scholar_id="scofield")  # the nearest of all
    faq = cand(0.06, "meta_faq")
    pinned_faq = cand(0.5, "meta_faq", pin=True)
    pinned_ok = cand(0.5, pin=True, scholar_id="henry")
    ctx = RetrievalContext(query="q", governance=ROLE, weights=BoostWeights(per_scholar_cap=None))
    results, rejected = rerank([*ok, by_scofield, faq], ctx, [pinned_faq, pinned_ok])
    assert [r.chunk_id for r in results] == [pinned_ok.chunk_id, *(c.chunk_id for c in ok)]
    assert [r.rank for r in results] == [1, 2, 3, 4] and results[0].pinned
    forbidden = {r.chunk_id: r for r in rejected if r.reason is RejectReason.FORBIDDEN_SOURCE}
    assert set(forbidden) == {by_scofield.chunk_id, faq.chunk_id, pinned_faq.chunk_id}
    assert forbidden[by_scofield.chunk_id].rule is ForbiddenRule.SCHOLAR
    assert forbidden[faq.chunk_id].rule is ForbiddenRule.SOURCE_TYPE
    assert forbidden[faq.chunk_id].to_json()["rule"] == "/source_policy/forbidden_source_types"
    # scored, so "Why not X?" can show the whole breakdown
    assert all(r.breakdown is not None and r.score == r.breakdown.final for r in forbidden.values())
    # forbidden first in the rejected list, and nothing else about them
    assert [r.reason for r in rejected][:3] == [RejectReason.FORBIDDEN_SOURCE] * 3


def test_a_scholar_both_forbidden_by_name_and_by_type_names_the_scholar_rule() -> None:
    assert ROLE.forbids("scofield", "meta_faq") is ForbiddenRule.SCHOLAR
    assert ROLE.forbids(None, "meta_faq") is ForbiddenRule.SOURCE_TYPE
    assert ROLE.forbids(None, "section_panel") is None


def test_forbidden_candidates_do_not_move_the_others_under_rank_fusion() -> None:
    """Reciprocal rank fusion ranks over the pool: a forbidden chunk taken out first leaves the rest ranked as
    if it had never been found."""
    fusion = Fusion(FusionMethod.RRF)
    kept = [cand(0.1 * i, lexical=1 - 0.1 * i, scholar_id="henry") for i in range(1, 5)]
    forbidden = cand(0.01, lexical=0.99, scholar_id="scofield")
    ctx = RetrievalContext(query="q", mode=SearchMode.HYBRID, fusion=fusion, weights=BoostWeights(per_scholar_cap=None))
    alone, _ = rerank(kept, ctx.replace(governance=Governance("x")))
    with_it, _ = rerank([*kept, forbidden], ctx.replace(governance=ROLE))
    assert [(r.chunk_id, r.score) for r in alone] == [(r.chunk_id, r.score) for r in with_it]


@given(st.lists(st.tuples(st.floats(0, 1), st.sampled_from(["henry", "scofield", None]),
                          st.sampled_from(["section_panel", "meta_faq"]), st.sampled_from(["", "covenant"])),
                min_size=1, max_size=25),
       st.integers(1, 12))
def test_nothing_forbidden_is_ever_a_result_and_every_candidate_is_accounted_for(
        rows: list[tuple[float, str | None, str, str]], k: int) -> None:
    pool = [cand(d, t, text, scholar_id=s) for d, s, t, text in rows]
    results, rejected = rerank(pool, RetrievalContext(query="q", k=k, governance=ROLE))
    assert all(ROLE.forbids(r.metadata.scholar_id, r.source_type) is None for r in results)
    assert sorted(r.chunk_id for r in [*results, *rejected]) == sorted(c.chunk_id for c in pool)
    finals = [r.score for r in results]
    assert finals == sorted(finals, reverse=True)


@given(st.lists(st.tuples(st.floats(0, 1), st.sampled_from(["henry", "scofield", None])), min_size=1, max_size=20))
def test_without_an_overlay_the_ranking_is_the_contracts(rows: list[tuple[float, str | None]]) -> None:
    pool = [cand(d, scholar_id=s) for d, s in rows]
    results, rejected = rerank(pool, RetrievalContext(query="q"))
    assert all(not r.breakdown.governed and "vocabulary_boost" not in r.breakdown.to_json() for r in results)
    assert all(r.reason is not RejectReason.FORBIDDEN_SOURCE for r in rejected)

"""Each re-ranking step of CONTRACT section 3 on hand-made candidates."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from amicus_desktop.core.query import BoostWeights, Profile, RetrievalContext
from amicus_desktop.core.references import ChapterRef
from amicus_desktop.core.results import Candidate, ChunkMetadata, RejectReason, ScoredCandidate
from amicus_desktop.rerank import (
    apply_cutoff,
    apply_scholar_cap,
    apply_threshold,
    chapter_boost,
    order,
    rerank,
    scholar_boost,
    score,
    similarity,
    tradition_boost,
)

_ids = itertools.count()


def cand(distance: float, chunk_id: str | None = None, **meta: Any) -> Candidate:
    cid = chunk_id or f"chunk-{next(_ids):03d}"
    return Candidate(0, cid, "section_panel", cid, "text", ChunkMetadata(**meta), distance)


def ctx(**kw: Any) -> RetrievalContext:
    return RetrievalContext(query="q", **kw)


ROM9 = ChapterRef("romans", 9)


def test_similarity_is_one_minus_distance() -> None:
    assert similarity(0.35) == 1.0 - 0.35
    assert similarity(0.0) == 1.0
    assert similarity(2.0) == -1.0  # opposite vectors under cosine distance


@pytest.mark.parametrize(
    ("meta", "chapter", "expected"),
    [
        ({"book_id": "romans", "chapter_num": 9}, ROM9, 1.5),
        ({"book_id": "romans", "chapter_num": 8}, ROM9, 1.0),
        ({"book_id": "john", "chapter_num": 9}, ROM9, 1.0),
        ({"book_id": "romans", "chapter_num": None}, ROM9, 1.0),  # a whole-book chunk
        ({"book_id": None, "chapter_num": 9}, ROM9, 1.0),
        ({"book_id": "romans", "chapter_num": 9}, None, 1.0),  # no current chapter
    ],
)
def test_chapter_boost(meta: dict, chapter: ChapterRef | None, expected: float) -> None:
    assert chapter_boost(ChunkMetadata(**meta), chapter, 1.5) == expected


def test_boost_weights_are_parameters() -> None:
    meta = ChunkMetadata(scholar_id="s", tradition="t", book_id="romans", chapter_num=9)
    prof = Profile.of(["s"], ["t"])
    assert chapter_boost(meta, ROM9, 2.0) == 2.0
    assert scholar_boost(meta, prof, 1.3) == 1.3
    assert tradition_boost(meta, prof, 1.2) == 1.2
    b = score(cand(0.2, scholar_id="s", tradition="t", book_id="romans", chapter_num=9),
              ctx(profile=prof, chapter=ROM9, weights=BoostWeights(2.0, 1.3, 1.2)))
    assert b.final == 0.8 * 2.0 * 1.3 * 1.2


def test_scholar_and_tradition_boosts_read_null_as_absent() -> None:
    prof = Profile.of(["matthew-henry"], ["reformed"])
    assert scholar_boost(ChunkMetadata(scholar_id="matthew-henry"), prof, 1.1) == 1.1
    assert scholar_boost(ChunkMetadata(scholar_id="c-i-scofield"), prof, 1.1) == 1.0
    assert scholar_boost(ChunkMetadata(scholar_id=None), prof, 1.1) == 1.0
    # '' is the vec0 placeholder for absent; chunk_metadata would hold NULL. Even a profile that
    # somehow lists '' must not boost a chunk without a scholar.
    assert scholar_boost(ChunkMetadata(scholar_id=None), Profile.of([""]), 1.1) == 1.0
    assert tradition_boost(ChunkMetadata(tradition="reformed"), prof, 1.05) == 1.05
    assert tradition_boost(ChunkMetadata(tradition="baptist"), prof, 1.05) == 1.0
    assert tradition_boost(ChunkMetadata(tradition=None), prof, 1.05) == 1.0


def test_all_boosts_at_once_multiply_left_to_right() -> None:
    c = cand(0.35, scholar_id="s", tradition="t", book_id="romans", chapter_num=9)
    b = score(c, ctx(profile=Profile.of(["s"], ["t"]), chapter=ROM9))
    assert (b.chapter_boost, b.scholar_boost, b.tradition_boost) == (1.5, 1.1, 1.05)
    assert b.similarity == 1.0 - 0.35
    assert b.final == (1.0 - 0.35) * 1.5 * 1.1 * 1.05  # exactly, in this order
    assert b.distance == 0.35


def test_no_chapter_no_profile_final_is_similarity() -> None:
    c = cand(0.4, scholar_id="s", tradition="t", book_id="romans", chapter_num=9)
    b = score(c, ctx())
    assert b.final == b.similarity == 1.0 - 0.4
    assert (b.chapter_boost, b.scholar_boost, b.tradition_boost) == (1.0, 1.0, 1.0)


def _scored(c: Candidate, context: RetrievalContext | None = None) -> ScoredCandidate:
    return ScoredCandidate(c, score(c, context or ctx()))


def test_order_final_then_similarity_then_chunk_id() -> None:
    # b: boosted to a higher final than a; c and d tie on final, c has the higher similarity;
    # e and f are identical and fall to chunk_id.
    context = ctx(chapter=ROM9)
    a = cand(0.10, "a")  # final 0.9
    b = cand(0.30, "b", book_id="romans", chapter_num=9)  # 0.7 * 1.5 = 1.05
    f = cand(0.50, "f")
    e = cand(0.50, "e")
    items = [_scored(x, context) for x in (a, b, f, e)]
    assert [i.candidate.chunk_id for i in order(items)] == ["b", "a", "e", "f"]


def test_order_prefers_higher_similarity_when_final_ties_exactly() -> None:
    # Construct an exact tie on final with different similarity through the breakdown itself.
    from amicus_desktop.core.results import ScoreBreakdown
    from amicus_desktop.rerank.factors import contract_factors

    hi = ScoredCandidate(cand(0.2, "z-hi"), ScoreBreakdown(0.2, 0.8, contract_factors()))
    lo = ScoredCandidate(cand(0.4, "a-lo"), ScoreBreakdown(0.4, 0.6, contract_factors(chapter=0.8 / 0.6)))
    assert hi.breakdown.final == lo.breakdown.final == 0.8
    assert [i.candidate.chunk_id for i in order([lo, hi])] == ["z-hi", "a-lo"]


def test_order_does_not_round() -> None:
    a = cand(0.3000000001, "a")
    b = cand(0.3000000000, "b")
    assert [i.candidate.chunk_id for i in order([_scored(a), _scored(b)])] == ["b", "a"]


def test_scholar_cap_keeps_two_per_scholar_and_never_caps_null() -> None:
    items = [
        _scored(cand(0.10, "h1", scholar_id="henry")),
        _scored(cand(0.11, "n1")),
        _scored(cand(0.12, "h2", scholar_id="henry")),
        _scored(cand(0.13, "n2")),
        _scored(cand(0.14, "h3", scholar_id="henry")),
        _scored(cand(0.15, "n3")),
        _scored(cand(0.16, "s1", scholar_id="scofield")),
        _scored(cand(0.17, "h4", scholar_id="henry")),
    ]
    kept, rejected = apply_scholar_cap(items, 2)
    assert [i.candidate.chunk_id for i in kept] == ["h1", "n1", "h2", "n2", "n3", "s1"]
    assert [(r.chunk_id, r.reason, r.nth_by_scholar) for r in rejected] == [
        ("h3", RejectReason.SCHOLAR_CAP, 3),
        ("h4", RejectReason.SCHOLAR_CAP, 4),
    ]
    assert rejected[0].score == items[4].breakdown.final
    assert rejected[0].similarity == items[4].breakdown.similarity


def test_cutoff_ranks_and_rejects_the_rest() -> None:
    items = [_scored(cand(0.1 * i, f"c{i}")) for i in range(5)]
    results, rejected = apply_cutoff(items, 3)
    assert [(r.rank, r.chunk_id) for r in results] == [(1, "c0"), (2, "c1"), (3, "c2")]
    assert all(r.score == r.breakdown.final for r in results)
    assert [(r.chunk_id, r.reason) for r in rejected] == [
        ("c3", RejectReason.BELOW_CUTOFF),
        ("c4", RejectReason.BELOW_CUTOFF),
    ]


def test_threshold_rejects_before_boosts_with_similarity_as_score() -> None:
    low = cand(0.8, "low", book_id="romans", chapter_num=9)  # sim 0.2 (would be 0.3 boosted)
    ok = cand(0.5, "ok")
    kept, rejected = apply_threshold([low, ok], 0.25)
    assert [c.chunk_id for c in kept] == ["ok"]
    assert rejected[0].reason == RejectReason.BELOW_THRESHOLD
    assert rejected[0].score == rejected[0].similarity == 1.0 - 0.8
    assert rejected[0].breakdown is None
    kept, rejected = apply_threshold([low, ok], None)
    assert len(kept) == 2 and not rejected


def test_threshold_boundary_is_inclusive() -> None:
    c = cand(0.25, "edge")
    kept, rejected = apply_threshold([c], 1.0 - 0.25)
    assert kept == [c] and not rejected


def test_rerank_end_to_end_with_every_rule() -> None:
    context = ctx(
        profile=Profile.of(["henry"], ["reformed"]),
        chapter=ROM9,
        k=3,
        min_similarity=0.2,
    )
    cands = [
        cand(0.30, "h-rom9-a", scholar_id="henry", tradition="reformed", book_id="romans", chapter_num=9),
        cand(0.31, "h-rom9-b", scholar_id="henry", tradition="reformed", book_id="romans", chapter_num=9),
        cand(0.05, "h-other", scholar_id="henry", tradition="reformed", book_id="john", chapter_num=1),
        cand(0.10, "anon", book_id="romans", chapter_num=8),
        cand(0.20, "scof", scholar_id="scofield", tradition="dispensational"),
        cand(0.90, "far"),  # sim 0.1 < 0.2
    ]
    results, rejected = rerank(cands, context)
    # finals: h-rom9-a .7*1.5*1.1*1.05=1.21275, h-rom9-b .69*...=1.195..., h-other .95*1.1*1.05=1.097,
    # anon .9, scof .8 → henry capped at 2 (h-other is the 3rd henry), then k=3 cuts scof.
    assert [r.chunk_id for r in results] == ["h-rom9-a", "h-rom9-b", "anon"]
    assert [r.rank for r in results] == [1, 2, 3]
    assert [(r.chunk_id, r.reason.value) for r in rejected] == [
        ("far", "below_threshold"),
        ("h-other", "scholar_cap"),
        ("scof", "below_cutoff"),
    ]
    assert results[0].score == 0.7 * 1.5 * 1.1 * 1.05


def test_rerank_capped_chunk_past_cutoff_is_scholar_cap_not_cutoff() -> None:
    cands = [cand(0.1 + i / 100, f"h{i}", scholar_id="henry") for i in range(4)] + [cand(0.5, "x")]
    results, rejected = rerank(cands, ctx(k=1))
    assert [r.chunk_id for r in results] == ["h0"]
    reasons = {r.chunk_id: r.reason.value for r in rejected}
    assert reasons == {"h1": "below_cutoff", "h2": "scholar_cap", "h3": "scholar_cap", "x": "below_cutoff"}


def test_rerank_identical_vectors_fall_to_chunk_id() -> None:
    cands = [cand(0.25, cid) for cid in ("m", "b", "z", "a")]
    results, _ = rerank(cands, ctx(k=4))
    assert [r.chunk_id for r in results] == ["a", "b", "m", "z"]


def test_rerank_k_limits_and_empty_input() -> None:
    cands = [cand(i / 100, f"c{i:02d}") for i in range(60)]
    results, rejected = rerank(cands, ctx(k=50))
    assert len(results) == 50 and len(rejected) == 10
    results, rejected = rerank(cands, ctx(k=1))
    assert len(results) == 1 and len(rejected) == 59
    assert rerank([], ctx()) == ([], [])


def test_fewer_candidates_than_k_returns_them_all() -> None:
    results, rejected = rerank([cand(0.1, "only")], ctx(k=10))
    assert [r.chunk_id for r in results] == ["only"] and rejected == []

"""The bundle's warnings (CONTRACT section 7): honest about a weak match and about why a list is short."""

from __future__ import annotations

import itertools
from typing import Any

from amicus_desktop.bundle.floors import MatchFloor, floor_for
from amicus_desktop.bundle.warnings import chosen_by_reader, few_results, no_strong_match, ranking_warnings
from amicus_desktop.core.query import BoostWeights, Filters, RetrievalContext, SearchMode
from amicus_desktop.core.results import Candidate, ChunkMetadata, WarningCode
from amicus_desktop.rerank import rerank

_ids = itertools.count()


def cand(distance: float | None, lexical: float | None = None, source_type: str = "section_panel",
         **meta: Any) -> Candidate:
    cid = f"c{next(_ids):03d}"
    return Candidate(0, cid, source_type, cid, "text", ChunkMetadata(**meta), distance, lexical)


def test_one_shared_keyword_does_not_pass_for_a_match_in_hybrid() -> None:
    # "Noah's ark" against "the ark of the testimony": a strong keyword score, a weak meaning
    ctx = RetrievalContext(query="Noah's ark", mode=SearchMode.HYBRID)
    results, _ = rerank([cand(0.65, lexical=0.9)], ctx)
    assert results[0].breakdown.base >= 0.45  # 0.7 × 0.35 + 0.3 × 0.9: over the base floor alone
    floor = MatchFloor(base=0.40, meaning=0.42)
    w = no_strong_match(results, floor, {}, ctx.query)
    assert w is not None and "none is close in meaning" in w.message and "0.35" in w.message
    # a close meaning passes; and semantic mode has no meaning floor (its base is the similarity)
    results, _ = rerank([cand(0.45, lexical=0.9)], ctx)
    assert no_strong_match(results, floor, {}, ctx.query) is None
    assert floor_for("any-model", SearchMode.SEMANTIC).meaning is None  # type: ignore[union-attr]
    assert floor_for("any-model", SearchMode.HYBRID).meaning is not None  # type: ignore[union-attr]
    assert floor_for("any-model", SearchMode.KEYWORD) is None


def test_few_results_names_the_cap_when_the_cap_cut_the_list() -> None:
    ctx = RetrievalContext(query="q", k=5)
    results, rejected = rerank([cand(0.1 + i / 100, scholar_id="henry") for i in range(6)], ctx)
    w = few_results(results, rejected, ctx)
    assert w is not None and "per-scholar cap (at most 2 from each author) set aside 4 more" in w.message
    assert "filter" not in w.message


def test_few_results_names_the_threshold_the_filters_or_the_library() -> None:
    ctx = RetrievalContext(query="q", k=5, min_similarity=0.5)
    results, rejected = rerank([cand(0.2), cand(0.9), cand(0.95)], ctx)
    assert "minimum similarity" in few_results(results, rejected, ctx).message  # type: ignore[union-attr]
    ctx = RetrievalContext(query="q", k=5, filters=Filters.of(books=["romans"]))
    results, rejected = rerank([cand(0.2, book_id="romans")], ctx)
    assert "filters that are set" in few_results(results, rejected, ctx).message  # type: ignore[union-attr]
    ctx = RetrievalContext(query="q", k=5, weights=BoostWeights(per_scholar_cap=None))
    results, rejected = rerank([cand(0.2)], ctx)
    message = few_results(results, rejected, ctx).message  # type: ignore[union-attr]
    assert "no more chunks that match" in message and "filter" not in message


def test_one_kind_of_material_is_not_shown_when_the_reader_chose_it() -> None:
    ctx = RetrievalContext(query="q", filters=Filters.of(source_types=["lexicon_entry"]))
    results, rejected = rerank([cand(0.2, source_type="lexicon_entry"), cand(0.3, source_type="lexicon_entry")], ctx)
    warnings = ranking_warnings(results, rejected, ctx, None)
    single = [w for w in warnings if w.code is WarningCode.SINGLE_SOURCE_TYPE]
    assert single and chosen_by_reader(single[0], ctx)  # the bundle keeps it (the contract); the app hides it
    assert not chosen_by_reader(single[0], ctx.replace(filters=Filters()))

"""The step-by-step breakdown of "Why this rank" (``present/breakdown.py``)."""

from __future__ import annotations

import pytest


def test_every_kind_of_material_has_a_name_in_the_breakdown() -> None:
    from amicus_desktop.present.breakdown import MATERIAL_NAMES
    from amicus_desktop.rerank.prior import Material

    assert set(MATERIAL_NAMES) == set(Material)


def test_the_breakdown_writes_out_the_reference_boost_and_the_weights_in_force() -> None:
    from amicus_desktop.core.query import BoostWeights, RetrievalContext
    from amicus_desktop.core.references import ChapterRef
    from amicus_desktop.core.results import Candidate, ChunkMetadata, ScoreBreakdown
    from amicus_desktop.present import breakdown, describe
    from amicus_desktop.rerank.factors import contract_factors

    meta = ChunkMetadata(book_id="romans", chapter_num=8, verse_start=28, verse_end=28)
    cand = Candidate(1, "c1", "commentary", "s1", "text", meta, 0.4)
    final = 0.6 * 1.5 * 1.25
    b = ScoreBreakdown(0.4, 0.6, contract_factors(chapter=1.5, reference=1.25))
    ctx = RetrievalContext("Rom 8:28", chapter=ChapterRef("romans", 8),
                           weights=BoostWeights(reference=1.25, per_scholar_cap=None))
    steps = breakdown.breakdown_steps(b, cand, ctx)
    assert [s.label for s in steps][-2:] == ["×1.25 reference", "final"]
    assert steps[-2].value == pytest.approx(final) == steps[-1].value
    assert describe.weights_text(ctx.weights) == (
        "chapter ×1.5, scholar ×1.1, tradition ×1.05, reference ×1.25, no cap per scholar")

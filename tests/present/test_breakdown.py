"""The step-by-step breakdown of "Why this rank" (``present/breakdown.py``)."""

from __future__ import annotations


def test_every_kind_of_material_has_a_name_in_the_breakdown() -> None:
    from amicus_desktop.present.breakdown import MATERIAL_NAMES
    from amicus_desktop.rerank.prior import Material

    assert set(MATERIAL_NAMES) == set(Material)

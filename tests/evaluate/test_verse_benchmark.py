"""evaluate/verses.py: the verse benchmark's split, fusion and table (the engine's rows run in tests/verses/)."""

from __future__ import annotations

from pathlib import Path

from amicus_desktop.core.query import SearchMode
from amicus_desktop.evaluate import load
from amicus_desktop.evaluate.verses import KINDS, VerseReport, VerseRow, _rrf, format_verse_benchmark, held_out, kind

GOLDEN = Path(__file__).resolve().parents[2] / "resources" / "golden" / "verses.json"


def test_the_held_out_half_is_fixed_and_half_of_each_kind() -> None:
    golden = load(GOLDEN)
    test = held_out(golden)
    assert test == held_out(load(GOLDEN))
    for k in KINDS:
        ids = [q.id for q in golden.queries if kind(q) == k]
        assert len([i for i in ids if i in test]) == len(ids) - len(ids) // 2


def test_reciprocal_rank_fusion_adds_1_over_60_plus_rank() -> None:
    fused = _rrf(["a", "b", "c"], ["c", "d"])
    assert fused[0] == "c"  # 1/63 + 1/61 beats 1/61 alone
    assert fused[1:] == ["a", "b", "d"]  # a 1/61, then b and d tie at 1/62: first seen first


def test_the_table_divides_by_the_best_baseline_of_each_kind() -> None:
    golden = load(GOLDEN)
    reports = []
    for label, value in (("dense", 0.4), ("bm25", 0.2), ("rrf", 0.5), ("engine", 0.6)):
        r = VerseReport(VerseRow(label, SearchMode.HYBRID))
        for q in golden.queries:
            r.scores[q.id], r.ranked[q.id] = value, list(q.judgments)[:10]
        reports.append(r)
    table = format_verse_benchmark(golden, reports, "m", Path("x.db"), 1.0)
    engine = next(line for line in table.splitlines() if line.strip().startswith("engine"))
    assert engine.rstrip().endswith("1.20/1.20") and "100%" in engine

"""The trend of a golden set's runs (``ui/workbench/trend.py``): said in words for a screen reader, drawn as
lines with the newest values at the right, and a sentence while no run is kept."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QImage

from amicus_desktop.evaluate.history import Run
from amicus_desktop.ui.workbench.trend import TrendChart


def _run(at: str, ndcg: float) -> Run:
    return Run(at, "app", 12, "hybrid", "lib", "model", {"ndcg@10": ndcg, "mrr@10": ndcg + 0.1, "pool_recall": 0.9})


def _colours(chart: TrendChart) -> set[int]:
    image = chart.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    return {image.pixel(x, y) for x in range(0, image.width(), 3) for y in range(0, image.height(), 3)}


def test_the_runs_are_said_in_words_and_drawn(qapp: Any) -> None:
    chart = TrendChart()
    chart.resize(chart.sizeHint())
    assert chart.accessibleDescription() == ""
    chart.set_runs([])
    assert chart.accessibleDescription() == "No evaluation kept yet"
    empty = _colours(chart)
    chart.set_runs([_run("2026-12-01T10:00:00", 0.61), _run("2026-12-05T10:00:00", 0.65)])
    assert chart.accessibleDescription() == "2026-12-01 nDCG@10 0.610; 2026-12-05 nDCG@10 0.650"
    drawn = _colours(chart)
    assert len(drawn) > len(empty)  # lines, a legend and values beside the sentence's grey
    chart.deleteLater()

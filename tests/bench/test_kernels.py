"""The bench's kernel table on a real coded database: every way answers, numpy's top k is the yardstick (no
timing assertions)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from amicus_desktop.bench.kernels import BEFORE, LISTS, kernel_table, kernels_table
from amicus_desktop.store import ScriptureStore
from tests.support.coded import N, questions
from tests.support.coded import coded_db as coded_db  # the fixture
from tests.support.coded import vectors as vectors  # the fixture


def test_every_way_is_timed_against_numpy_in_the_same_run(coded_db: Path, vectors: np.ndarray) -> None:
    unit = (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32)
    with ScriptureStore(coded_db) as store:
        table = kernel_table(store, unit, np.arange(1, N + 1, dtype=np.int64), questions(8), 10)
    ways = table["ways"]
    assert table["numpy"]["n"] == 5 and table["numpy"]["p50"] > 0
    assert {label for label, _ in LISTS} | {BEFORE} <= set(ways)
    assert ways[BEFORE]["recall"] == ways[LISTS[0][0]]["recall"]  # the search as it was: the same answers
    assert {"index (512-bit pre-filter, then whole codes)", "numpy bitwise_count, packed uint64 rows",
            "sqlite-vec bit[] KNN"} <= set(ways)
    for name, way in ways.items():
        assert way["n"] == 5 and 0 < way["p50"] <= way["p95"], name
        assert way["vs_numpy_p95"] == way["p95"] / table["numpy"]["p95"]
        assert 0 <= way["recall_min"] <= way["recall"] <= 1, name
    # 2,000 of 3,000 codes: every coarse kernel keeps the same codes, so the same share of numpy's top 10
    coarse = {name: way["recall"] for name, way in ways.items() if way["group"] == "coarse"}
    assert len(set(coarse.values())) == 1 and min(coarse.values()) > 0.9
    text = kernels_table([{"label": "3k × 64", "kernels": table}])
    assert text.count("| coarse: ") == len(coarse) and "3k × 64" in text

"""The retrieval benchmark behind ``amicus-desktop bench`` (no Qt).

Builds synthetic scripture.db files (:mod:`.synth`), measures KNN, the one-book filtered KNN,
fetch and re-rank, end-to-end ``Retriever.retrieve`` through a loopback HTTP proxy (:mod:`.proxy`)
and numpy brute force over the same vectors, each configuration in its own child process
(:mod:`.worker`: :mod:`.search_stages` and :mod:`.end_to_end`), driven by :mod:`.runner`, and prints the
tables recorded in ``docs/PERFORMANCE.md`` (:mod:`.report`).
"""

from __future__ import annotations

from .report import BUDGETS, format_report
from .runner import BenchConfig, BenchError, run_benchmark

__all__ = ["BUDGETS", "BenchConfig", "BenchError", "format_report", "run_benchmark"]

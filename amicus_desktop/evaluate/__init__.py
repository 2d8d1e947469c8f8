"""Measuring a ranking: golden sets, metrics, evaluation runs and comparisons (no Qt).

Used by ``amicus-desktop eval``, the relevance benchmark and the curator workbench.
"""

from .compare import Difference, compare, paired_bootstrap
from .golden import GoldenError, GoldenQuery, GoldenSet, load, save
from .metrics import mrr, ndcg, recall
from .run import METRICS, EvalConfig, EvalReport, QueryScore, evaluate

__all__ = [
    "METRICS",
    "Difference",
    "EvalConfig",
    "EvalReport",
    "GoldenError",
    "GoldenQuery",
    "GoldenSet",
    "QueryScore",
    "compare",
    "evaluate",
    "load",
    "mrr",
    "ndcg",
    "paired_bootstrap",
    "recall",
    "save",
]

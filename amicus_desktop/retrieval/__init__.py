"""The retrieval pipeline: embed → KNN → re-rank, with timings (no Qt)."""

from .chapters import resolve_chapter
from .pipeline import Retriever, rerank_result, retrieve, validate_limits, validate_query

__all__ = ["Retriever", "rerank_result", "resolve_chapter", "retrieve", "validate_limits", "validate_query"]

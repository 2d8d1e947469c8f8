"""The retrieval pipeline: understand → embed → candidates → re-rank → bundle, with timings (no Qt)."""

from .pipeline import Retriever, rerank_result, retrieve, validate_limits, validate_query, validate_request

__all__ = ["Retriever", "rerank_result", "retrieve", "validate_limits", "validate_query", "validate_request"]

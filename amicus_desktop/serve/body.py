"""A retrieval as CONTRACT section 9's ``200`` body — for ``GET /retrieve`` and the MCP ``search_library``.

Everything in it comes from the :class:`~amicus_desktop.core.results.RetrievalResult` ``query --json``
prints: the same chunks, ranks, scores and breakdowns, renamed where section 9 names them differently
(``id``, ``meta``, ``snippet``). **Project extensions**, beside the contract's keys: each result's
``title`` and ``citation`` (:mod:`amicus_desktop.present`, with the library's own names), and the bundle's
``rejected``, ``query_trace``, ``diagnostics`` and ``provenance`` — the "why" of the answer, exactly as
``query --json`` has them.
"""

from __future__ import annotations

from typing import Any

from ..core.names import Names
from ..core.results import RetrievalResult, RetrievedChunk
from ..present import citation, snippet, title

#: CONTRACT section 9: a result's snippet is at most this many characters.
SNIPPET_CHARS = 300


def result_json(r: RetrievedChunk, names: Names) -> dict[str, Any]:
    c = r.candidate
    return {
        "id": c.chunk_id,
        "rank": r.rank,
        "score": r.score,
        "snippet": snippet(c, SNIPPET_CHARS),
        "source_type": c.source_type,
        "source_id": c.source_id,
        "meta": c.metadata.to_json(),
        "breakdown": r.breakdown.to_json(),
        "pinned": r.pinned,
        "title": title(c, names),
        "citation": citation(r, names),
    }


def retrieve_body(result: RetrievalResult, names: Names, *, k: int, trace_id: str) -> dict[str, Any]:
    """The ``200`` body of ``GET /retrieve`` for ``result`` (asked with ``k``)."""
    bundle = result.to_json()
    return {
        "query": result.query,
        "k": k,
        "mode": result.mode.value,
        "filters": {kind: values for kind, values in result.trace.filters.to_json().items() if values},
        "results": [result_json(r, names) for r in result.results],
        "warnings": bundle["warnings"],
        "model": bundle["model"],
        "timing_ms": bundle["timing_ms"],
        "trace_id": trace_id,
        "rejected": bundle["rejected"],
        "query_trace": bundle["query_trace"],
        "diagnostics": bundle["diagnostics"],
        "provenance": bundle["provenance"],
    }

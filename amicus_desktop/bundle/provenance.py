"""``provenance``: whose work the results are (CONTRACT section 12). Pure.

One entry per author among the results — pins included, since a pinned chunk is delivered like the
rest — with the library's display name and how many results are theirs, most first (ties: the author
of the better-ranked result first). Chunks without a scholar (the app's FAQ, unattributed notes) are
nobody's work and are not listed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..core.results import RetrievedChunk, SourceCount
from ..core.scholars import readable_id


def provenance(results: Sequence[RetrievedChunk], names: Mapping[str, str]) -> tuple[SourceCount, ...]:
    """The authors of ``results`` with their display names (``names``; else a readable form of the id)."""
    counts: dict[str, int] = {}
    for r in sorted(results, key=lambda r: r.rank):
        sid = r.candidate.metadata.scholar_id
        if sid:
            counts[sid] = counts.get(sid, 0) + 1
    first = {sid: i for i, sid in enumerate(counts)}
    ordered = sorted(counts, key=lambda sid: (-counts[sid], first[sid]))
    return tuple(SourceCount(sid, names.get(sid) or readable_id(sid) or sid, counts[sid]) for sid in ordered)

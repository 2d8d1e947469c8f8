"""The app's focus chapter: where the library's answer to a question asked with no chapter open centres.

A reader who asks "the raising of Lazarus" with no chapter open would be well served by the chapter boost
for John 11 — the boost that makes answers asked *with* a chapter open so much better (docs/RELEVANCE.md).
The focus chapter is that chapter, read from the evidence: the chapter whose commentary candidates score
best (its best commentary base score plus half its second best: a second good note counts, but two middling
ones do not outweigh one squarely on the question). Its chunks
get a modest boost (:attr:`RankingPolicy.focus`, well below the open chapter's), shown in the breakdown.
It applies only when no chapter is open, the question names no passage, and it is not about a word (a
word's lexicon entries belong to no chapter).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from ..core.references import ChapterRef
from ..core.results import Candidate
from .prior import Material, material

#: the weights of a chapter's best, second best … commentary scores in its evidence
EVIDENCE_WEIGHTS = (1.0, 0.5)
#: what counts as commentary here: the library's, and the reader's own notes (a note is commentary by the reader)
_EVIDENCE = frozenset({Material.COMMENTARY, Material.NOTE})


def chapter_evidence(candidates: Sequence[Candidate], bases: Mapping[str, float]) -> dict[ChapterRef, float]:
    """Each chapter's commentary evidence among ``candidates``: its best commentary base plus half its second."""
    evidence: defaultdict[ChapterRef, list[float]] = defaultdict(list)
    for c in candidates:
        meta = c.metadata
        if meta.book_id and meta.chapter_num is not None and material(c) in _EVIDENCE:
            evidence[ChapterRef(meta.book_id, meta.chapter_num)].append(bases[c.chunk_id])
    return {ref: sum(w * v for w, v in zip(EVIDENCE_WEIGHTS, sorted(values, reverse=True), strict=False))
            for ref, values in evidence.items()}


def focus_chapter(candidates: Sequence[Candidate], bases: Mapping[str, float]) -> ChapterRef | None:
    """The chapter with the most commentary evidence among ``candidates`` (ties: the first in Bible order
    of book id and chapter), or ``None`` when no commentary candidate names a chapter."""
    scored = chapter_evidence(candidates, bases)
    if not scored:
        return None
    return min(scored, key=lambda ref: (-scored[ref], ref.book_id, ref.chapter))


def chapter_relation(candidates: Sequence[Candidate], bases: Mapping[str, float], chapter: ChapterRef) -> float:
    """How much the question relates to ``chapter``: its commentary evidence as a share of the best chapter's
    (1.0: the library's answer centres there; 0.0: no commentary on it is among the candidates)."""
    scored = chapter_evidence(candidates, bases)
    best = max(scored.values(), default=0.0)
    return scored.get(chapter, 0.0) / best if best > 0 else 0.0

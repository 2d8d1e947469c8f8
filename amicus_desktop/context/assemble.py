"""Context assembly (CONTRACT section 8): the retrieved chunks as one prompt-ready block within a budget.

Rules, in the order they apply:

1. The ranked results (pins first, as ranked) are the material; the block holds the top ``n`` of them
   for the largest ``n`` whose whole rendered block — citation lines, separators and all — fits the
   budget. What does not fit is dropped whole from the bottom of the ranking, never cut mid-chunk.
2. When even the best result alone does not fit, it is cut at a word boundary to fit, and marked.
3. Chunks are grouped by source — the same scholar and book; chunks without a scholar by
   ``source_id`` — groups in the order of their best rank, and inside a group in Bible order (book,
   chapter, verse; chunks without a place last, by rank).
4. Every chunk opens with a citation line: its rank, what it is and whose, and where
   ("[1] Section note · Matthew Henry, Concise Commentary — Romans 9:6-13").
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..core.books import BY_ID
from ..core.query import DEFAULT_CONTEXT_BUDGET
from ..core.results import RetrievedChunk
from .tokens import TokenCounter

DEFAULT_BUDGET = DEFAULT_CONTEXT_BUDGET
CUT_MARK = " […cut to fit the budget]"


class Format(enum.StrEnum):
    TEXT = "text"
    MARKDOWN = "markdown"
    JSON = "json"


@dataclass(frozen=True)
class Context:
    """An assembled block: its text, the tokens it uses, and which ranked chunks it holds."""

    text: str
    budget: int
    used_tokens: int
    included: tuple[str, ...]
    dropped: tuple[str, ...]
    #: the chunk id cut to fit (only when a single chunk was larger than the budget)
    cut: str | None = None

    def to_json(self) -> dict[str, object]:
        return {"budget": self.budget, "used_tokens": self.used_tokens, "included": list(self.included),
                "dropped": list(self.dropped), "text": self.text}


Cite = Callable[[RetrievedChunk], str]


def group_key(r: RetrievedChunk) -> tuple[str, ...]:
    m = r.candidate.metadata
    if m.scholar_id is not None:
        return ("scholar", m.scholar_id, m.book_id or "")
    return ("source", r.candidate.source_id)


def bible_order(r: RetrievedChunk) -> tuple[int, int, int, int]:
    m = r.candidate.metadata
    book = BY_ID.get(m.book_id or "")
    if book is None and m.book_id is None:
        return (10_000, 0, 0, r.rank)
    ordinal = book.ordinal if book is not None else 9_999
    return (ordinal, m.chapter_num or 0, m.verse_start or 0, r.rank)


def arrange(chunks: Sequence[RetrievedChunk]) -> list[list[RetrievedChunk]]:
    """Groups in the order of their best rank; chunks in each group in Bible order."""
    groups: dict[tuple[str, ...], list[RetrievedChunk]] = {}
    for r in sorted(chunks, key=lambda r: r.rank):
        groups.setdefault(group_key(r), []).append(r)
    return [sorted(g, key=bible_order) for g in groups.values()]


def render(groups: Sequence[Sequence[RetrievedChunk]], cite: Cite, fmt: Format,
           texts: dict[str, str] | None = None) -> str:
    """The block for ``groups`` (``texts`` overrides a chunk's text, for the cut one)."""
    texts = texts or {}
    blocks = []
    for group in groups:
        parts = []
        for r in group:
            body = texts.get(r.chunk_id, r.candidate.text).strip()
            head = f"[{r.rank}] {cite(r)}"
            parts.append(f"**{head}**\n\n{body}" if fmt is Format.MARKDOWN else f"{head}\n{body}")
        blocks.append("\n\n".join(parts))
    return ("\n\n---\n\n" if fmt is Format.MARKDOWN else "\n\n----\n\n").join(blocks)


def assemble(
    results: Sequence[RetrievedChunk],
    *,
    budget: int,
    count: TokenCounter,
    cite: Cite,
    fmt: Format = Format.TEXT,
) -> Context:
    """The block for ``results`` within ``budget`` tokens (see the module's rules)."""
    if budget < 1:
        raise ValueError("the budget must be at least 1 token")
    ranked = sorted(results, key=lambda r: r.rank)
    ids = [r.chunk_id for r in ranked]
    shape = Format.TEXT if fmt is Format.JSON else fmt

    def tokens_for(n: int) -> tuple[str, int]:
        text = render(arrange(ranked[:n]), cite, shape)
        return text, count(text)

    # The largest n whose block fits: the count grows with n, so a binary search finds it.
    lo, hi = 0, len(ranked)
    best_text, best_used = "", 0
    while lo < hi:
        mid = (lo + hi + 1) // 2
        text, used = tokens_for(mid)
        if used <= budget:
            lo, best_text, best_used = mid, text, used
        else:
            hi = mid - 1
    if lo == 0 and ranked:
        return _cut_first(ranked, budget=budget, count=count, cite=cite, fmt=shape)
    return Context(best_text, budget, best_used, tuple(ids[:lo]), tuple(ids[lo:]))


def _cut_first(ranked: Sequence[RetrievedChunk], *, budget: int, count: TokenCounter, cite: Cite,
               fmt: Format) -> Context:
    """The best chunk alone, cut at a word boundary (and marked) so that the block fits."""
    first = ranked[0]
    words = first.candidate.text.split()
    lo, hi = 0, len(words)
    best_text, best_used = "", 0
    while lo < hi:  # the most words that fit
        mid = (lo + hi + 1) // 2
        text = render([[first]], cite, fmt, {first.chunk_id: " ".join(words[:mid]) + CUT_MARK})
        used = count(text)
        if used <= budget:
            lo, best_text, best_used = mid, text, used
        else:
            hi = mid - 1
    dropped = tuple(r.chunk_id for r in ranked[1:])
    if lo == 0:  # not even the citation line fits: nothing can be included
        return Context("", budget, 0, (), (first.chunk_id, *dropped))
    return Context(best_text, budget, best_used, (first.chunk_id,), dropped, cut=first.chunk_id)

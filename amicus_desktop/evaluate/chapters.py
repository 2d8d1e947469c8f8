"""The same golden questions asked with no chapter, the chapter they are about, and an unrelated chapter.

A reader always has a chapter open, and it is often not the one the question is about. So the benchmark asks
every golden question three more ways (issue 33), each chapter defined from the judgments alone, with no
retrieval system consulted:

* **none** — no chapter open;
* **about** — the chapter the question's judged-relevant material concentrates in: for each chapter of the
  library, the sum of ``2^grade − 1`` over the question's judged chunks that lie in it (grade ≥ 1; the gain
  nDCG counts), the highest wins, ties to the first in the library's order; a question with no judged-relevant
  chunk in any chapter is asked with none;
* **unrelated** — a chapter holding none of the question's judged-relevant chunks (no chunk graded ≥ 1 lies in
  it), picked among the library's commentary chapters by a hash of the question's id (SHA-256, so every run and
  every machine picks the same one).

Only the open chapter changes: the question, its profile and its judgments are the set's.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace

from ..core.references import ChapterRef
from ..store.library import LibraryStore
from .golden import GoldenQuery, GoldenSet

#: the three ways, in the order they are printed
VARIANTS = ("none", "about", "unrelated")
#: the source types whose chapters count as the library's chapters (where commentary is)
_COMMENTARY = ("section_panel", "chapter_panel")


def chunk_chapters(store: LibraryStore, chunk_ids: Sequence[str]) -> dict[str, ChapterRef]:
    """The chapter each of ``chunk_ids`` lies in (chunks with no book or chapter are left out)."""
    rowids = store.rowids_for(chunk_ids)
    out: dict[str, ChapterRef] = {}
    for row in store.fetch(rowids.values()).values():
        chunk_id, _kind, _source, _text, meta = row
        if meta.book_id and meta.chapter_num is not None:
            out[chunk_id] = ChapterRef(meta.book_id, meta.chapter_num)
    return out


def library_chapters(store: LibraryStore) -> list[ChapterRef]:
    """Every chapter some commentary lies in, in the library's order (books by their first chunk)."""
    return [ChapterRef(book, chapter) for book, chapter in store.chapters_of(_COMMENTARY)]


def gains(q: GoldenQuery, chapters: Mapping[str, ChapterRef]) -> dict[ChapterRef, float]:
    """Each chapter's judged gain for ``q``: the sum of ``2^grade − 1`` over its judged chunks there."""
    out: defaultdict[ChapterRef, float] = defaultdict(float)
    for chunk_id, grade in q.judgments.items():
        if grade >= 1 and (ref := chapters.get(chunk_id)) is not None:
            out[ref] += 2 ** grade - 1
    return dict(out)


def about_chapter(q: GoldenQuery, chapters: Mapping[str, ChapterRef],
                  library: Sequence[ChapterRef]) -> ChapterRef | None:
    """The chapter ``q``'s judged-relevant material concentrates in (``None``: none lies in a chapter)."""
    by_chapter = gains(q, chapters)
    if not by_chapter:
        return None
    order = {ref: i for i, ref in enumerate(library)}
    return min(by_chapter, key=lambda ref: (-by_chapter[ref], order.get(ref, len(order)), str(ref)))


def unrelated_chapter(q: GoldenQuery, chapters: Mapping[str, ChapterRef],
                      library: Sequence[ChapterRef]) -> ChapterRef | None:
    """A library chapter holding none of ``q``'s judged-relevant chunks, chosen by a hash of ``q.id``."""
    related = set(gains(q, chapters))
    choices = [ref for ref in library if ref not in related]
    if not choices:
        return None
    digest = int.from_bytes(hashlib.sha256(q.id.encode()).digest()[:8], "big")
    return choices[digest % len(choices)]


def variants(golden: GoldenSet, chapters: Mapping[str, ChapterRef],
             library: Sequence[ChapterRef]) -> dict[str, GoldenSet]:
    """``golden`` asked with no chapter, the chapter each question is about, and an unrelated chapter."""
    def asked(pick: ChapterRef | None) -> str | None:
        return None if pick is None else f"{pick.book_id}:{pick.chapter}"

    return {
        "none": replace(golden, queries=tuple(replace(q, chapter=None) for q in golden.queries)),
        "about": replace(golden, queries=tuple(replace(q, chapter=asked(about_chapter(q, chapters, library)))
                                               for q in golden.queries)),
        "unrelated": replace(golden, queries=tuple(
            replace(q, chapter=asked(unrelated_chapter(q, chapters, library))) for q in golden.queries)),
    }


def chapter_variants(store: LibraryStore, golden: GoldenSet) -> dict[str, GoldenSet]:
    """:func:`variants` with the chapters read from ``store``."""
    return variants(golden, chunk_chapters(store, sorted(golden.judged_ids())), library_chapters(store))

"""Step 4a: the current-chapter boost."""

from __future__ import annotations

from ..core.references import ChapterRef
from ..core.results import ChunkMetadata


def chapter_boost(meta: ChunkMetadata, current: ChapterRef | None, weight: float) -> float:
    """``weight`` when the chunk's ``book_id`` and ``chapter_num`` both equal the current chapter.

    Reads ``chunk_metadata`` values, where ``None`` means absent: a chunk without a book or a
    chapter is never boosted, and with no current chapter nothing is.
    """
    if current is None or meta.book_id is None or meta.chapter_num is None:
        return 1.0
    if meta.book_id == current.book_id and meta.chapter_num == current.chapter:
        return weight
    return 1.0

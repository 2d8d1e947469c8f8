"""Turning ``BOOK:CHAPTER`` as a person types it into the DB's :class:`ChapterRef`."""

from __future__ import annotations

import re
from collections.abc import Collection

from ..core.books import resolve_book
from ..core.types import ChapterRef

_CHAPTER = re.compile(r"^\s*(?P<book>.*?\S)\s*[:\s.]\s*(?P<chapter>\d+)\s*$")


def resolve_chapter(text: str, book_ids: Collection[str]) -> ChapterRef:
    """``"rom:9"``, ``"Romans 9"`` or ``"1cor:13"`` → a chapter of one of ``book_ids``.

    BOOK matches a ``book_id`` of the DB case-insensitively first, then a common name or
    abbreviation. A book the DB does not know is kept as typed (lower-cased): it is not an error,
    it simply boosts nothing. Raises ``ValueError`` when ``text`` is not ``BOOK:CHAPTER``.
    """
    m = _CHAPTER.match(text or "")
    if not m or int(m.group("chapter")) < 1:
        raise ValueError(f"expected BOOK:CHAPTER such as romans:9, got {text!r}")
    raw = m.group("book")
    lowered = {b.lower(): b for b in book_ids}
    book = lowered.get(raw.lower()) or resolve_book(raw, frozenset(book_ids)) or raw.lower()
    return ChapterRef(book, int(m.group("chapter")))

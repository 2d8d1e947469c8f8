"""What verse search (CONTRACT section 14) and the pipeline's verse-aware steps ask of a library's verses.

:class:`VerseReader` is the typed seam: :class:`~.verses.VerseIndex` answers it from scripture.db's verse tables
(:mod:`.verse_tables`), :class:`~.pg.verses.PgVerseIndex` from the same tables exported into PostgreSQL. Code
outside ``store/`` (``verses/``, ``candidates/quoted.py``, the service's ``/passage``) names this protocol, never
an engine. Rowids are the verses' positions in canonical order (``verse_keys``), the same in both.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol

import numpy as np

from .verse_keys import RowidOf, VerseKeys
from .verses import Translation

__all__ = ["Translation", "VerseReader"]


class VerseReader(Protocol):
    """A library's verses: keys, translations, words, vectors and Strong's numbers (used on the store's thread)."""

    #: the translations held, by id (the default first)
    translations: dict[str, Translation]
    keys: VerseKeys
    rowid_of: RowidOf
    has_vectors: bool
    has_strongs: bool
    #: where each translation's word index lives (``database``, ``cache`` or ``memory``), once it was used
    fts_where: dict[str, str]

    @property
    def count(self) -> int:
        """How many verses there are (``len(keys) - 1``)."""
        ...

    @property
    def default(self) -> Translation | None: ...

    # -- vectors, notes, Strong's numbers (read once into verse search's memory) ---------------
    def vector_blocks(self, block: int, dtype: type = np.float32) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Every verse vector, ``block`` rows at a time: ``(rowids, matrix in dtype)``."""
        ...

    def notes(self, source_types: Sequence[str]) -> list[tuple[int, str, str, int, int, int]]:
        """The chunks of ``source_types`` tied to verses: ``(rowid, chunk_id, book_id, chapter, first, last)``."""
        ...

    def entries(self, source_types: Sequence[str]) -> list[tuple[int, str]]:
        """``(rowid, source_id)`` of the chunks of ``source_types``."""
        ...

    def strongs_pairs(self, numbers: dict[str, int]) -> tuple[np.ndarray, np.ndarray]:
        """Every ``(verse rowid, number index)`` pair as two int32 arrays (numbers not in ``numbers`` added)."""
        ...

    # -- words ------------------------------------------------------------------------------------
    def doc_count(self, translation: Translation, word: str) -> int:
        """How many verses of ``translation`` hold ``word``."""
        ...

    def keyword(self, translation: Translation, words: Sequence[str], n: int,
                books: Sequence[str] = ()) -> list[tuple[int, float]]:
        """The ``n`` verses best matching any of ``words``: ``(rowid, score in [0, 1])``, best first."""
        ...

    def keyword_scores(self, translation: Translation, words: Sequence[str], rowids: Iterable[int]) -> dict[int, float]:
        ...

    def phrase_scores(self, translation: Translation, pairs: Sequence[tuple[str, str]],
                      rowids: Iterable[int] | None = None) -> dict[int, float]:
        ...

    # -- text ---------------------------------------------------------------------------------------
    def texts(self, translation: Translation, rowids: Iterable[int]) -> dict[int, str]: ...

    def chapter(self, translation: Translation, book_id: str, chapter: int) -> list[tuple[int, str]]:
        """``(verse_num, text)`` of one chapter in ``translation``, in order."""
        ...

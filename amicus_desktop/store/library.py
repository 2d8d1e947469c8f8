"""What the app asks of a library, whatever holds it: the seam a second backend implements.

:class:`LibraryStore` is every typed question the retrieval pipeline, the reader, the service and the tools
ask a library: what it holds (:attr:`~LibraryStore.info`), its meaning search (a
:class:`~amicus_desktop.core.vectors.VectorIndex`, :meth:`~LibraryStore.vector_index`), its keyword index
(:class:`FullText`), the chunks by rowid and id, the rows a filter allows and those covering a passage,
and its catalogue (books, chapters, scholars, facets). :class:`~.scripture.ScriptureStore` (scripture.db
through apsw and sqlite-vec) is one implementation, :class:`~.pg.library.PgLibrary` (a library exported into
PostgreSQL) the other; :func:`open_library` opens one from where it is.

Code outside ``store/`` names :class:`LibraryStore`, not the store, so a library on another engine is a new
module implementing these methods plus a line in :func:`open_library` — not an edit of every consumer.
Verse search reads a :class:`~.verse_reader.VerseReader` (``store/verses.py`` on SQLite, ``store/pg/verses.py``
on PostgreSQL); the study aids still read scripture.db's own tables (``store/study.py``, ``store/word_strongs.py``)
and name the SQLite store; see "How to add a vector
backend" in docs/SEARCH.md. Implementations are used on one thread (the retriever's database thread)
and raise only :class:`~amicus_desktop.core.errors.AmicusError` with the contract's codes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from ..core.bundle import Coverage
from ..core.names import Names
from ..core.query import Filters
from ..core.references import PassageRef
from ..core.results import Candidate
from ..core.scholars import Scholar
from ..core.vectors import VectorIndex
from .catalogue import BookRow
from .validate import StoreInfo
from .values import ChunkRow
from .verse_reader import VerseReader

__all__ = ["FullText", "LibraryStore", "library_location", "open_library"]


class FullText(Protocol):
    """A library's keyword index: FTS5's ``bm25()`` (negative, lower is better) and its statistics."""

    @property
    def where(self) -> str:
        """``database``, ``cache`` or ``memory`` (shown by ``doctor`` and the diagnostics)."""
        ...

    @property
    def total(self) -> int: ...

    def search(self, words: Sequence[str], n: int, filters: Filters = Filters()) -> list[tuple[int, float]]: ...

    def bm25_of(self, words: Sequence[str], rowids: Iterable[int]) -> list[tuple[int, float]]: ...

    def doc_count(self, word: str) -> int: ...

    def stem(self, word: str) -> str: ...

    def terms(self, first: str, shortest: int, longest: int) -> dict[str, int]: ...

    def written_form(self, term: str) -> str | None: ...


class LibraryStore(Protocol):
    """An open, validated library (see the module docstring); closed with :meth:`close` or ``with``."""

    path: Path
    info: StoreInfo

    # -- meaning and words --------------------------------------------------------------------
    def query_vector(self, vector: np.ndarray) -> np.ndarray:
        """``vector`` as the float32 array the library compares, or ``DIMENSION_MISMATCH``."""
        ...

    def vector_index(self, mode: str | None = None) -> VectorIndex:
        """The library's meaning search (``mode``: how, where a backend has several ways)."""
        ...

    def vectors(self, rowids: Iterable[int]) -> dict[int, np.ndarray]:
        """The stored vector of each of ``rowids`` that has one."""
        ...

    @property
    def full_text(self) -> FullText: ...

    def keyword_index_problem(self) -> str | None: ...

    def vector_bytes(self) -> int | None: ...

    def verse_index(self) -> VerseReader:
        """Verse search's view of the library (:class:`~.verse_reader.VerseReader`)."""
        ...

    # -- chunks --------------------------------------------------------------------------------
    def fetch(self, rowids: Iterable[int]) -> dict[int, ChunkRow]: ...

    def rowids_for(self, chunk_ids: Iterable[str]) -> dict[str, int]: ...

    def allowed_rowids(self, filters: Filters) -> list[int]: ...

    def covering(self, ref: PassageRef, filters: Filters = Filters()) -> list[int]: ...

    def covers_any(self, ref: PassageRef) -> bool: ...

    def chapter_chunks(self, book_id: str, chapter: int, source_types: Sequence[str],
                       limit: int = 1000) -> list[Candidate]: ...

    # -- the catalogue ----------------------------------------------------------------------------
    def books(self) -> list[BookRow]: ...

    def chapter(self, book_id: str, chapter: int) -> list[tuple[int, str]]: ...

    def book_ids(self) -> set[str]: ...

    def coverage(self) -> Coverage: ...

    def forget_coverage(self) -> None:
        """Read the coverage (and scholars) again on next use: a build added a book since."""
        ...

    def chapters_of(self, source_types: Sequence[str]) -> list[tuple[str, int]]: ...

    def facets(self) -> dict[str, list[tuple[str, int]]]: ...

    def scholars(self) -> dict[str, Scholar]: ...

    def scholar_table(self) -> dict[str, Scholar]: ...

    def names(self) -> Names: ...

    def source_type_counts(self) -> dict[str, int]: ...

    def replaced(self) -> bool:
        """Whether the library was replaced since this store opened it, as far as the store can tell (a file's
        replacement its reader sees by the file's identity; a database's, the store itself: :mod:`.pg`)."""
        ...

    def close(self) -> None: ...

    def __enter__(self) -> LibraryStore: ...

    def __exit__(self, *exc: object) -> None: ...


def open_library(location: str | Path) -> LibraryStore:
    """The library at ``location`` — a scripture.db path, or a ``postgresql://`` URL of a library exported
    there (:mod:`.pg`) — opened read-only and validated."""
    from .pg import is_postgres_url

    if is_postgres_url(location):
        from .pg.library import PgLibrary

        assert isinstance(location, str)
        return PgLibrary(location)
    from .scripture import ScriptureStore  # the implementation stands on this module's names

    return ScriptureStore(location)


def library_location(location: str | Path) -> str | Path:
    """``location`` as :func:`open_library` takes it: a ``postgresql://`` URL kept as text (a ``Path`` would
    fold its ``//``), anything else a ``Path``."""
    from .pg import is_postgres_url

    return location if is_postgres_url(location) else Path(location)

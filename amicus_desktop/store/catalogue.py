"""The reader's and the profile editor's questions of a store: books, chapters, scholars, traditions.

A mix-in of :class:`~.scripture.ScriptureStore` (which owns the connection and :meth:`rows`): what
the reading pane, the filter bar and ``doctor`` list, every value typed by :mod:`.values`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core.books import BOOKS
from ..core.bundle import Coverage
from ..core.names import Names
from ..core.scholars import Scholar
from ..core.scholars import resolve as resolve_scholar
from . import conditions, values
from .chunk_counts import ChunkCounts
from .schema import BUILD_STATE, GROWING, SCHOLAR_COLUMNS
from .validate import StoreInfo


@dataclass(frozen=True)
class BookRow:
    book_id: str
    name: str
    ordinal: int
    chapters: int


class Catalogue:
    """Books, chapters, scholars and traditions of an open scripture.db."""

    path: Path
    info: StoreInfo
    _scholars: dict[str, Scholar] | None
    _coverage: Coverage | None
    _counts: ChunkCounts | None = None

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError  # the store's

    def _whole(self, sql: str) -> list[tuple[Any, ...]]:
        """The rows of one of :func:`whole_statements` (from the cache while the library is unchanged)."""
        return self._counts.rows(sql) if self._counts is not None else self.rows(sql)

    def books(self) -> list[BookRow]:
        """Books for the reader, in canonical order (empty without the optional ``books`` table)."""
        if not self.info.has_books:
            return []
        p = self.path
        return [
            BookRow(values.text(p, b, "books.book_id"), values.text(p, n, "books.name"),
                    values.opt_int(p, o, "books.ordinal") or 0, values.opt_int(p, c, "books.chapters") or 0)
            for b, n, o, c in self.rows("SELECT book_id, name, ordinal, chapters FROM books ORDER BY ordinal")
        ]

    def chapter(self, book_id: str, chapter: int) -> list[tuple[int, str]]:
        """``(verse_num, text)`` of one chapter, in order (empty without ``verses``)."""
        if not self.info.has_verses:
            return []
        return [
            (int(v), str(t))
            for v, t in self.rows(
                "SELECT verse_num, text FROM verses WHERE book_id = ? AND chapter_num = ? ORDER BY verse_num",
                (book_id, int(chapter)),
            )
        ]

    def book_ids(self) -> set[str]:
        """Every ``book_id`` the chunks or the reader know (as text, whatever the database stored)."""
        p = self.path
        ids = {values.text(p, r[0], "chunk_metadata.book_id") for r in self._whole(CHUNK_BOOKS)}
        if self.info.has_books:
            ids |= {values.text(p, r[0], "books.book_id") for r in self.rows("SELECT book_id FROM books")}
        return ids

    def coverage(self) -> Coverage:
        """The books this library holds study material for (any chunk on the book), and whether a build is
        still adding books to it (``db_meta.build_state`` = ``growing``, written by ``build-db --resume``)."""
        if self._coverage is None:
            ids = {str(r[0]) for r in self._whole(CHUNK_BOOKS)}
            self._coverage = Coverage(tuple(b.book_id for b in BOOKS if b.book_id in ids), len(BOOKS),
                                      self.info.meta.get(BUILD_STATE) == GROWING)
        return self._coverage

    def forget_coverage(self) -> None:
        """Read the coverage (and the scholars) again on next use: a build added a book since (the growing
        library's readers see each book once it is committed; only what this store keeps in memory is old)."""
        self._coverage = None
        self._scholars = None
        if self._counts is not None:
            self._counts.forget()

    def chapters_of(self, source_types: Sequence[str]) -> list[tuple[str, int]]:
        """Every (book id, chapter) some chunk of ``source_types`` lies in, in the library's order: books by their
        first chunk, chapters by number."""
        loose = self.info.loose_columns
        book, chapter = conditions.column("m", "book_id", loose), conditions.column("m", "chapter_num", loose)
        kind = conditions.column("t", "source_type", loose)
        rows = self.rows(
            f"SELECT {book}, {chapter}, min(t.rowid) FROM chunk_metadata m JOIN chunk_text t ON t.rowid = m.rowid "
            f"WHERE {conditions.among(kind)} AND {book} IS NOT NULL AND {chapter} IS NOT NULL GROUP BY 1, 2",
            [conditions.json_list(source_types)],
        )
        first: dict[str, int] = {}
        for b, _c, rowid in rows:
            first[str(b)] = min(first.get(str(b), rowid), rowid)
        return sorted(((str(b), int(c)) for b, c, _ in rows), key=lambda bc: (first[bc[0]], bc[1]))

    def facets(self) -> dict[str, list[tuple[str, int]]]:
        """Scholars and traditions present, with chunk counts, for the profile editor."""
        out: dict[str, list[tuple[str, int]]] = {}
        for name in FACETS:
            counts: dict[str, int] = {}
            for v, n in self._whole(_facet_sql(name, self.info.loose_columns)):
                key = values.text(self.path, v, f"chunk_metadata.{name}")
                counts[key] = counts.get(key, 0) + int(n)
            out[name] = sorted(counts.items())
        return out

    def scholar_table(self) -> dict[str, Scholar]:
        """The rows of the database's own ``scholars`` table (empty without one). A row with an
        empty name is passed over; a tradition or work that is not text reads as absent."""
        own: dict[str, Scholar] = {}
        if self.info.has_scholars:
            have = {row[1] for row in self.rows("PRAGMA table_info(scholars)")}
            cols = ", ".join(c if c in have else "NULL" for c in SCHOLAR_COLUMNS)
            for sid, name, tradition, work in self.rows(f"SELECT {cols} FROM scholars"):
                if isinstance(sid, str) and sid and isinstance(name, str) and name.strip():
                    own[sid] = Scholar(
                        sid, name.strip(),
                        tradition if isinstance(tradition, str) and tradition else None,
                        work if isinstance(work, str) and work else None,
                    )
        return own

    def scholars(self) -> dict[str, Scholar]:
        """Every scholar the chunks name (and every one the ``scholars`` table lists), by id.

        Names come from the database's own ``scholars`` table when it has the id, else from the
        app's table of known scholars, else from the id itself (``c-i-scofield`` → "C. I.
        Scofield"), so a database with only the contract's minimal schema still shows names.
        """
        if self._scholars is None:
            own = self.scholar_table()
            ids = {values.text(self.path, r[0], "chunk_metadata.scholar_id") for r in self._whole(CHUNK_SCHOLARS)}
            self._scholars = {sid: resolve_scholar(sid, own) for sid in sorted(ids | set(own))}
        return dict(self._scholars)

    def names(self) -> Names:
        """How this database names its books and scholars (its own tables first, then the built-in ones)."""
        return Names({b.book_id: b.name for b in self.books()}, self.scholars())

    def source_type_counts(self) -> dict[str, int]:
        return {str(t): int(n) for t, n in self._whole(SOURCE_TYPES)}


FACETS = ("scholar_id", "tradition")
CHUNK_BOOKS = "SELECT DISTINCT book_id FROM chunk_metadata WHERE book_id IS NOT NULL"
CHUNK_SCHOLARS = "SELECT DISTINCT scholar_id FROM chunk_metadata WHERE scholar_id IS NOT NULL"
SOURCE_TYPES = "SELECT source_type, count(*) FROM chunk_text GROUP BY source_type"


def whole_statements(loose: Sequence[str]) -> tuple[str, ...]:
    """The statements over every chunk whose rows :mod:`.chunk_counts` keeps per library state."""
    return (*(_facet_sql(name, loose) for name in FACETS), CHUNK_BOOKS, CHUNK_SCHOLARS, SOURCE_TYPES)


def _facet_sql(name: str, loose: Sequence[str]) -> str:
    col = conditions.column("m", name, loose)
    return f"SELECT {col}, count(*) FROM chunk_metadata m WHERE m.{name} IS NOT NULL GROUP BY 1 ORDER BY 1"

"""How a library names things for people: its books, its scholars, and the places they make. No Qt, no I/O.

A database may carry its own names (the optional ``books`` and ``scholars`` tables); :class:`Names`
holds them and falls back, book by book, to the built-in canon and then to the id read as words
(:func:`~.books.book_words`), and scholar by scholar to :func:`~.scholars.resolve`. One
:class:`Names` is built per open library (``LibraryStore.names()``) and passed to whatever writes a
name: titles, citations, references, the breakdown's sentences. A widget that outlives a library takes
a :data:`NamesSource`, a callable that answers with the open library's names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from .books import book_words
from .references import ChapterRef, PassageRef, reference_text
from .results import ChunkMetadata
from .scholars import Scholar, resolve


@dataclass(frozen=True)
class Names:
    """How to name books and scholars: a database's own tables (``books`` names by id, the
    store's ``scholars()``), falling back to the built-in book table and known scholars."""

    books: Mapping[str, str] = field(default_factory=dict)
    scholars: Mapping[str, Scholar] = field(default_factory=dict)

    def book(self, book_id: str) -> str:
        """``"Romans"``, ``"Song of Solomon"``; an unknown id read as words."""
        return self.books.get(book_id) or book_words(book_id)

    def scholar(self, scholar_id: str) -> Scholar:
        return resolve(scholar_id, self.scholars)

    def chapter(self, ref: ChapterRef | None) -> str:
        """``"Romans 9"``; empty for no chapter."""
        return reference_text(self.book(ref.book_id), ref.chapter) if ref else ""

    def passage(self, ref: PassageRef) -> str:
        """``"Romans 9:11"``, ``"1 Corinthians 13"``: a passage a question names."""
        return ref.label(self.book(ref.book_id))

    def reference(self, meta: ChunkMetadata) -> str:
        """What a chunk is about: ``"Romans 9:1-5"``, ``"Romans 9"``, ``"Romans"``; empty without a book."""
        return meta.reference(self.book(meta.book_id)) if meta.book_id else ""


#: The built-in names, for when no library is open (or a caller has none to pass).
DEFAULT_NAMES = Names()

#: What a widget that outlives one library holds: it answers with the open library's :class:`Names`.
NamesSource = Callable[[], Names]

__all__ = ["DEFAULT_NAMES", "Names", "NamesSource"]

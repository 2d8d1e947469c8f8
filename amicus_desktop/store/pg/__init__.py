"""The library on PostgreSQL: the same :class:`~amicus_desktop.store.library.LibraryStore` over tables.

A library exported from scripture.db (``export-db LIBRARY --to postgresql://…``, :mod:`.export`) lives in
one schema of a PostgreSQL database with pgvector (:mod:`.schema`): the chunks, their metadata, the books,
verses and scholars, the vectors (pgvector ``vector``) and the keyword index as tables — each chunk's token
counts, each term's postings and document count, tokenized at export by the same FTS5 tokenizer the SQLite
library uses, so BM25 is computed in SQL exactly as FTS5's ``bm25()`` computes it (:mod:`.fulltext`).
:class:`~.library.PgLibrary` reads it (:func:`amicus_desktop.store.library.open_library` opens one for a
``postgresql://`` location); its meaning search is an exact scan with pgvector's cosine distance
(:mod:`.vectors`), every filter inside the statement. docs/DEPLOY.md says how it is deployed.

psycopg is imported only when a library on PostgreSQL is opened or written (the ``postgres`` extra).
"""

from __future__ import annotations

__all__ = ["is_postgres_url"]


def is_postgres_url(location: object) -> bool:
    """Whether ``location`` names a library on PostgreSQL (a ``postgresql://`` or ``postgres://`` URL)."""
    return isinstance(location, str) and location.startswith(("postgresql://", "postgres://"))

"""The full-text index over chunk text: one definition for the builder and for the reader.

``build-db`` writes it into scripture.db as ``chunk_fts`` (FTS5, external content over
``chunk_text.text``). A database without it, or with an index declared differently, gets the same
index built outside scripture.db by the keyword search (the app never writes to the database).

The tokenizer suits English study prose: ``porter`` stems ("justified" finds "justify"), and
``unicode61 remove_diacritics 2`` folds accents so "agape" finds "agápē". Stop-words are dropped
from the question at search time (FTS5 has no stop-word list of its own).
"""

from __future__ import annotations

FTS_TABLE = "chunk_fts"
FTS_TOKENIZE = "porter unicode61 remove_diacritics 2"


def create_sql(*, schema: str = "main", table: str = FTS_TABLE, external_content: bool = True) -> str:
    """``CREATE VIRTUAL TABLE`` for the index.

    With ``external_content`` the index reads text from ``chunk_text`` of the same schema (the
    builder's form); without it the index stores no text of its own (``content=''``), the form of
    an index built beside a database that has none.
    """
    content = "content='chunk_text', content_rowid='rowid'" if external_content else "content=''"
    return (
        f"CREATE VIRTUAL TABLE {schema}.{table} USING fts5("
        f"text, {content}, tokenize='{FTS_TOKENIZE}')"
    )

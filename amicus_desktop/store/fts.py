"""The full-text index over chunk text: its definition, and whether a database's own copy can be trusted.

``build-db`` writes it into scripture.db as ``chunk_fts`` (FTS5, external content over
``chunk_text.text``). A database without it — or with one declared differently, emptied, stale or
damaged — gets the same index built outside scripture.db (:mod:`.keyword`; the app never writes to
the database).

The tokenizer suits English study prose: ``porter`` stems ("justified" finds "justify"), and
``unicode61 remove_diacritics 2`` folds accents so "agape" finds "agápē". Stop-words are dropped
from the question at search time (FTS5 has no stop-word list of its own).

**Trusting the database's index** (:func:`database_index_problem`). An external-content index is
not updated when ``chunk_text`` changes without it, so it can answer for text that is no longer
there. Before it is used it must be declared exactly as here (read as FTS5 reads it: an option in a
comment does not count), index as many rows as ``chunk_text`` holds, with the same first and last
rowid, and for :data:`SAMPLES` rows spread over the table, count as many tokens as the row's text
has now and find the row by its longest word. That costs a few milliseconds (docs/RELIABILITY.md);
a change to a row outside the sample is caught when the row is found (:mod:`.keyword` checks every
hit's text before it is returned).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import apsw

from .declarations import fts5_declaration

FTS_TABLE = "chunk_fts"
FTS_TOKENIZE = "porter unicode61 remove_diacritics 2"
#: Rows of ``chunk_text`` whose index entries are checked before the database's index is trusted.
SAMPLES = 24
#: What :func:`database_index_problem` says of a database without the index (the contract's minimal schema).
NO_INDEX = "the database has no full-text index"
#: Options that change what an index holds or how it answers; the builder's index sets none.
_CHANGING_OPTIONS = frozenset({"columnsize", "detail", "contentless_delete", "locale", "tokendata"})


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


def recognised(sql: str) -> bool:
    """Whether a ``chunk_fts`` declaration is the builder's: the column ``text`` over ``chunk_text``
    by rowid, tokenized as :data:`FTS_TOKENIZE`, and no option that changes what it holds."""
    declared = fts5_declaration(sql)
    if declared is None:
        return False
    options = declared.options
    return (
        declared.columns == ("text",)
        and options.get("content") == "chunk_text"
        and options.get("content_rowid") == "rowid"
        and options.get("tokenize", "").split() == FTS_TOKENIZE.split()
        and not _CHANGING_OPTIONS & set(options)
    )


def tokenizer(con: apsw.Connection) -> apsw.FTS5Tokenizer:
    """The index's tokenizer, as :data:`FTS_TOKENIZE` declares it, on ``con``."""
    name, *args = FTS_TOKENIZE.split()
    return con.fts5_tokenizer(name, args)


def document_tokens(tokenize: apsw.FTS5Tokenizer, text: str) -> list[str]:
    """The tokens FTS5 indexes for ``text``, in order (colocated tokens aside)."""
    found = tokenize(text.encode("utf-8"), apsw.FTS5_TOKENIZE_DOCUMENT, None,
                     include_offsets=False, include_colocated=False)
    return [t for t in found if isinstance(t, str)]


def token_spans(tokenize: apsw.FTS5Tokenizer, raw: bytes) -> list[tuple[int, int, str]]:
    """``(start, end, token)`` of each token FTS5 indexes for the UTF-8 text ``raw`` (colocated aside)."""
    spans: list[tuple[int, int, str]] = []
    for item in tokenize(raw, apsw.FTS5_TOKENIZE_DOCUMENT, None, include_colocated=False):
        match item:
            case (int(start), int(end), str(token)):
                spans.append((start, end, token))
    return spans


def match_expression(words: Sequence[str]) -> str:
    """An FTS5 query matching a chunk that holds any of ``words``, each read as plain text."""
    return " OR ".join('"' + w.replace('"', '""') + '"' for w in words)


def database_index_problem(rows: Callable[[str, Sequence[object]], list[tuple[object, ...]]],
                           tokenize: apsw.FTS5Tokenizer) -> str | None:
    """Why the database's own ``chunk_fts`` cannot be trusted (a sentence), or ``None``.

    ``rows(sql, params)`` reads the database (the store's connection); see the module docstring.
    """
    declared = rows("SELECT sql FROM sqlite_master WHERE name = ? AND type = 'table'", [FTS_TABLE])
    if not declared:
        return NO_INDEX
    if not recognised(str(declared[0][0] or "")):
        return f"its {FTS_TABLE} is declared differently from the app's index"
    ((indexed, first, last),) = rows(f"SELECT count(*), min(id), max(id) FROM {FTS_TABLE}_docsize", [])
    ((chunks, low, high),) = rows("SELECT count(*), min(rowid), max(rowid) FROM chunk_text", [])
    if (indexed, first, last) != (chunks, low, high):
        return f"its {FTS_TABLE} indexes {indexed:,} chunks where chunk_text holds {chunks:,}"
    if not chunks:
        return None
    assert isinstance(low, int) and isinstance(high, int)
    for target in sorted({low + (high - low) * i // max(1, SAMPLES - 1) for i in range(SAMPLES)}):
        found = rows(
            f"SELECT t.rowid, t.text, d.sz FROM chunk_text t LEFT JOIN {FTS_TABLE}_docsize d ON d.id = t.rowid "
            "WHERE t.rowid >= ? ORDER BY t.rowid LIMIT 1", [target])
        if not found:
            continue
        rowid, text, size = found[0]
        raw = text.encode("utf-8") if isinstance(text, str) else b""
        spans = token_spans(tokenize, raw)
        if not isinstance(size, bytes) or _varint(size) != len(spans):
            return f"its {FTS_TABLE} is out of date: row {rowid} has changed since it was indexed"
        if spans:  # the row's longest word, as the text writes it, must find the row
            start, end, _ = max(spans, key=lambda span: len(span[2]))
            word = raw[start:end].decode("utf-8", "replace")
            if not rows(f"SELECT 1 FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH ? AND rowid = ?",
                        [match_expression([word]), rowid]):
                return f"its {FTS_TABLE} is out of date: row {rowid} has changed since it was indexed"
    return None


def _varint(data: bytes) -> int:
    """The first SQLite varint of ``data`` (FTS5 stores a row's token count as one per column)."""
    value = 0
    for i, byte in enumerate(data[:9]):
        if i == 8:
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if not byte & 0x80:
            break
    return value

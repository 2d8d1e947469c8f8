"""Verse search's tables copied into PostgreSQL by ``export-db`` (:mod:`.export`, in its transaction).

What the SQLite library's :class:`~amicus_desktop.store.verses.VerseIndex` reads is written as it reads it: the
verse keys (its rowids: canonical order, the same whether ``verse_keys`` is stored or numbered in memory), the
translations in its order, every translation's text by verse rowid, the verse vectors (when usable), the Strong's
pairs, and each translation's word index — its text tokenized by SQLite's own FTS5 tokenizer, as the library's
``verse_fts_<id>`` tokenizes it, with each term's positions so phrases match as FTS5's phrase queries do.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

import apsw
import numpy as np

from .. import fts
from ..scripture import ScriptureStore
from ..verse_tables import VERSE_STRONGS
from ..verses import VerseIndex

if TYPE_CHECKING:
    import psycopg

#: Verse vectors read at a time.
_BLOCK = 1024


def write_verses(store: ScriptureStore, con: psycopg.Connection[Any], schema: str,
                 copy: Callable[[psycopg.Connection[Any], str, Iterable[Iterable[object]]], int],
                 vector_text: Callable[[np.ndarray], str]) -> int:
    """(In the caller's transaction) the verse-search tables of ``store`` into ``schema``; the verses written."""
    if not store.info.has_verses:
        return 0
    index = VerseIndex(store)
    keys = index.keys
    copy(con, f"{schema}.verse_keys (rowid, book_id, chapter_num, verse_num)",
         ((r, *keys[r]) for r in range(1, len(keys)) if keys[r][0]))
    copy(con, f"{schema}.translations (translation_id, name, abbreviation, verse_table, is_default, position)",
         ((t.translation_id, t.name, t.abbreviation, t.verse_table, t.default, i)
          for i, t in enumerate(index.translations.values())))
    tokenize = fts.tokenizer(apsw.Connection(":memory:"))
    written = 0
    for t in index.translations.values():
        rows = [(index.rowid_of[(str(b), int(c), int(v))], str(text)) for b, c, v, text in
                store.rows(f"SELECT book_id, chapter_num, verse_num, text FROM {t.verse_table}")
                if (str(b), int(c), int(v)) in index.rowid_of]
        rows.sort()
        written += copy(con, f"{schema}.verse_texts (translation_id, rowid, text)",
                        ((t.translation_id, r, text) for r, text in rows))
        docs, postings, total = _word_index(tokenize, rows)
        copy(con, f"{schema}.verse_fts_docs (translation_id, rowid, tokens)",
             ((t.translation_id, r, n) for r, n in docs))
        copy(con, f"{schema}.verse_fts_postings (translation_id, term, rowid, positions)",
             ((t.translation_id, term, r, positions) for term, r, positions in postings))
        con.execute(f"INSERT INTO {schema}.verse_fts_stats (translation_id, rows, tokens) VALUES (%s, %s, %s)",
                    [t.translation_id, len(docs), total])
    if index.has_vectors:
        copy(con, f"{schema}.verse_embeddings (rowid, embedding)", _vectors(index, vector_text))
    if index.has_strongs:
        copy(con, f"{schema}.verse_strongs (strongs, verse_rowid)",
             store.rows(f"SELECT strongs, verse_rowid FROM {VERSE_STRONGS}"))
    con.execute(f"ANALYZE {schema}.verse_fts_postings; ANALYZE {schema}.verse_fts_docs; "
                f"ANALYZE {schema}.verse_texts; ANALYZE {schema}.verse_strongs")
    return written


def _word_index(tokenize: apsw.FTS5Tokenizer, rows: list[tuple[int, str]]
                ) -> tuple[list[tuple[int, int]], list[tuple[str, int, list[int]]], int]:
    """Each verse's token count, each (term, verse)'s positions, and the tokens in all."""
    docs: list[tuple[int, int]] = []
    postings: list[tuple[str, int, list[int]]] = []
    total = 0
    for rowid, text in rows:
        tokens = fts.document_tokens(tokenize, text)
        total += len(tokens)
        docs.append((rowid, len(tokens)))
        where: dict[str, list[int]] = defaultdict(list)
        for i, token in enumerate(tokens):
            where[token].append(i)
        postings += [(term, rowid, positions) for term, positions in where.items()]
    return docs, postings, total


def _vectors(index: VerseIndex, vector_text: Callable[[np.ndarray], str]) -> Iterator[tuple[int, str]]:
    for rowids, matrix in index.vector_blocks(_BLOCK):
        for r, v in zip(rowids, matrix, strict=True):
            yield int(r), vector_text(v)

"""The optional verse-search tables of scripture.db: their one definition, and writing them (``build-db``).

Verse search (CONTRACT section 14) reads these; a database without them still opens, and its
``verses`` table (section 1's shape, the default translation) is searched by words through an index
the app builds outside the database (:mod:`amicus_desktop.store.verses`).

* ``verse_keys(rowid, book_id, chapter_num, verse_num)`` — every verse of every translation, its
  ``rowid`` the verse's position in canonical order (book ordinal, chapter, verse), so a verse's
  neighbours are the rows beside it;
* ``translations(translation_id, name, abbreviation, verse_table, is_default, licence)`` — the
  default translation's text is ``verses``; any other's is ``verses_<translation_id>``, the same shape;
* ``verse_fts_<translation_id>`` — FTS5 over that translation's text, contentless, ``rowid`` =
  ``verse_keys.rowid``, the chunk index's tokenizer (:mod:`amicus_desktop.store.fts`);
* ``verse_embeddings`` — vec0 ``embedding float[D] distance_metric=cosine`` and a ``book_id``
  metadata column (a book filter runs inside the KNN), ``rowid`` = ``verse_keys.rowid``: the default
  translation's verses, each embedded alone with the chunks' model;
* ``verse_strongs(strongs, verse_rowid)`` — the Strong's numbers the default translation tags in each
  verse (function words left out), for the lexicon signal;
* ``word_strongs`` — which words of each verse carry which number (:mod:`.word_strongs`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import apsw
import numpy as np

from .fts import FTS_TOKENIZE
from .word_strongs import write_word_strongs

VERSE_KEYS = "verse_keys"
TRANSLATIONS = "translations"
VERSE_EMBEDDINGS = "verse_embeddings"
VERSE_STRONGS = "verse_strongs"
DEFAULT_VERSE_TABLE = "verses"


def verse_table(translation_id: str, default: bool) -> str:
    """The table holding a translation's text: ``verses`` for the default, ``verses_<id>`` otherwise."""
    return DEFAULT_VERSE_TABLE if default else f"verses_{translation_id}"


def fts_table(translation_id: str) -> str:
    return f"verse_fts_{translation_id}"


def fts_sql(translation_id: str, schema: str = "main") -> str:
    """``CREATE VIRTUAL TABLE`` of a translation's word index (contentless: the text lives in its table)."""
    return (f"CREATE VIRTUAL TABLE {schema}.{fts_table(translation_id)} USING fts5("
            f"text, content='', tokenize='{FTS_TOKENIZE}')")


class VerseTablesWriter:
    """Writes the verse-search tables into a database being built (the builder's open connection)."""

    def __init__(self, con: apsw.Connection, dims: int) -> None:
        self._con = con
        self._dims = int(dims)
        self._translations: list[str] = []
        con.execute(
            f"""CREATE TABLE {VERSE_KEYS} (rowid INTEGER PRIMARY KEY, book_id TEXT NOT NULL,
                 chapter_num INTEGER NOT NULL, verse_num INTEGER NOT NULL,
                 UNIQUE (book_id, chapter_num, verse_num))"""
        )
        con.execute(
            f"""CREATE TABLE {TRANSLATIONS} (translation_id TEXT PRIMARY KEY, name TEXT NOT NULL,
                 abbreviation TEXT NOT NULL, verse_table TEXT NOT NULL, is_default INTEGER NOT NULL,
                 licence TEXT)"""
        )
        con.execute(
            f"CREATE VIRTUAL TABLE {VERSE_EMBEDDINGS} USING vec0("
            f"embedding float[{self._dims}] distance_metric=cosine, book_id text)"
        )
        con.execute(
            f"""CREATE TABLE {VERSE_STRONGS} (strongs TEXT NOT NULL, verse_rowid INTEGER NOT NULL,
                 PRIMARY KEY (strongs, verse_rowid)) WITHOUT ROWID"""
        )

    def add_keys(self, keys: Iterable[tuple[int, str, int, int]]) -> None:
        """``(rowid, book_id, chapter_num, verse_num)``, rowids in canonical order."""
        self._con.executemany(f"INSERT INTO {VERSE_KEYS} VALUES (?, ?, ?, ?)", keys)

    def add_translation(self, translation_id: str, name: str, abbreviation: str, *, default: bool,
                        licence: str, rows: Sequence[tuple[int, str, int, int, str]]) -> None:
        """A translation and its verses ``(rowid, book_id, chapter_num, verse_num, text)``.

        The default translation's text is written by the builder into ``verses`` (section 1); any
        other gets a table of its own here. Either way its word index is filled here.
        """
        table = verse_table(translation_id, default)
        self._con.execute(f"INSERT INTO {TRANSLATIONS} VALUES (?, ?, ?, ?, ?, ?)",
                          (translation_id, name, abbreviation, table, int(default), licence))
        if not default:
            self._con.execute(
                f"""CREATE TABLE {table} (book_id TEXT NOT NULL, chapter_num INTEGER NOT NULL,
                     verse_num INTEGER NOT NULL, text TEXT NOT NULL,
                     PRIMARY KEY (book_id, chapter_num, verse_num)) WITHOUT ROWID"""
            )
            self._con.executemany(f"INSERT INTO {table} VALUES (?, ?, ?, ?)", (r[1:] for r in rows))
        self._con.execute(fts_sql(translation_id))
        self._con.executemany(f"INSERT INTO {fts_table(translation_id)}(rowid, text) VALUES (?, ?)",
                              ((r[0], r[4]) for r in rows))
        self._translations.append(translation_id)

    def add_vectors(self, rowids: Sequence[int], books: Sequence[str], vectors: np.ndarray) -> None:
        """The default translation's verse vectors, one row of ``vectors`` per rowid."""
        vecs = np.ascontiguousarray(vectors, dtype=np.float32)
        if vecs.shape != (len(rowids), self._dims):
            raise ValueError(f"vectors must be shaped ({len(rowids)}, {self._dims}), got {vecs.shape}")
        self._con.executemany(
            f"INSERT INTO {VERSE_EMBEDDINGS}(rowid, embedding, book_id) VALUES (?, ?, ?)",
            ((int(r), v.tobytes(), b) for r, b, v in zip(rowids, books, vecs, strict=True)),
        )

    def add_strongs(self, rows: Iterable[tuple[str, int]]) -> None:
        """``(strongs, verse_rowid)`` pairs (repeats ignored)."""
        self._con.executemany(f"INSERT OR IGNORE INTO {VERSE_STRONGS} VALUES (?, ?)", rows)

    def add_word_strongs(self, translation_id: str,
                         verses: Iterable[tuple[int, str, Sequence[tuple[str, Sequence[str]]]]]) -> None:
        """Which words of each verse carry which Strong's number (:mod:`.word_strongs`)."""
        write_word_strongs(self._con, translation_id, verses)

    def finish(self) -> None:
        """Indexes written last (faster than keeping them up to date while rows go in)."""
        self._con.execute(f"CREATE INDEX verse_strongs_by_verse ON {VERSE_STRONGS} (verse_rowid)")
        for table in map(fts_table, self._translations):
            self._con.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")

"""scripture.db's tables and columns (CONTRACT section 1): one home for the writer and the reader.

The writer (:mod:`.writer`) creates these tables; the reader (:mod:`.scripture`) checks them
(:mod:`.validate`) and selects from them. Table and column names, the statements that create them
and the column list a chunk is read with are written here once.
"""

from __future__ import annotations

SCHEMA_VERSION = "1"
#: The ``schema_version`` values this version of the app reads.
SUPPORTED_SCHEMA_VERSIONS = (SCHEMA_VERSION,)
REQUIRED_META_KEYS = ("schema_version", "embedding_model", "embedding_dims", "distance_metric")

#: The vec0 table and its vector column (CONTRACT section 1).
EMBEDDINGS = "embeddings"
VECTOR_COLUMN = "embedding"

#: ``chunk_text``: what a chunk says; ``chunk_metadata``: where it belongs (both keyed by rowid).
TEXT_COLUMNS = ("chunk_id", "source_type", "source_id", "text")
METADATA_COLUMNS = ("scholar_id", "tradition", "book_id", "chapter_num", "verse_start", "verse_end", "panel_type")
#: The ``chunk_metadata`` columns that hold whole numbers (the rest hold text).
INTEGER_METADATA = frozenset({"chapter_num", "verse_start", "verse_end"})
REQUIRED_COLUMNS: dict[str, tuple[str, ...]] = {
    "chunk_text": TEXT_COLUMNS,
    "chunk_metadata": METADATA_COLUMNS,
    "db_meta": ("key", "value"),
}
#: The optional ``scholars`` table (written by ``build-db``): who each ``scholar_id`` is.
SCHOLAR_COLUMNS = ("scholar_id", "name", "tradition", "work")
#: Optional vec0 metadata columns that let a filter run inside the KNN (the builder writes them).
VEC_FILTER_COLUMNS = ("source_type", "scholar_id", "tradition", "book_id", "chapter_num")

#: How a chunk is read, everywhere: ``rowid``, then :data:`TEXT_COLUMNS`, then :data:`METADATA_COLUMNS`
#: (a chunk without a ``chunk_metadata`` row reads as all NULL), from :data:`CHUNK_FROM`.
CHUNK_SELECT = "t.rowid, " + ", ".join(
    [f"t.{c}" for c in TEXT_COLUMNS] + [f"m.{c}" for c in METADATA_COLUMNS]
)
CHUNK_FROM = "chunk_text t LEFT JOIN chunk_metadata m ON m.rowid = t.rowid"

#: The chunks on one chapter without a scan: a question naming a passage, the commentary pane and a
#: book filter look rows up by book and chapter (a scan of ``chunk_metadata`` costs ~15 ms at 200k rows).
PASSAGE_INDEX = "chunk_metadata_passage"
PASSAGE_INDEX_SQL = f"CREATE INDEX {PASSAGE_INDEX} ON chunk_metadata (book_id, chapter_num)"


def embeddings_sql(dims: int, *, filter_columns: bool) -> str:
    """``CREATE VIRTUAL TABLE embeddings``: cosine vectors, and with ``filter_columns`` the metadata
    columns of :data:`VEC_FILTER_COLUMNS` (which cannot hold NULL: absent values are ``''`` / ``0``)."""
    meta = (
        ", source_type text, scholar_id text, tradition text, book_id text, chapter_num integer"
        if filter_columns else ""
    )
    return (
        f"CREATE VIRTUAL TABLE {EMBEDDINGS} USING vec0("
        f"{VECTOR_COLUMN} float[{int(dims)}] distance_metric=cosine{meta})"
    )


#: ``db_meta`` key of a library a build is still adding books to (``build-db --resume``): ``growing`` until the
#: last book is written, then the key goes. Every book already in the library is whole (one transaction each).
BUILD_STATE = "build_state"
GROWING = "growing"

#: The contract's tables, and the reader's optional ones (``books``, ``verses``, ``scholars``).
CREATE_CHUNK_TEXT = """CREATE TABLE chunk_text (
    rowid INTEGER PRIMARY KEY, chunk_id TEXT NOT NULL UNIQUE,
    source_type TEXT NOT NULL, source_id TEXT NOT NULL, text TEXT NOT NULL)"""
CREATE_CHUNK_METADATA = """CREATE TABLE chunk_metadata (
    rowid INTEGER PRIMARY KEY, scholar_id TEXT, tradition TEXT, book_id TEXT,
    chapter_num INTEGER, verse_start INTEGER, verse_end INTEGER, panel_type TEXT)"""
CREATE_DB_META = "CREATE TABLE db_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
CREATE_BOOKS = """CREATE TABLE books (book_id TEXT PRIMARY KEY, name TEXT NOT NULL,
    ordinal INTEGER NOT NULL, chapters INTEGER NOT NULL)"""
CREATE_VERSES = """CREATE TABLE verses (book_id TEXT NOT NULL, chapter_num INTEGER NOT NULL,
    verse_num INTEGER NOT NULL, text TEXT NOT NULL,
    PRIMARY KEY (book_id, chapter_num, verse_num)) WITHOUT ROWID"""
CREATE_SCHOLARS = """CREATE TABLE scholars (scholar_id TEXT PRIMARY KEY, name TEXT NOT NULL,
    tradition TEXT, work TEXT)"""

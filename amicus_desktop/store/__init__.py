"""scripture.db: reading it (read-only) and, for the tools that make one, writing it.

All of the app's SQL lives here. ``schema`` names the tables; ``scripture`` reads them (``validate``
checks a file first, ``values`` types what comes out, ``conditions`` holds the SQL of filters and
passage coverage, ``catalogue`` the reader's books and the facets, ``declarations`` reads vec0 and
fts5 declarations, ``errors`` turns SQLite's errors into the contract's codes); ``keyword`` and
``fts`` are the full-text index; ``codes`` the two-stage file beside the database; ``writer``
builds a database; ``sqlite`` opens one.
"""

from .scripture import BookRow, ScriptureStore, StoreInfo
from .writer import ChunkRecord, ScriptureWriter

__all__ = ["BookRow", "ChunkRecord", "ScriptureStore", "ScriptureWriter", "StoreInfo"]

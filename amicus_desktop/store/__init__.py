"""scripture.db: reading it (read-only) and, for the tools that make one, writing it.

``schema`` names the tables; ``scripture`` reads them (``validate`` checks a file first, ``values``
types what comes out, ``conditions`` holds the SQL of filters and passage coverage,
``declarations`` reads vec0 and fts5 declarations); ``keyword`` and ``fts`` are the full-text index;
``codes`` the two-stage file beside the database; ``writer`` builds a database; ``sqlite`` opens one.
"""

from .scripture import BookRow, ScriptureStore, StoreInfo
from .writer import ChunkRecord, ScriptureWriter

__all__ = ["BookRow", "ChunkRecord", "ScriptureStore", "ScriptureWriter", "StoreInfo"]

"""scripture.db: reading it (read-only) and, for the tools that make one, writing it."""

from .scripture import BookRow, ScriptureStore, StoreInfo
from .writer import ChunkRecord, ScriptureWriter

__all__ = ["BookRow", "ChunkRecord", "ScriptureStore", "ScriptureWriter", "StoreInfo"]

"""Chunk sources: each turns installed modules into ``ChunkRecord``\\ s for a :class:`Scope`."""

from .common import DEMO_BOOKS, BibleText, Scope

__all__ = ["DEMO_BOOKS", "BibleText", "Scope"]

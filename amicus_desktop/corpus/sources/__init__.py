"""Chunk sources: each turns installed modules into ``ChunkRecord``\\ s for a :class:`Scope`."""

from .common import DEMO_BOOKS, SCHOLARS, BibleText, Scope

__all__ = ["DEMO_BOOKS", "SCHOLARS", "BibleText", "Scope"]

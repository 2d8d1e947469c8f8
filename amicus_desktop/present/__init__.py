"""How chunks are named for people: titles, snippets and citation lines (no Qt, no I/O)."""

from .citations import citation

__all__ = ["citation"]

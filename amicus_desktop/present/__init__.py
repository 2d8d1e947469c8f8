"""How chunks are named for people: titles, snippets and citation lines (no Qt, no I/O)."""

from .titles import citation, snippet, title

__all__ = ["citation", "snippet", "title"]

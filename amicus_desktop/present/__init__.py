"""How chunks are named for people: titles, snippets and citation lines (no Qt, no I/O)."""

from .titles import Names, citation, snippet, title

__all__ = ["Names", "citation", "snippet", "title"]

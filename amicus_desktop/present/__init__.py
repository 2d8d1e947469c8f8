"""How chunks are named for people: titles, snippets and citation lines (no Qt, no I/O)."""

from .citations import citation
from .titles import Names, snippet, title

__all__ = ["Names", "citation", "snippet", "title"]

"""Understanding a question before searching: scripture references in it, and the words to look for.

Pure functions of text (no I/O, no Qt).
"""

from .references import PassageError, find_references, parse_passage, resolve_book_name

__all__ = ["PassageError", "find_references", "parse_passage", "resolve_book_name"]

"""Counting tokens for a context budget, with a real tokenizer the project already ships.

The count uses the word-piece tokenizer of the local embedding model (all-MiniLM-L6-v2's
``tokenizer.json``, run by the ``tokenizers`` library), with its truncation and padding switched off
and no special tokens. Language models count with their own tokenizers; measured against another real
subword tokenizer on the demo library, a whole block differs by a few per cent and one chunk by up to
~15 % (docs/CONTEXT.md), which is why budgets are set with a margin rather than to the last token.
"""

from __future__ import annotations

import threading
from functools import cache
from typing import TYPE_CHECKING, Protocol

from ..embedding.local import TOKENIZER_PATH

if TYPE_CHECKING:  # the tokenizer is loaded when a budget is first counted: the app starts without it
    from tokenizers import Tokenizer


class TokenCounter(Protocol):
    """Anything that counts the tokens of a text."""

    def __call__(self, text: str) -> int: ...


class WordPieceCounter:
    """Counts word pieces with the shipped tokenizer (thread-safe; the tokenizer is loaded once)."""

    name = "all-MiniLM-L6-v2 word pieces"

    def __init__(self) -> None:
        self._lock = threading.Lock()

    @staticmethod
    @cache
    def _tokenizer() -> Tokenizer:
        from tokenizers import Tokenizer

        tok = Tokenizer.from_file(str(TOKENIZER_PATH))
        tok.no_truncation()
        tok.no_padding()
        return tok

    def __call__(self, text: str) -> int:
        if not text:
            return 0
        with self._lock:
            return len(self._tokenizer().encode(text, add_special_tokens=False).ids)

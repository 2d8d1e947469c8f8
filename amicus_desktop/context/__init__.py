"""Context assembly: retrieved chunks as a prompt-ready block within a token budget (no Qt)."""

from .assemble import DEFAULT_BUDGET, Context, Format, arrange, assemble
from .tokens import TokenCounter, WordPieceCounter

__all__ = ["DEFAULT_BUDGET", "Context", "Format", "TokenCounter", "WordPieceCounter", "arrange", "assemble"]

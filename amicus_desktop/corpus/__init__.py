"""The study corpus: public-domain SWORD modules → chunk records → scripture.db. No Qt.

Public API: :func:`build_database` (with :class:`BuildProgress`, :class:`BuildReport`,
:class:`BuildCancelled`), :class:`ProxyEmbedder`, and ``DEMO_BOOKS`` (Romans and John).
"""

from .build import (
    DEMO_BOOKS,
    BuildCancelled,
    BuildProgress,
    BuildReport,
    build_database,
    collect_chunks,
    scope_books,
)
from .embedders import EmbedderError, ProxyEmbedder

__all__ = [
    "DEMO_BOOKS",
    "BuildCancelled",
    "BuildProgress",
    "BuildReport",
    "EmbedderError",
    "ProxyEmbedder",
    "build_database",
    "collect_chunks",
    "scope_books",
]

"""The study corpus: public-domain SWORD modules → chunk records → scripture.db. No Qt.

Public API: :func:`build_database` (with :class:`BuildProgress`, :class:`BuildReport`,
:class:`BuildCancelled`) and ``DEMO_BOOKS`` (Romans and John). The embedders it takes are in
:mod:`amicus_desktop.embedding`.
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

__all__ = [
    "DEMO_BOOKS",
    "BuildCancelled",
    "BuildProgress",
    "BuildReport",
    "build_database",
    "collect_chunks",
    "scope_books",
]

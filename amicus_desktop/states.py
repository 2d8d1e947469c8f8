"""The app's states as plain data, below everything that shows or keeps them: where the library stands
(:class:`DbState`) and why a question could not be asked (:data:`AskFailure`). No Qt, no I/O.

``session/`` keeps and changes them; ``present/`` puts them in words; ``ui/`` shows them. They live here,
not in ``session/``, so that ``present/`` never imports the layer above it (tests/test_architecture.py).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path

from .core.errors import AmicusError
from .store.scripture import StoreInfo


class DbStatus(enum.StrEnum):
    """Where the database stands: loading, ready, missing (first run) or in error."""

    LOADING = "loading"
    READY = "ready"
    MISSING = "missing"  # first run: no database at the default path → welcome
    ERROR = "error"


@dataclass(frozen=True)
class DbState:
    """The database's state; ``info`` when ready, ``error`` when missing or failed."""

    status: DbStatus
    path: Path
    info: StoreInfo | None = None
    error: AmicusError | None = None

    @property
    def ready(self) -> bool:
        return self.status is DbStatus.READY


@dataclass(frozen=True)
class InternalError:
    """Asking failed because of a bug in Amicus Desktop: ``kind`` is the exception's type name,
    ``log_file`` where its traceback was written (``None`` when logging goes to stderr only)."""

    kind: str
    log_file: Path | None


AskFailure = AmicusError | InternalError
